package grade

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/citecheck/citecheck/internal/strictjson"
	"github.com/citecheck/citecheck/runs"
)

// resultShape lists the keys of a result and of the objects in it, as
// WriteResult writes them, and "format" (ResultsFormat), which a line may
// name.
var resultShape = func() *strictjson.Shape {
	keys := func(names ...string) *strictjson.Shape {
		s := &strictjson.Shape{Keys: map[string]*strictjson.Shape{}}
		for _, n := range names {
			s.Keys[n] = nil
		}
		return s
	}
	list := func(elem *strictjson.Shape) *strictjson.Shape { return &strictjson.Shape{Elem: elem} }
	citation := keys("id", "verdict", "reason", "document", "cited", "page", "quote", "pages", "spans", "match", "page_check", "claims", "detail")
	citation.Keys["spans"] = list(keys("page", "start", "end"))
	result := keys("format", "arm", "session", "question", "position", "attempt", "kind", "factual", "supported", "abstention",
		"abstention_reasons", "review", "response", "frozen", "out_of_order", "stop_reason", "retrieval", "unread")
	result.Keys["fields"] = &strictjson.Shape{Values: keys("verdict", "reasons", "value", "target", "rules", "details")}
	result.Keys["citations"] = list(citation)
	result.Keys["claims"] = list(keys("field", "supported"))
	result.Keys["normalization"] = keys("quote", "value")
	result.Keys["timing"] = runs.TimingShape
	result.Keys["source"] = keys("file", "line")
	return result
}()

// Sentinels inside the *inputerr.Error ReadResults and ReadResultFiles
// return.
var (
	ErrNoResults = errors.New("no results")
	ErrResult    = errors.New("invalid result")
	// ErrCountedTwice: one planned attempt in two results (ReadResultFiles).
	ErrCountedTwice = errors.New("a planned attempt is in two results")
)

// decodeResultLine decodes one line of results.jsonl strictly (see
// ReadResults); the error's File and Line are the caller's to set.
func decodeResultLine(data []byte) (*Result, *inputerr.Error) {
	invalid := func(path string, err error) *inputerr.Error {
		return &inputerr.Error{Field: path, Err: fmt.Errorf("%w: %w", ErrResult, err)}
	}
	v, err := strictjson.Parse(data, "", strictjson.Limits{})
	if err == nil && v.Kind != strictjson.Object {
		return nil, invalid("", errors.New("not a JSON object"))
	}
	if err == nil {
		err = resultShape.Check(data, "", v, nil)
	}
	var se *strictjson.Error
	if errors.As(err, &se) {
		return nil, invalid(se.Path, se.Err)
	}
	if err != nil {
		return nil, invalid("", err)
	}
	if k := v.Missing("arm", "session", "question", "attempt", "kind"); k != "" {
		return nil, invalid(k, strictjson.ErrMissing)
	}
	r := &Result{}
	d := &strictjson.TreeDecoder{Data: data}
	decodeResult(d, v, r)
	if d.Err != nil {
		// TreeDecoder words a value fault "invalid value: expected int,
		// found JSON string"; a result's has always read "invalid result:
		// expected int, ...".
		return nil, &inputerr.Error{Field: d.Path, Err: fmt.Errorf("%w: %s", ErrResult, strings.TrimPrefix(d.Err.Error(), strictjson.ErrValue.Error()+": "))}
	}
	if ferr := checkResult(r); ferr != nil {
		return nil, ferr
	}
	return r, nil
}

// decodeResult fills r from v, a tree resultShape has checked: null
// leaves a field at its zero value, as encoding/json leaves it.
func decodeResult(d *strictjson.TreeDecoder, v *strictjson.Value, r *Result) {
	for _, m := range v.Members {
		p, val := m.Key, m.Value
		switch m.Key {
		case "format":
			if f := d.Str(val, p); f != ResultsFormat {
				d.Fail(val, p, fmt.Errorf("%w: format %q (this citecheck reads %s)", strictjson.ErrValue, f, ResultsFormat))
			}
		case "arm":
			r.Arm = d.Str(val, p)
		case "session":
			r.Session = d.Int(val, p)
		case "question":
			r.Question = d.Str(val, p)
		case "position":
			r.Position = d.Int(val, p)
		case "attempt":
			r.Attempt = d.Str(val, p)
		case "kind":
			r.Kind = d.Str(val, p)
		case "fields":
			r.Fields = decodeFieldVerdicts(d, val, p)
		case "citations":
			r.Citations = strictjson.Slice(d, val, p, "[]grade.CitationResult", func(e *strictjson.Value, p string, c *CitationResult) {
				decodeCitationResult(d, e, p, c)
			})
		case "factual":
			r.Factual = decodeOutcomePtr(d, val, p)
		case "supported":
			r.Supported = decodeOutcomePtr(d, val, p)
		case "abstention":
			r.Abstention = decodeOutcomePtr(d, val, p)
		case "abstention_reasons":
			r.AbstentionReasons = d.Strings(val, p)
		case "claims":
			r.Claims = strictjson.Slice(d, val, p, "[]grade.ClaimResult", func(e *strictjson.Value, p string, c *ClaimResult) {
				d.Object(e, p, "grade.ClaimResult", func(key string, val *strictjson.Value, p string) {
					if key == "field" {
						c.Field = d.Str(val, p)
					} else {
						c.Supported = decodeOutcome(d, val, p)
					}
				})
			})
		case "review":
			r.Review = d.Strings(val, p)
		case "normalization":
			d.Object(val, p, "grade.Normalization", func(key string, val *strictjson.Value, p string) {
				if key == "quote" {
					r.Normalization.Quote = d.Str(val, p)
				} else {
					r.Normalization.Value = d.Str(val, p)
				}
			})
		case "response":
			r.Response = d.Str(val, p)
		case "frozen":
			r.Frozen = d.Bool(val, p)
		case "out_of_order":
			r.OutOfOrder = d.Bool(val, p)
		case "stop_reason":
			r.StopReason = d.Str(val, p)
		case "timing":
			r.Timing = runs.DecodeTiming(d, val, p)
		case "retrieval":
			// A copy: a card must not hold its whole line in memory.
			r.Retrieval = strictjson.Slice(d, val, p, "[]json.RawMessage", func(e *strictjson.Value, _ string, m *json.RawMessage) {
				*m = append(json.RawMessage(nil), d.Raw(e)...)
			})
		case "unread":
			r.Unread = d.Strings(val, p)
		case "source":
			r.Source = decodeSource(d, val, p)
		}
	}
}

func decodeOutcome(d *strictjson.TreeDecoder, v *strictjson.Value, path string) Outcome {
	if v.Kind != strictjson.Null && d.Want(v, path, strictjson.String, "grade.Outcome") {
		return Outcome(v.Str)
	}
	return ""
}

func decodeOutcomePtr(d *strictjson.TreeDecoder, v *strictjson.Value, path string) *Outcome {
	if v.Kind == strictjson.Null {
		return nil
	}
	o := decodeOutcome(d, v, path)
	return &o
}

func decodeFieldVerdicts(d *strictjson.TreeDecoder, v *strictjson.Value, path string) map[string]FieldVerdict {
	out := map[string]FieldVerdict{}
	isObject := d.Object(v, path, "map[string]grade.FieldVerdict", func(field string, e *strictjson.Value, path string) {
		var f FieldVerdict
		d.Object(e, path, "grade.FieldVerdict", func(key string, val *strictjson.Value, p string) {
			switch key {
			case "verdict":
				f.Verdict = decodeOutcome(d, val, p)
			case "reasons":
				f.Reasons = strictjson.Slice(d, val, p, "[]grade.FieldReason", func(e *strictjson.Value, p string, r *FieldReason) {
					*r = FieldReason(d.Str(e, p))
				})
			case "value", "target":
				*f.text(key) = d.Str(val, p)
			default:
				*f.list(key) = d.Strings(val, p)
			}
		})
		out[field] = f
	})
	if !isObject {
		return nil
	}
	return out
}

func decodeCitationResult(d *strictjson.TreeDecoder, v *strictjson.Value, path string, c *CitationResult) {
	d.Object(v, path, "grade.CitationResult", func(key string, val *strictjson.Value, p string) {
		switch key {
		case "id":
			c.ID = d.StrPtr(val, p)
		case "verdict":
			c.Verdict = decodeOutcome(d, val, p)
		case "reason":
			if val.Kind != strictjson.Null && d.Want(val, p, strictjson.String, "grade.Reason") {
				c.Reason = Reason(val.Str)
			}
		case "page":
			c.Page = d.IntPtr(val, p)
		case "quote":
			c.Quote = d.StrPtr(val, p)
		case "pages":
			c.Pages = strictjson.Slice(d, val, p, "[]int", func(e *strictjson.Value, p string, n *int) { *n = d.Int(e, p) })
		case "spans":
			c.Spans = strictjson.Slice(d, val, p, "[]citations.Span", func(e *strictjson.Value, p string, s *citations.Span) {
				d.Object(e, p, "citations.Span", func(key string, val *strictjson.Value, p string) {
					n := d.Int(val, p)
					switch key {
					case "page":
						s.Page = n
					case "start":
						s.Start = n
					default:
						s.End = n
					}
				})
			})
		case "match":
			c.Match = decodeLevel(d, val, p)
		case "claims":
			c.Claims = d.Strings(val, p)
		case "document", "cited", "page_check", "detail":
			*c.text(key) = d.Str(val, p)
		}
	})
}

// text returns the string field of c the key names: document, cited,
// page_check or detail.
func (c *CitationResult) text(key string) *string {
	switch key {
	case "document":
		return &c.Document
	case "cited":
		return &c.Cited
	case "page_check":
		return &c.PageCheck
	}
	return &c.Detail
}

// text returns the string field of f the key names: value or target.
func (f *FieldVerdict) text(key string) *string {
	if key == "value" {
		return &f.Value
	}
	return &f.Target
}

// list returns the list field of f the key names: rules or details.
func (f *FieldVerdict) list(key string) *[]string {
	if key == "rules" {
		return &f.Rules
	}
	return &f.Details
}

// decodeLevel decodes a match level by its name (citations.ParseLevel).
func decodeLevel(d *strictjson.TreeDecoder, v *strictjson.Value, path string) *citations.Level {
	if v.Kind == strictjson.Null || !d.Want(v, path, strictjson.String, "*citations.Level") {
		return nil
	}
	l, err := citations.ParseLevel(v.Str)
	if err != nil {
		d.Fail(v, path, fmt.Errorf("%w: %w", strictjson.ErrValue, err))
		return nil
	}
	return &l
}

func decodeSource(d *strictjson.TreeDecoder, v *strictjson.Value, path string) *Source {
	s := &Source{}
	ok := d.Object(v, path, "grade.Source", func(key string, val *strictjson.Value, p string) {
		if key == "file" {
			s.File = d.Str(val, p)
		} else {
			s.Line = d.Int(val, p)
		}
	})
	if !ok {
		return nil
	}
	return s
}

// checkResult refuses values the format does not have, so that no result
// is miscounted: an unknown attempt status would be counted nowhere, an
// unknown outcome as unresolved.
func checkResult(r *Result) *inputerr.Error {
	bad := func(field, format string, args ...any) *inputerr.Error {
		return &inputerr.Error{Field: field, Err: fmt.Errorf("%w: "+format, append([]any{ErrResult}, args...)...)}
	}
	switch r.Kind {
	case KindAnswerable, KindUnknown:
	default:
		return bad("kind", "%q (want answerable or unknown)", r.Kind)
	}
	switch r.Attempt {
	case AttemptOK, AttemptError, AttemptTimeout, AttemptInterrupted, AttemptMissing, AttemptDuplicate, AttemptExtra:
	default:
		return bad("attempt", "%q (want ok, error, timeout, interrupted, missing, duplicate or extra)", r.Attempt)
	}
	verdicts := []struct {
		field string
		o     *Outcome
		want  bool // present for this kind; absent (null) otherwise
	}{
		{"factual", r.Factual, r.Kind == KindAnswerable},
		{"supported", r.Supported, r.Kind == KindAnswerable},
		{"abstention", r.Abstention, r.Kind == KindUnknown},
	}
	for _, v := range verdicts {
		switch {
		case v.want && v.o == nil:
			return bad(v.field, "missing: an %s question's result has one", r.Kind)
		case !v.want && v.o != nil:
			return bad(v.field, "%q: an %s question's result has none (null)", *v.o, r.Kind)
		case v.o != nil && !isOutcome(*v.o):
			return bad(v.field, "%q (want pass, fail or unresolved)", *v.o)
		}
	}
	for i, c := range r.Citations {
		k := slices.IndexFunc(Reasons, func(x struct {
			Reason  Reason
			Outcome Outcome
		}) bool {
			return x.Reason == c.Reason
		})
		switch {
		case !isOutcome(c.Verdict):
			return bad(fmt.Sprintf("citations[%d].verdict", i), "%q (want pass, fail or unresolved)", c.Verdict)
		case k < 0:
			return bad(fmt.Sprintf("citations[%d].reason", i), "%q is no citation reason", c.Reason)
		case Reasons[k].Outcome != c.Verdict:
			return bad(fmt.Sprintf("citations[%d]", i), "reason %s goes with verdict %s, not %s", c.Reason, Reasons[k].Outcome, c.Verdict)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(r.Fields)) {
		switch v := r.Fields[name].Verdict; v {
		case Correct, Incorrect, Unresolved:
		default:
			return bad("fields."+name+".verdict", "%q (want correct, incorrect or unresolved)", v)
		}
	}
	return nil
}

func isOutcome(o Outcome) bool {
	return o == Pass || o == Fail || o == Unresolved
}
