package spans

import (
	"fmt"
	"io"
	"math"
	"os"

	"github.com/citecheck/citecheck/internal/strictjson"
)

// MaxReferenceBytes caps a reference file: a bank of thousands of questions
// stays far below it, and the whole file is held in memory with its tree.
const MaxReferenceBytes = 64 << 20

// maxOffset bounds page numbers and offsets: no stored page is anywhere
// near 2^31 code points.
const maxOffset = math.MaxInt32

// DecodeError is a fault in a reference file, with its file, line, column
// (code points), and JSON path. Its Err wraps one of the Err sentinels.
type DecodeError = strictjson.Error

// DecodeErrors holds several DecodeErrors in file order.
type DecodeErrors = strictjson.Errors

// source is what a decoded Reference remembers of its file.
type source struct {
	file  string
	data  []byte
	nodes map[string]*strictjson.Value // every value by path
}

// ReadFile reads and decodes the reference at path, refusing a file larger
// than MaxReferenceBytes before reading it whole.
func ReadFile(path string) (*Reference, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("spans: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxReferenceBytes+1))
	if err != nil {
		return nil, fmt.Errorf("spans: %s: %w", path, err)
	}
	return Decode(data, path)
}

// Decode decodes a reference file strictly: invalid UTF-8, syntax errors,
// duplicate or case-variant keys, unknown fields, missing required fields,
// wrong types, integers out of range, another format version and inputs
// over MaxReferenceBytes are all errors, as a *DecodeError or, when the
// tree parsed but several values are wrong, a *DecodeErrors. file names the
// input in messages. The Reference keeps data (for Raw, Position and Fix);
// the caller must not modify it afterwards.
func Decode(data []byte, file string) (*Reference, error) {
	root, err := strictjson.Parse(data, file, strictjson.Limits{MaxBytes: MaxReferenceBytes})
	if err != nil {
		return nil, err
	}
	d := &strictjson.Decoder{File: file, Data: data, Nodes: map[string]*strictjson.Value{}}
	ref := &Reference{src: &source{file: file, data: data, nodes: d.Nodes}}
	d.Object(root, "",
		strictjson.Field{Name: "format", Required: true, Decode: func(v *strictjson.Value, p string) {
			ref.Format = d.String(v, p)
			if v.Kind == strictjson.String && ref.Format != Format {
				d.Errorf(v, p, strictjson.ErrValue, "format %q: this citecheck reads %q", ref.Format, Format)
			}
		}},
		strictjson.Field{Name: "questions", Required: true, Decode: func(v *strictjson.Value, p string) {
			d.Array(v, p, func(_ int, e *strictjson.Value, p string) {
				ref.Questions = append(ref.Questions, decodeQuestion(d, e, p))
			})
		}},
	)
	if err := d.Err(); err != nil {
		return nil, err
	}
	return ref, nil
}

func decodeQuestion(d *strictjson.Decoder, v *strictjson.Value, path string) Question {
	var q Question
	d.Object(v, path,
		strictjson.Field{Name: "id", Required: true, Decode: func(v *strictjson.Value, p string) { q.ID = d.String(v, p) }},
		strictjson.Field{Name: "question", Required: true, Decode: func(v *strictjson.Value, p string) { q.Question = d.String(v, p) }},
		strictjson.Field{Name: "required_fields", Required: true, Decode: func(v *strictjson.Value, p string) {
			d.Array(v, p, func(_ int, e *strictjson.Value, p string) {
				var f RequiredField
				d.Object(e, p,
					strictjson.Field{Name: "field", Required: true, Decode: func(v *strictjson.Value, p string) { f.Field = d.String(v, p) }},
					strictjson.Field{Name: "label", Required: true, Decode: func(v *strictjson.Value, p string) { f.Label = d.String(v, p) }},
				)
				q.RequiredFields = append(q.RequiredFields, f)
			})
		}},
		strictjson.Field{Name: "expected_abstention", Required: true, Decode: func(v *strictjson.Value, p string) { q.ExpectedAbstention = d.Bool(v, p) }},
		strictjson.Field{Name: "answer_fields", Decode: func(v *strictjson.Value, p string) {
			q.AnswerFields = map[string]string{}
			d.Map(v, p, func(k string, e *strictjson.Value, p string) { q.AnswerFields[k] = d.String(e, p) })
		}},
		strictjson.Field{Name: "essential_claims", Decode: func(v *strictjson.Value, p string) {
			d.Array(v, p, func(_ int, e *strictjson.Value, p string) {
				q.EssentialClaims = append(q.EssentialClaims, decodeClaim(d, e, p))
			})
		}},
		strictjson.Field{Name: "accepted_alternatives", Decode: func(v *strictjson.Value, p string) {
			q.AcceptedAlternatives = map[string][]string{}
			d.Map(v, p, func(k string, e *strictjson.Value, p string) { q.AcceptedAlternatives[k] = d.Strings(e, p) })
		}},
		strictjson.Field{Name: "abstention_evidence", Decode: func(v *strictjson.Value, p string) {
			q.AbstentionEvidence = decodeSpans(d, v, p)
		}},
		strictjson.Field{Name: "absence_audit", Decode: func(v *strictjson.Value, p string) {
			a := &AbsenceAudit{}
			d.Object(v, p,
				strictjson.Field{Name: "topic", Required: true, Decode: func(v *strictjson.Value, p string) { a.Topic = d.String(v, p) }},
				strictjson.Field{Name: "sources", Required: true, Decode: func(v *strictjson.Value, p string) { a.Sources = d.Strings(v, p) }},
				strictjson.Field{Name: "source_names", Decode: func(v *strictjson.Value, p string) { a.SourceNames = d.Strings(v, p) }},
				strictjson.Field{Name: "statements", Required: true, Decode: func(v *strictjson.Value, p string) { a.Statements = decodeStatements(d, v, p) }},
				strictjson.Field{Name: "note", Decode: func(v *strictjson.Value, p string) { a.Note = d.String(v, p) }},
			)
			q.AbsenceAudit = a
		}},
	)
	// Empty maps and lists decode as absent, as the canonical encoding
	// writes them, so that {} and a missing key hash alike.
	if len(q.AnswerFields) == 0 {
		q.AnswerFields = nil
	}
	if len(q.AcceptedAlternatives) == 0 {
		q.AcceptedAlternatives = nil
	}
	return q
}

// decodeStatements reads an absence audit's statements: a list of strings,
// or an object from field name to a list of strings.
func decodeStatements(d *strictjson.Decoder, v *strictjson.Value, path string) AbsenceStatements {
	switch v.Kind {
	case strictjson.Object:
		m := map[string][]string{}
		d.Map(v, path, func(k string, e *strictjson.Value, p string) { m[k] = d.Strings(e, p) })
		return AbsenceStatements{ByField: m}
	case strictjson.Array:
		return AbsenceStatements{List: d.Strings(v, path)}
	default:
		d.Errorf(v, path, strictjson.ErrType, "expected an array of strings or an object of arrays of strings, found %s", v.Kind)
		return AbsenceStatements{}
	}
}

func decodeClaim(d *strictjson.Decoder, v *strictjson.Value, path string) Claim {
	var c Claim
	d.Object(v, path,
		strictjson.Field{Name: "field", Required: true, Decode: func(v *strictjson.Value, p string) { c.Field = d.String(v, p) }},
		strictjson.Field{Name: "value", Required: true, Decode: func(v *strictjson.Value, p string) { c.Value = d.String(v, p) }},
		strictjson.Field{Name: "accepted_values", Decode: func(v *strictjson.Value, p string) { c.AcceptedValues = d.Strings(v, p) }},
		strictjson.Field{Name: "evidence", Required: true, Decode: func(v *strictjson.Value, p string) { c.Evidence = decodeSpans(d, v, p) }},
	)
	return c
}

func decodeSpans(d *strictjson.Decoder, v *strictjson.Value, path string) []Span {
	var out []Span
	d.Array(v, path, func(_ int, e *strictjson.Value, p string) {
		var s Span
		offset := func(v *strictjson.Value, p string) *int {
			n := int(d.Int(v, p, 0, maxOffset))
			return &n
		}
		d.Object(e, p,
			strictjson.Field{Name: "document", Required: true, Decode: func(v *strictjson.Value, p string) { s.Document = d.String(v, p) }},
			strictjson.Field{Name: "page", Required: true, Decode: func(v *strictjson.Value, p string) { s.Page = int(d.Int(v, p, 1, maxOffset)) }},
			strictjson.Field{Name: "start", Decode: func(v *strictjson.Value, p string) { s.Start = offset(v, p) }},
			strictjson.Field{Name: "end", Decode: func(v *strictjson.Value, p string) { s.End = offset(v, p) }},
			strictjson.Field{Name: "end_page", Decode: func(v *strictjson.Value, p string) { s.EndPage = int(d.Int(v, p, 1, maxOffset)) }},
			strictjson.Field{Name: "text", Required: true, Decode: func(v *strictjson.Value, p string) { s.Text = d.String(v, p) }},
		)
		out = append(out, s)
	})
	return out
}
