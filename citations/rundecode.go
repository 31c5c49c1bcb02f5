package citations

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/citecheck/citecheck/internal/strictjson"
)

// decodeRunRecord fills a run record from the tree checkKeys parsed (keys
// already checked against runSchema), as encoding/json would but without
// parsing the line a second time: grading reads run files at tens of
// thousands of records a second. null leaves a field at its zero value,
// as encoding/json does. It returns the JSON path of a fault.
func decodeRunRecord(v *strictjson.Value, data []byte, rec *RunRecord) (string, error) {
	d := treeDecoder{data: data}
	for _, m := range v.Members {
		val := m.Value
		switch m.Key {
		case "arm":
			rec.Arm = d.str(val, m.Key)
		case "session":
			rec.Session = d.int(val, m.Key)
		case "question":
			rec.Question = d.str(val, m.Key)
		case "status":
			rec.Status = d.str(val, m.Key)
		case "stop_reason":
			rec.StopReason = d.str(val, m.Key)
		case "response":
			rec.Response = d.str(val, m.Key)
		case "format":
			rec.Format = d.str(val, m.Key)
		case "fields":
			if val.Kind == strictjson.Null {
				continue
			}
			if d.want(val, m.Key, strictjson.Object, "map[string]string") {
				rec.Fields = make(map[string]string, len(val.Members))
				for _, f := range val.Members {
					rec.Fields[f.Key] = d.str(f.Value, strictjson.JoinKey(m.Key, f.Key))
				}
			}
		case "citations":
			if val.Kind == strictjson.Null {
				continue
			}
			if d.want(val, m.Key, strictjson.Array, "[]citations.RunCitation") {
				rec.Citations = make([]RunCitation, len(val.Elems))
				for i, e := range val.Elems {
					d.citation(e, fmt.Sprintf("citations[%d]", i), &rec.Citations[i])
				}
			}
		case "unread":
			if val.Kind == strictjson.Null {
				continue
			}
			if d.want(val, m.Key, strictjson.Array, "[]string") {
				rec.Unread = make([]string, len(val.Elems))
				for i, e := range val.Elems {
					rec.Unread[i] = d.str(e, fmt.Sprintf("unread[%d]", i))
				}
			}
		case "retrieval":
			if val.Kind == strictjson.Null {
				continue
			}
			if d.want(val, m.Key, strictjson.Array, "[]json.RawMessage") {
				rec.Retrieval = make([]json.RawMessage, len(val.Elems))
				for i, e := range val.Elems {
					rec.Retrieval[i] = d.raw(e)
				}
			}
		case "documents":
			if err := rec.Documents.UnmarshalJSON(d.raw(val)); err != nil && d.err == nil {
				d.field, d.err = m.Key, decodeFault(err)
				var te *json.UnmarshalTypeError
				if errors.As(err, &te) && te.Field != "" {
					d.field = m.Key + "." + te.Field
				}
			}
		case "timing":
			if val.Kind == strictjson.Null {
				continue
			}
			if d.want(val, m.Key, strictjson.Object, "citations.Timing") {
				rec.Timing = &Timing{}
				d.timing(val, m.Key, rec.Timing)
			}
		}
	}
	return d.field, d.err
}

// treeDecoder keeps the first fault.
type treeDecoder struct {
	data  []byte
	field string
	err   error
}

func (d *treeDecoder) fail(path string, v *strictjson.Value, goType string) {
	if d.err == nil {
		d.field, d.err = path, fmt.Errorf("%w: expected %s, found JSON %s", ErrInvalid, goType, v.Kind)
	}
}

func (d *treeDecoder) want(v *strictjson.Value, path string, k strictjson.Kind, goType string) bool {
	if v.Kind != k {
		d.fail(path, v, goType)
		return false
	}
	return true
}

func (d *treeDecoder) str(v *strictjson.Value, path string) string {
	if v.Kind == strictjson.Null {
		return ""
	}
	if d.want(v, path, strictjson.String, "string") {
		return v.Str
	}
	return ""
}

func (d *treeDecoder) bool(v *strictjson.Value, path string) bool {
	if v.Kind == strictjson.Null {
		return false
	}
	if d.want(v, path, strictjson.Bool, "bool") {
		return v.Bool
	}
	return false
}

func (d *treeDecoder) int(v *strictjson.Value, path string) int {
	if v.Kind == strictjson.Null {
		return 0
	}
	if !d.want(v, path, strictjson.Number, "int") {
		return 0
	}
	n, err := strconv.ParseInt(v.Str, 10, strconv.IntSize)
	if err != nil {
		if d.err == nil {
			d.field, d.err = path, fmt.Errorf("%w: expected int, found JSON number %s", ErrInvalid, v.Str)
		}
		return 0
	}
	return int(n)
}

func (d *treeDecoder) intPtr(v *strictjson.Value, path string) *int {
	if v.Kind == strictjson.Null {
		return nil
	}
	n := d.int(v, path)
	return &n
}

func (d *treeDecoder) float(v *strictjson.Value, path string) *float64 {
	if v.Kind == strictjson.Null {
		return nil
	}
	if !d.want(v, path, strictjson.Number, "float64") {
		return nil
	}
	f, err := strconv.ParseFloat(v.Str, 64)
	if err != nil {
		if d.err == nil {
			d.field, d.err = path, fmt.Errorf("%w: expected float64, found JSON number %s", ErrInvalid, v.Str)
		}
		return nil
	}
	return &f
}

func (d *treeDecoder) raw(v *strictjson.Value) json.RawMessage {
	return json.RawMessage(d.data[v.Offset:v.End])
}

func (d *treeDecoder) citation(v *strictjson.Value, path string, c *RunCitation) {
	if v.Kind == strictjson.Null {
		return
	}
	if !d.want(v, path, strictjson.Object, "citations.RunCitation") {
		return
	}
	for _, m := range v.Members {
		p := path + "." + m.Key
		val := m.Value
		switch m.Key {
		case "id":
			c.ID = d.str(val, p)
		case "document":
			c.Document = d.str(val, p)
		case "page":
			c.Page = d.intPtr(val, p)
		case "last_page":
			c.LastPage = d.intPtr(val, p)
		case "page_label":
			c.PageLabel = d.str(val, p)
		case "quote":
			if val.Kind != strictjson.Null {
				q := d.str(val, p)
				c.Quote = &q
			}
		case "claim":
			c.Claim = d.str(val, p)
		case "native":
			if val.Kind != strictjson.Null {
				c.Native = d.raw(val)
			}
		case "external":
			c.External = d.bool(val, p)
		case "quote_from":
			c.QuoteFrom = d.str(val, p)
		case "page_physical":
			c.PagePhysical = d.bool(val, p)
		case "title":
			c.Title = d.str(val, p)
		}
	}
}

func (d *treeDecoder) timing(v *strictjson.Value, path string, t *Timing) {
	for _, m := range v.Members {
		p := path + "." + m.Key
		switch m.Key {
		case "retrieval_ms":
			t.RetrievalMS = d.float(m.Value, p)
		case "embedding_ms":
			t.EmbeddingMS = d.float(m.Value, p)
		case "prompt_ms":
			t.PromptMS = d.float(m.Value, p)
		case "generation_ms":
			t.GenerationMS = d.float(m.Value, p)
		case "total_ms":
			t.TotalMS = d.float(m.Value, p)
		case "cold_start_ms":
			t.ColdStartMS = d.float(m.Value, p)
		case "indexing_ms":
			t.IndexingMS = d.float(m.Value, p)
		}
	}
}

// decodeFault turns an encoding/json error into the form decodeStrict
// gives.
func decodeFault(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("%w: expected %s, found JSON %s", ErrInvalid, te.Type, te.Value)
	}
	return jsonSyntax(err)
}
