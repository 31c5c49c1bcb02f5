package spans

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/citecheck/citecheck/internal/strictjson"
)

// Format is the reference format version this package reads and writes.
const Format = "citecheck-reference/1.5"

// CanonicalFormat names the canonical encoding Canonical produces; the lock
// records its hash, so a change to the encoding needs a new name.
const CanonicalFormat = "citecheck-reference-canonical/1"

// Unknown is the answer_fields value of a required field of an unknown
// (expected_abstention) question: the clean decline the policy passes.
const Unknown = "UNKNOWN"

// Reference is a gold reference file: the questions, their canonical
// answers and the exact passages that support them (policy v1.5,
// "Reference contract and concise values").
type Reference struct {
	Format    string     `json:"format"`
	Questions []Question `json:"questions"`

	src *source // where it was decoded from; nil when built in Go
}

// Question is one question of the bank.
type Question struct {
	ID       string `json:"id"`
	Question string `json:"question"`
	// RequiredFields are the answer fields the question asks for, in the
	// order a system is shown their labels.
	RequiredFields []RequiredField `json:"required_fields"`
	// ExpectedAbstention is true for an unknown question: the documents do
	// not answer it and the right answer is a decline.
	ExpectedAbstention bool `json:"expected_abstention"`
	// AnswerFields maps a required field to its canonical complete value.
	AnswerFields map[string]string `json:"answer_fields,omitempty"`
	// EssentialClaims are the facts an answer must state, each with the
	// exact passages that support it.
	EssentialClaims []Claim `json:"essential_claims,omitempty"`
	// AcceptedAlternatives maps a required field to complete equivalent
	// strings authored before any output was seen.
	AcceptedAlternatives map[string][]string `json:"accepted_alternatives,omitempty"`
	// AbstentionEvidence, for an unknown question, are the passages that
	// show what the named source does say about the topic.
	AbstentionEvidence []Span `json:"abstention_evidence,omitempty"`
	// AbsenceAudit, for an unknown question, registers the documentary
	// absence statements a system may make instead of UNKNOWN.
	AbsenceAudit *AbsenceAudit `json:"absence_audit,omitempty"`
}

// RequiredField is a field an answer must supply and the label shown for it.
type RequiredField struct {
	Field string `json:"field"`
	Label string `json:"label"`
}

// Claim is one essential fact of an answer.
type Claim struct {
	Field string `json:"field"`
	// Value is the compact, semantically complete value.
	Value string `json:"value"`
	// AcceptedValues is the legacy per-claim list of equivalent values.
	AcceptedValues []string `json:"accepted_values,omitempty"`
	Evidence       []Span   `json:"evidence"`
}

// Span is an exact passage of a document's stored page text. Start and End
// are code-point offsets into the text of Page (0-based, End exclusive);
// when EndPage is set the span crosses a page break: Start is in Page, End
// in EndPage (which must be Page+1), and Text is the end of Page, one "\n",
// then the beginning of EndPage. Start and End are nil until known: Fix
// fills them in when Text occurs exactly once.
type Span struct {
	Document string `json:"document"`
	Page     int    `json:"page"`
	Start    *int   `json:"start,omitempty"`
	End      *int   `json:"end,omitempty"`
	EndPage  int    `json:"end_page,omitempty"`
	Text     string `json:"text"`
}

// Offsets returns the span's offsets and whether both are set.
func (s Span) Offsets() (start, end int, ok bool) {
	if s.Start == nil || s.End == nil {
		return 0, 0, false
	}
	return *s.Start, *s.End, true
}

// LastPage is the page the span ends on.
func (s Span) LastPage() int {
	if s.EndPage != 0 {
		return s.EndPage
	}
	return s.Page
}

// AbsenceAudit is the author's record of a documentary absence: the topic a
// question asks about, the documents named as its source, how answer prose
// may name that source, and the absence statements ("The price list does
// not state a volume discount.") that the abstention grader may accept in
// place of UNKNOWN.
type AbsenceAudit struct {
	Topic   string   `json:"topic"`
	Sources []string `json:"sources"`
	// SourceNames are the ways answer prose may name the source ("the price
	// list", "price list", "price-list.pdf"); optional.
	SourceNames []string          `json:"source_names,omitempty"`
	Statements  AbsenceStatements `json:"statements"`
	Note        string            `json:"note,omitempty"`
}

// AbsenceStatements are an absence audit's registered documentary-absence
// statements, in the form the file writes them: a plain JSON list (List;
// valid only for a question with exactly one required field) or an object
// from a required field's name to its statements (ByField). Exactly one of
// the two is used: ByField when it is non-nil, else List. The JSON encoding
// keeps the form, so a file's canonical encoding does not change when it is
// decoded and encoded again.
type AbsenceStatements struct {
	List    []string
	ByField map[string][]string
}

// For returns the statements registered for a required field: in the list
// form the whole list, whatever the field (Validate allows the list form
// only on a question with one required field, so the list is that field's);
// in the object form the field's list, nil when it has none.
func (s AbsenceStatements) For(field string) []string {
	if s.ByField != nil {
		return s.ByField[field]
	}
	return s.List
}

// All returns every statement: the list, or the object's lists in the
// order of their field names.
func (s AbsenceStatements) All() []string {
	if s.ByField == nil {
		return s.List
	}
	var out []string
	for _, k := range sortedKeys(s.ByField) {
		out = append(out, s.ByField[k]...)
	}
	return out
}

// MarshalJSON writes the list form as a JSON array and the object form as
// an object with sorted keys; nil lists are written as [], and HTML
// characters are not escaped here (the caller's encoder decides).
func (s AbsenceStatements) MarshalJSON() ([]byte, error) {
	var v any = nonNil(s.List)
	if s.ByField != nil {
		m := make(map[string][]string, len(s.ByField))
		for k, l := range s.ByField {
			m[k] = nonNil(l)
		}
		v = m
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads either form (for callers that use encoding/json;
// Decode reads references strictly). null leaves s unchanged.
func (s *AbsenceStatements) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	switch {
	case bytes.Equal(data, []byte("null")):
		return nil
	case len(data) > 0 && data[0] == '{':
		var m map[string][]string
		if err := json.Unmarshal(data, &m); err != nil {
			return err
		}
		*s = AbsenceStatements{ByField: m}
	default:
		var l []string
		if err := json.Unmarshal(data, &l); err != nil {
			return err
		}
		*s = AbsenceStatements{List: l}
	}
	return nil
}

// Answerable counts the questions that expect an answer and Unknown those
// that expect an abstention.
func (r *Reference) Counts() (answerable, unknown int) {
	for _, q := range r.Questions {
		if q.ExpectedAbstention {
			unknown++
		} else {
			answerable++
		}
	}
	return answerable, unknown
}

// Question returns the question with id, or nil.
func (r *Reference) Question(id string) *Question {
	for i := range r.Questions {
		if r.Questions[i].ID == id {
			return &r.Questions[i]
		}
	}
	return nil
}

// Canonical returns the reference's canonical encoding (CanonicalFormat):
// compact JSON with fields in the order of the Go types, map keys sorted,
// empty optional fields left out, no HTML escaping, and a final newline. Two
// files that differ only in white space, key order or escapes have the same
// canonical encoding; any change of content changes it.
func (r *Reference) Canonical() []byte {
	c := Reference{Format: r.Format, Questions: make([]Question, len(r.Questions))}
	for i := range r.Questions {
		c.Questions[i] = canonicalQuestion(&r.Questions[i])
	}
	return canonicalJSON(&c)
}

// CanonicalQuestion returns one question's canonical encoding, so that a
// lock can name which question changed.
func CanonicalQuestion(q *Question) []byte {
	c := canonicalQuestion(q)
	return canonicalJSON(&c)
}

// canonicalQuestion copies q with every required list non-nil, so that the
// canonical encoding writes [] rather than null and decodes again; empty
// optional lists and maps are left out by omitempty.
func canonicalQuestion(q *Question) Question {
	c := *q
	c.RequiredFields = nonNil(c.RequiredFields)
	c.EssentialClaims = slices.Clone(c.EssentialClaims)
	for i := range c.EssentialClaims {
		c.EssentialClaims[i].Evidence = nonNil(c.EssentialClaims[i].Evidence)
	}
	if c.AbsenceAudit != nil {
		a := *c.AbsenceAudit
		a.Sources = nonNil(a.Sources)
		// Statements: AbsenceStatements.MarshalJSON writes nil lists as [].
		c.AbsenceAudit = &a
	}
	return c
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// QuestionParts returns the canonical encoding of each field present in a
// question's canonical encoding, by JSON name, so that a lock can name
// which part of a question changed ("accepted_alternatives").
func QuestionParts(q *Question) map[string][]byte {
	var parts map[string]json.RawMessage
	if err := json.Unmarshal(CanonicalQuestion(q), &parts); err != nil {
		panic(fmt.Sprintf("spans: canonical question: %v", err)) // our own encoding: cannot fail
	}
	out := make(map[string][]byte, len(parts))
	for k, v := range parts {
		out[k] = v
	}
	return out
}

func canonicalJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only strings, ints, bools, slices and string-keyed maps: cannot fail.
		panic(fmt.Sprintf("spans: canonical encoding: %v", err))
	}
	return b.Bytes()
}

// Raw returns the bytes the reference was decoded from (nil when it was
// built in Go). Callers must not modify them.
func (r *Reference) Raw() []byte {
	if r.src == nil {
		return nil
	}
	return r.src.data
}

// File returns the file name given to Decode ("" when built in Go).
func (r *Reference) File() string {
	if r.src == nil {
		return ""
	}
	return r.src.file
}

// Position is a place in a reference file. Line and Col are 1-based, Col
// counts code points; the zero Position means "not from a file".
type Position struct {
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	Col  int    `json:"col,omitempty"`
}

func (p Position) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Position returns where the value at path (as in Problem.Path, for example
// "questions[3].essential_claims[0].evidence[1].start") starts in the file.
// For a path not in the file (a key that is absent) it returns the position
// of the nearest enclosing value that is.
func (r *Reference) Position(path string) Position {
	if r.src == nil {
		return Position{}
	}
	for p := path; ; p = parentPath(p) {
		if v, ok := r.src.nodes[p]; ok {
			line, col := strictjson.Position(r.src.data, v.Offset)
			return Position{File: r.src.file, Line: line, Col: col}
		}
		if p == "" {
			return Position{File: r.src.file}
		}
	}
}

// parentPath strips the last key or index of a path.
func parentPath(p string) string {
	if strings.HasSuffix(p, "]") {
		if i := strings.LastIndexByte(p, '['); i >= 0 {
			return p[:i]
		}
	}
	if i := strings.LastIndexByte(p, '.'); i >= 0 {
		return p[:i]
	}
	return ""
}
