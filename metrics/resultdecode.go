package metrics

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/internal/strictjson"
	"github.com/citecheck/citecheck/runs"
)

// resultDecoder fills a grade.Result from the tree decodeResult parsed,
// exactly as encoding/json with DisallowUnknownFields filled it when the
// line was decoded a second time, so that what results.jsonl means and
// how its faults read stay as they were (FuzzDecodeResult holds it to
// that):
//
//   - keys match a field exactly or, failing that, under case folding; a
//     key of no field is a fault ("json: unknown field") whose value is
//     skipped;
//   - null leaves a field at its zero value, and a pointer, slice or map
//     nil; after a fault the result is not used, so values past it do not
//     matter;
//   - a fault's path is the JSON names of the struct fields down to it,
//     without array indices or map keys, and the first fault is kept;
//   - a match level that is a string but no level name ends decoding, and
//     its error is the one reported, whatever came before.
type resultDecoder struct {
	strictjson.TreeDecoder
	abort error // a level name ParseLevel refused
}

// fault returns the fault decoding found, as decodeResult reports it: the
// path (none for an unknown key) and the error.
func (d *resultDecoder) fault() (string, error) {
	switch {
	case d.abort != nil:
		return "", fmt.Errorf("%w: %s", ErrResult, d.abort)
	case errors.Is(d.Err, strictjson.ErrValue):
		// TreeDecoder words a value fault "invalid value: expected int,
		// found JSON string"; results.jsonl's have always read "invalid
		// result: expected int, ...".
		return d.Path, fmt.Errorf("%w: %s", ErrResult, strings.TrimPrefix(d.Err.Error(), strictjson.ErrValue.Error()+": "))
	case d.Err != nil:
		return "", fmt.Errorf("%w: %s", ErrResult, d.Err)
	}
	return "", nil
}

// want reports whether v is of kind k. Unlike TreeDecoder.Want it names
// true and false "bool", as encoding/json does.
func (d *resultDecoder) want(v *strictjson.Value, path string, k strictjson.Kind, goType string) bool {
	if v.Kind == k {
		return true
	}
	kind := v.Kind.String()
	if v.Kind == strictjson.Bool {
		kind = "bool"
	}
	d.Fail(v, path, fmt.Errorf("%w: expected %s, found JSON %s", strictjson.ErrValue, goType, kind))
	return false
}

func (d *resultDecoder) str(v *strictjson.Value, path string) string {
	if v.Kind == strictjson.Null || !d.want(v, path, strictjson.String, "string") {
		return ""
	}
	return v.Str
}

func (d *resultDecoder) strPtr(v *strictjson.Value, path string) *string {
	if v.Kind == strictjson.Null {
		return nil
	}
	s := d.str(v, path)
	return &s
}

func (d *resultDecoder) bool(v *strictjson.Value, path string) bool {
	if v.Kind == strictjson.Null || !d.want(v, path, strictjson.Bool, "bool") {
		return false
	}
	return v.Bool
}

func (d *resultDecoder) int(v *strictjson.Value, path string) int {
	if v.Kind == strictjson.Null || !d.want(v, path, strictjson.Number, "int") {
		return 0
	}
	return d.Int(v, path)
}

func (d *resultDecoder) intPtr(v *strictjson.Value, path string) *int {
	if v.Kind == strictjson.Null {
		return nil
	}
	n := d.int(v, path)
	return &n
}

func (d *resultDecoder) float(v *strictjson.Value, path string) *float64 {
	if v.Kind == strictjson.Null || !d.want(v, path, strictjson.Number, "float64") {
		return nil
	}
	return d.Float(v, path)
}

func (d *resultDecoder) outcome(v *strictjson.Value, path string) grade.Outcome {
	if v.Kind == strictjson.Null || !d.want(v, path, strictjson.String, "grade.Outcome") {
		return ""
	}
	return grade.Outcome(v.Str)
}

func (d *resultDecoder) outcomePtr(v *strictjson.Value, path string) *grade.Outcome {
	if v.Kind == strictjson.Null {
		return nil
	}
	o := d.outcome(v, path)
	return &o
}

func (d *resultDecoder) strings(v *strictjson.Value, path string) []string {
	return array(d, v, path, "[]string", func(e *strictjson.Value, s *string) { *s = d.str(e, path) })
}

// array decodes v, a JSON array of goType (null: nil), as encoding/json
// fills a slice, each element by elem.
func array[T any](d *resultDecoder, v *strictjson.Value, path, goType string, elem func(e *strictjson.Value, t *T)) []T {
	if v.Kind == strictjson.Null || !d.want(v, path, strictjson.Array, goType) {
		return nil
	}
	out := make([]T, len(v.Elems))
	for i, e := range v.Elems {
		elem(e, &out[i])
	}
	return out
}

// object calls fn with each member of v, an object of goType, under the
// name of the field it fills (one of names), and records a key of none.
func (d *resultDecoder) object(v *strictjson.Value, path, goType string, names []string, fn func(name, path string, val *strictjson.Value)) bool {
	if v.Kind == strictjson.Null || !d.want(v, path, strictjson.Object, goType) {
		return false
	}
	for _, m := range v.Members {
		if d.abort != nil {
			return true
		}
		name := fieldName(m.Key, names)
		if name == "" {
			d.Fail(m.Value, "", fmt.Errorf("json: unknown field %q", m.Key))
			continue
		}
		fn(name, strictjson.JoinKey(path, name), m.Value)
	}
	return true
}

// fieldName returns the name of names that key matches, exactly or under
// case folding as encoding/json matches them, or "".
func fieldName(key string, names []string) string {
	for _, n := range names {
		if n == key {
			return n
		}
	}
	for _, n := range names {
		if strings.EqualFold(n, key) {
			return n
		}
	}
	return ""
}

var (
	resultKeys = []string{"arm", "session", "question", "position", "attempt", "kind", "fields", "citations",
		"factual", "supported", "abstention", "abstention_reasons", "claims", "review", "normalization",
		"response", "frozen", "out_of_order", "stop_reason", "timing", "retrieval", "unread", "source"}
	fieldVerdictKeys = []string{"verdict", "reasons", "value", "target", "rules", "details"}
	citationKeys     = []string{"id", "verdict", "reason", "document", "cited", "page", "quote", "pages",
		"spans", "match", "page_check", "claims", "detail"}
	spanKeys          = []string{"page", "start", "end"}
	claimKeys         = []string{"field", "supported"}
	normalizationKeys = []string{"quote", "value"}
	timingKeys        = []string{"retrieval_ms", "embedding_ms", "prompt_ms", "generation_ms", "total_ms",
		"cold_start_ms", "indexing_ms"}
	sourceKeys = []string{"file", "line"}
)

func (d *resultDecoder) result(v *strictjson.Value, r *grade.Result) {
	d.object(v, "", "grade.Result", resultKeys, func(name, p string, val *strictjson.Value) {
		switch name {
		case "arm":
			r.Arm = d.str(val, p)
		case "session":
			r.Session = d.int(val, p)
		case "question":
			r.Question = d.str(val, p)
		case "position":
			r.Position = d.int(val, p)
		case "attempt":
			r.Attempt = d.str(val, p)
		case "kind":
			r.Kind = d.str(val, p)
		case "fields":
			r.Fields = d.fields(val, p)
		case "citations":
			r.Citations = array(d, val, p, "[]grade.CitationResult", func(e *strictjson.Value, c *grade.CitationResult) { d.citation(e, p, c) })
		case "factual":
			r.Factual = d.outcomePtr(val, p)
		case "supported":
			r.Supported = d.outcomePtr(val, p)
		case "abstention":
			r.Abstention = d.outcomePtr(val, p)
		case "abstention_reasons":
			r.AbstentionReasons = d.strings(val, p)
		case "claims":
			r.Claims = array(d, val, p, "[]grade.ClaimResult", func(e *strictjson.Value, c *grade.ClaimResult) {
				d.object(e, p, "grade.ClaimResult", claimKeys, func(name, p string, val *strictjson.Value) {
					if name == "field" {
						c.Field = d.str(val, p)
					} else {
						c.Supported = d.outcome(val, p)
					}
				})
			})
		case "review":
			r.Review = d.strings(val, p)
		case "normalization":
			d.object(val, p, "grade.Normalization", normalizationKeys, func(name, p string, val *strictjson.Value) {
				if name == "quote" {
					r.Normalization.Quote = d.str(val, p)
				} else {
					r.Normalization.Value = d.str(val, p)
				}
			})
		case "response":
			r.Response = d.str(val, p)
		case "frozen":
			r.Frozen = d.bool(val, p)
		case "out_of_order":
			r.OutOfOrder = d.bool(val, p)
		case "stop_reason":
			r.StopReason = d.str(val, p)
		case "timing":
			r.Timing = d.timing(val, p)
		case "retrieval":
			r.Retrieval = array(d, val, p, "[]json.RawMessage", func(e *strictjson.Value, m *json.RawMessage) {
				*m = append(json.RawMessage(nil), d.Raw(e)...)
			})
		case "unread":
			r.Unread = d.strings(val, p)
		case "source":
			r.Source = nil
			if val.Kind != strictjson.Null && d.want(val, p, strictjson.Object, "grade.Source") {
				s := &grade.Source{}
				r.Source = s
				d.object(val, p, "grade.Source", sourceKeys, func(name, p string, val *strictjson.Value) {
					if name == "file" {
						s.File = d.str(val, p)
					} else {
						s.Line = d.int(val, p)
					}
				})
			}
		}
	})
}

func (d *resultDecoder) fields(v *strictjson.Value, path string) map[string]grade.FieldVerdict {
	if v.Kind == strictjson.Null || !d.want(v, path, strictjson.Object, "map[string]grade.FieldVerdict") {
		return nil
	}
	out := make(map[string]grade.FieldVerdict, len(v.Members))
	for _, m := range v.Members {
		if d.abort != nil {
			break
		}
		var f grade.FieldVerdict
		d.object(m.Value, path, "grade.FieldVerdict", fieldVerdictKeys, func(name, p string, val *strictjson.Value) {
			switch name {
			case "verdict":
				f.Verdict = d.outcome(val, p)
			case "reasons":
				f.Reasons = array(d, val, p, "[]grade.FieldReason", func(e *strictjson.Value, r *grade.FieldReason) {
					*r = grade.FieldReason(d.str(e, p))
				})
			case "value":
				f.Value = d.str(val, p)
			case "target":
				f.Target = d.str(val, p)
			case "rules":
				f.Rules = d.strings(val, p)
			case "details":
				f.Details = d.strings(val, p)
			}
		})
		out[m.Key] = f
	}
	return out
}

func (d *resultDecoder) citation(v *strictjson.Value, path string, c *grade.CitationResult) {
	d.object(v, path, "grade.CitationResult", citationKeys, func(name, p string, val *strictjson.Value) {
		switch name {
		case "id":
			c.ID = d.strPtr(val, p)
		case "verdict":
			c.Verdict = d.outcome(val, p)
		case "reason":
			if val.Kind != strictjson.Null && d.want(val, p, strictjson.String, "grade.Reason") {
				c.Reason = grade.Reason(val.Str)
			}
		case "document":
			c.Document = d.str(val, p)
		case "cited":
			c.Cited = d.str(val, p)
		case "page":
			c.Page = d.intPtr(val, p)
		case "quote":
			c.Quote = d.strPtr(val, p)
		case "pages":
			c.Pages = array(d, val, p, "[]int", func(e *strictjson.Value, n *int) { *n = d.int(e, p) })
		case "spans":
			c.Spans = array(d, val, p, "[]citations.Span", func(e *strictjson.Value, s *citations.Span) {
				d.object(e, p, "citations.Span", spanKeys, func(name, p string, val *strictjson.Value) {
					switch name {
					case "page":
						s.Page = d.int(val, p)
					case "start":
						s.Start = d.int(val, p)
					case "end":
						s.End = d.int(val, p)
					}
				})
			})
		case "match":
			c.Match = d.level(val, p)
		case "page_check":
			c.PageCheck = d.str(val, p)
		case "claims":
			c.Claims = d.strings(val, p)
		case "detail":
			c.Detail = d.str(val, p)
		}
	})
}

// level decodes a match level as encoding/json decodes a *citations.Level
// through its UnmarshalText: a value that is not a string is a fault
// naming the pointer type, a string that names no level ends decoding.
func (d *resultDecoder) level(v *strictjson.Value, path string) *citations.Level {
	if v.Kind == strictjson.Null {
		return nil
	}
	if v.Kind != strictjson.String {
		d.want(v, path, strictjson.String, "*citations.Level")
		return nil
	}
	l, err := citations.ParseLevel(v.Str)
	if err != nil {
		d.abort = err
	}
	return &l
}

func (d *resultDecoder) timing(v *strictjson.Value, path string) *runs.Timing {
	if v.Kind == strictjson.Null || !d.want(v, path, strictjson.Object, "citations.Timing") {
		return nil
	}
	t := &runs.Timing{}
	d.object(v, path, "citations.Timing", timingKeys, func(name, p string, val *strictjson.Value) {
		f := d.float(val, p)
		switch name {
		case "retrieval_ms":
			t.RetrievalMS = f
		case "embedding_ms":
			t.EmbeddingMS = f
		case "prompt_ms":
			t.PromptMS = f
		case "generation_ms":
			t.GenerationMS = f
		case "total_ms":
			t.TotalMS = f
		case "cold_start_ms":
			t.ColdStartMS = f
		case "indexing_ms":
			t.IndexingMS = f
		}
	})
	return t
}
