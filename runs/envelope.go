package runs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/citecheck/citecheck/internal/strictjson"
)

// Formats lists the run formats ReadRuns reads: "run" is Record JSON
// Lines; the others are envelopes around a vendor's native response.
// FormatAuto tells them apart by shape (DetectFormat).
var Formats = []string{"run", "anthropic", "openai", "gemini", "lmstudio", "langchain", "llamaindex"}

// Envelope is one line of a native capture: the attempt's identity as the
// harness knows it, how the run names documents, and the vendor's response
// object verbatim:
//
//	{"arm": "B", "session": 1, "question": "q01", "status": "ok",
//	 "documents": ["policy.pdf", "prices.pdf"],
//	 "timing": {"total_ms": 2310},
//	 "response": { ...the vendor's JSON... }}
//
// documents is a list (Anthropic's document_index is a position in the
// request's documents) or an object from the vendor's file id, title or
// path to a corpus name or hash, or to a list of candidate names (see
// Mapping). status defaults to "ok".
type Envelope struct {
	Arm        string          `json:"arm"`
	Session    int             `json:"session"`
	Question   string          `json:"question"`
	Status     string          `json:"status"`
	StopReason string          `json:"stop_reason"`
	Documents  json.RawMessage `json:"documents"`
	Timing     *Timing         `json:"timing"`
	Response   json.RawMessage `json:"response"`
}

var envelopeShape = &strictjson.Shape{Keys: map[string]*strictjson.Shape{
	"arm": nil, "session": nil, "question": nil, "status": nil, "stop_reason": nil,
	"documents": nil, "response": nil, "timing": TimingShape,
}}

// vendorKeys are, per format, the field names the adapter reads from the
// vendor's payload, folded to their exact spelling: a payload key differing
// only in case would be bound by encoding/json without notice, so it is
// refused. Gemini's are in both spellings its SDKs write (camelCase REST,
// snake_case Python model_dump()): they are two keys, not case variants.
var vendorKeys = map[string]map[string]string{
	"anthropic": keySet(`type role content text citations cited_text document_index document_title
		start_page_number end_page_number stop_reason url title source`),
	"openai": keySet(`object status output type content text annotations file_id filename value
		file_citation quote incomplete_details reason results score url title`),
	"gemini": keySet(`candidates content parts text finishReason finish_reason groundingMetadata grounding_metadata
		groundingChunks grounding_chunks groundingSupports grounding_supports retrievedContext retrieved_context
		web maps uri title pageNumber page_number ragChunk rag_chunk pageSpan page_span firstPage first_page
		lastPage last_page segment partIndex part_index startIndex start_index endIndex end_index
		groundingChunkIndices grounding_chunk_indices`),
	"lmstudio":   keySet(`role content citations type text citedText fileName fileIdentifier pageNumber stats stopReason`),
	"langchain":  keySet(`context answer citations source_id quote page_content metadata source file_path page page_label cited_answer citation`),
	"llamaindex": keySet(`response source_nodes node text metadata file_name file_path page_label`),
}

func keySet(fields string) map[string]string {
	m := map[string]string{}
	for _, k := range strings.Fields(fields) {
		m[strictjson.Fold(k)] = k
	}
	return m
}

// ReadRuns reads a run file in the given format (one of Formats, or
// FormatAuto) and returns run records, each validated. Native formats are
// read through their adapter; no adapter trusts a vendor's offsets: they
// are kept in the citation's Native field and every quote is located again
// in the corpus's own text.
func ReadRuns(r io.Reader, file, format string) ([]Record, error) {
	var out []Record
	err := EachRun(r, file, format, func(rec *Record) error {
		out = append(out, *rec)
		return nil
	})
	return out, err
}

// EachRun reads a run file as ReadRuns does and calls fn with each record
// in file order, as it is read, so that a grader can stream files of any
// length; it stops at the first input error or error of fn. fn may keep
// the record. What an adapter left unread although it looks like
// citations is noted in the record's Unread, never dropped in silence.
func EachRun(r io.Reader, file, format string, fn func(*Record) error) error {
	if format == "run" || format == "" {
		return eachRunRecord(r, file, fn)
	}
	if format == FormatAuto {
		return eachAuto(r, file, fn)
	}
	adapt, ok := adapters[format]
	if !ok {
		return &InputError{File: file, Err: fmt.Errorf("%w: format %q (want one of %s)", strictjson.ErrValue, format, strings.Join(Formats, ", "))}
	}
	return strictjson.Objects{Limits: lineLimits, Shape: envelopeShape, Spelled: vendorKeys[format], UserData: vendorUserData, Explain: mixedFormats(format)}.Each(r, file, func(n int, v *strictjson.Value, data []byte) error {
		fail := func(field string, err error) error { return &InputError{File: file, Line: n, Field: field, Err: err} }
		var env Envelope
		if f, err := decodeEnvelope(v, data, &env); err != nil {
			return fail(f, err)
		}
		if k := v.Missing("arm", "session", "question", "response"); k != "" {
			return fail(k, strictjson.ErrMissing)
		}
		rec := &Record{Arm: env.Arm, Session: env.Session, Question: env.Question, Status: env.Status,
			StopReason: env.StopReason, Timing: env.Timing, Format: format, Line: n, Citations: []Citation{}}
		m, f, err := envelopeDocuments(env.Documents)
		if err != nil {
			return fail(f, err)
		}
		rec.Documents = m
		if f, err := adapt(rec, env.Response); err != nil {
			return fail("response"+f, err)
		}
		if m := v.Get("response"); m != nil {
			noteUnread(rec, format, m.Value)
		}
		if rec.Status == "" {
			rec.Status = "ok"
		}
		for i := range rec.Citations {
			if rec.Citations[i].ID == "" {
				rec.Citations[i].ID = fmt.Sprintf("c%d", i+1)
			}
		}
		if len(rec.Documents) == 0 {
			rec.Documents = nil
		}
		if f, err := rec.Validate(); err != nil {
			return fail(f, err)
		}
		return fn(rec)
	})
}

// envelopeDocuments turns the envelope's documents into a Mapping; a list
// is keyed "document_index:N".
func envelopeDocuments(raw json.RawMessage) (Mapping, string, error) {
	m := Mapping{}
	if len(raw) == 0 || string(raw) == "null" {
		return m, "", nil
	}
	var list []*string
	if json.Unmarshal(raw, &list) == nil {
		for i, name := range list {
			if name == nil { // encoding/json would read null as ""
				return nil, fmt.Sprintf("documents[%d]", i), fmt.Errorf("%w: null is no document name", strictjson.ErrValue)
			}
			m[indexKey(i)] = []string{*name}
		}
		return m, "", nil
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, "documents", fmt.Errorf("%w: want a list of names or an object of names", strictjson.ErrValue)
	}
	return m, "", nil
}

// vendorUserData are the keys of vendor responses whose values the
// vendor's user writes (a tool call's input and arguments, a file's
// attributes): no adapter reads them, so their keys are not held to the
// adapter's spellings ("URL" in a tool's input is no misspelt "url").
var vendorUserData = map[string]bool{"input": true, "arguments": true, "args": true, "attributes": true}

func indexKey(i int) string { return "document_index:" + strconv.Itoa(i) }

// ref returns how a citation names its document: key when the run's
// mapping knows it, else the first non-empty fallback.
func ref(m Mapping, key string, fallbacks ...string) string {
	if mapped(m, key) {
		return key
	}
	if f := firstOf(fallbacks...); f != "" {
		return f
	}
	return key
}

type adapter func(rec *Record, resp json.RawMessage) (field string, err error)

var adapters = map[string]adapter{
	"anthropic":  adaptAnthropic,
	"openai":     adaptOpenAI,
	"gemini":     adaptGemini,
	"lmstudio":   adaptLMStudio,
	"langchain":  adaptLangChain,
	"llamaindex": adaptLlamaIndex,
}

// unmarshal decodes a vendor's payload, whose keys the envelope's reader
// has checked, into the adapter's view of it, and returns the JSON path
// (".key") of a type fault.
func unmarshal(raw json.RawMessage, v any) (string, error) {
	if err := json.Unmarshal(raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return "." + te.Field, decodeFault(err)
		}
		return "", decodeFault(err)
	}
	return "", nil
}

func ptr[T any](v T) *T { return &v }

// isWebURL reports whether a document reference is a web address.
func isWebURL(s string) bool {
	return strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "http://")
}

// mapped reports whether the run's mapping names key.
func mapped(m Mapping, key string) bool {
	_, ok := m[key]
	return ok && key != ""
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// labelString reads a page label given as a string or a number.
func labelString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}
