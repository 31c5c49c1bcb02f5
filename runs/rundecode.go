package runs

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/citecheck/citecheck/internal/strictjson"
)

// decodeRunRecord fills a run record from the tree strictjson.Objects.Each
// parsed (keys already checked against runShape), as encoding/json would
// but without parsing the line a second time: grading reads run files at
// tens of thousands of records a second. null leaves a field at its zero
// value, as encoding/json does. It returns the JSON path of a fault.
func decodeRunRecord(v *strictjson.Value, data []byte, rec *Record) (string, error) {
	d := &strictjson.TreeDecoder{Data: data}
	at := attempt{&rec.Arm, &rec.Session, &rec.Question, &rec.Status, &rec.StopReason, &rec.Timing}
	for _, m := range v.Members {
		val := m.Value
		if at.decode(d, m) {
			continue
		}
		switch m.Key {
		case "response":
			rec.Response = d.Str(val, m.Key)
		case "format":
			rec.Format = d.Str(val, m.Key)
		case "fields":
			if val.Kind == strictjson.Null {
				continue
			}
			if d.Want(val, m.Key, strictjson.Object, "map[string]string") {
				rec.Fields = make(map[string]string, len(val.Members))
				for _, f := range val.Members {
					rec.Fields[f.Key] = d.Str(f.Value, strictjson.JoinKey(m.Key, f.Key))
				}
			}
		case "citations":
			if val.Kind == strictjson.Null {
				continue
			}
			if d.Want(val, m.Key, strictjson.Array, "[]citations.Citation") {
				rec.Citations = make([]Citation, len(val.Elems))
				for i, e := range val.Elems {
					decodeCitation(d, e, fmt.Sprintf("citations[%d]", i), &rec.Citations[i])
				}
			}
		case "unread":
			if val.Kind == strictjson.Null {
				continue
			}
			if d.Want(val, m.Key, strictjson.Array, "[]string") {
				rec.Unread = make([]string, len(val.Elems))
				for i, e := range val.Elems {
					rec.Unread[i] = d.Str(e, fmt.Sprintf("unread[%d]", i))
				}
			}
		case "retrieval":
			if val.Kind == strictjson.Null {
				continue
			}
			if d.Want(val, m.Key, strictjson.Array, "[]json.RawMessage") {
				rec.Retrieval = make([]json.RawMessage, len(val.Elems))
				for i, e := range val.Elems {
					rec.Retrieval[i] = d.Raw(e)
				}
			}
		case "documents":
			if err := rec.Documents.UnmarshalJSON(d.Raw(val)); err != nil {
				path := m.Key
				var te *json.UnmarshalTypeError
				if errors.As(err, &te) && te.Field != "" {
					path += "." + te.Field
				}
				d.Fail(val, path, decodeFault(err))
			}
		}
	}
	return d.Path, d.Err
}

func decodeCitation(d *strictjson.TreeDecoder, v *strictjson.Value, path string, c *Citation) {
	if v.Kind == strictjson.Null {
		return
	}
	if !d.Want(v, path, strictjson.Object, "citations.Citation") {
		return
	}
	for _, m := range v.Members {
		p := path + "." + m.Key
		val := m.Value
		switch m.Key {
		case "id":
			c.ID = d.Str(val, p)
		case "document":
			c.Document = d.Str(val, p)
		case "page":
			c.Page = d.IntPtr(val, p)
		case "last_page":
			c.LastPage = d.IntPtr(val, p)
		case "page_label":
			c.PageLabel = d.Str(val, p)
		case "quote":
			if val.Kind != strictjson.Null {
				q := d.Str(val, p)
				c.Quote = &q
			}
		case "claim":
			c.Claim = d.Str(val, p)
		case "native":
			if val.Kind != strictjson.Null {
				c.Native = d.Raw(val)
			}
		case "external":
			c.External = d.Bool(val, p)
		case "quote_from":
			c.QuoteFrom = d.Str(val, p)
		case "page_physical":
			c.PagePhysical = d.Bool(val, p)
		case "title":
			c.Title = d.Str(val, p)
		}
	}
}

// DecodeTiming decodes timing (TimingShape) from a checked tree, for this
// package's readers and the results reader (package grade), which copies
// a record's timing; null is nil.
func DecodeTiming(d *strictjson.TreeDecoder, v *strictjson.Value, path string) *Timing {
	if v.Kind == strictjson.Null || !d.Want(v, path, strictjson.Object, "citations.Timing") {
		return nil
	}
	t := &Timing{}
	for _, m := range v.Members {
		p := path + "." + m.Key
		switch m.Key {
		case "retrieval_ms":
			t.RetrievalMS = d.Float(m.Value, p)
		case "embedding_ms":
			t.EmbeddingMS = d.Float(m.Value, p)
		case "prompt_ms":
			t.PromptMS = d.Float(m.Value, p)
		case "generation_ms":
			t.GenerationMS = d.Float(m.Value, p)
		case "total_ms":
			t.TotalMS = d.Float(m.Value, p)
		case "cold_start_ms":
			t.ColdStartMS = d.Float(m.Value, p)
		case "indexing_ms":
			t.IndexingMS = d.Float(m.Value, p)
		}
	}
	return t
}

// decodeEnvelope fills an envelope from its checked tree, as encoding/json
// would (see decodeRunRecord); documents and response stay raw JSON.
func decodeEnvelope(v *strictjson.Value, data []byte, env *Envelope) (string, error) {
	d := &strictjson.TreeDecoder{Data: data}
	if v.Kind != strictjson.Null && !d.Want(v, "", strictjson.Object, "citations.Envelope") {
		return d.Path, d.Err
	}
	at := attempt{&env.Arm, &env.Session, &env.Question, &env.Status, &env.StopReason, &env.Timing}
	for _, m := range v.Members {
		if at.decode(d, m) {
			continue
		}
		switch m.Key {
		case "documents":
			env.Documents = d.Raw(m.Value)
		case "response":
			env.Response = d.Raw(m.Value)
		}
	}
	return d.Path, d.Err
}

// attempt points at the keys a run record and an envelope share: the
// attempt's identity and timing.
type attempt struct {
	arm                          *string
	session                      *int
	question, status, stopReason *string
	timing                       **Timing
}

// decode decodes m when it is one of the attempt's keys and reports
// whether it was.
func (a attempt) decode(d *strictjson.TreeDecoder, m strictjson.Member) bool {
	switch m.Key {
	case "arm":
		*a.arm = d.Str(m.Value, m.Key)
	case "session":
		*a.session = d.Int(m.Value, m.Key)
	case "question":
		*a.question = d.Str(m.Value, m.Key)
	case "status":
		*a.status = d.Str(m.Value, m.Key)
	case "stop_reason":
		*a.stopReason = d.Str(m.Value, m.Key)
	case "timing":
		*a.timing = DecodeTiming(d, m.Value, m.Key)
	default:
		return false
	}
	return true
}

// decodeFault turns an encoding/json error into the tree decoder's form.
func decodeFault(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		// The messages name this package's types as they were named when
		// package citations read runs ("citations.Mapping"): the messages
		// stay as they were.
		typ := strings.ReplaceAll(te.Type.String(), "runs.", "citations.")
		return fmt.Errorf("%w: expected %s, found JSON %s", strictjson.ErrValue, typ, te.Value)
	}
	return fmt.Errorf("%w: %s", strictjson.ErrValue, strings.TrimPrefix(err.Error(), "json: "))
}
