package review

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/spans"
)

// Content is exactly what a reviewer judges of one verdict; its canonical
// form (Canonical) is what Hash hashes. Exactly one of Citation, Field
// and Abstention is set, as Kind says. Nothing in it tells systems apart:
// no arm, session, position, run file, timing, native document id or
// grader's wording.
type Content struct {
	Kind       string             `json:"kind"`
	Question   Question           `json:"question"`
	Citation   *CitationContent   `json:"citation,omitempty"`
	Field      *FieldContent      `json:"field,omitempty"`
	Abstention *AbstentionContent `json:"abstention,omitempty"`
}

// Question is the question asked: the reference's id and wording.
type Question struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

// CitationContent is one emitted citation as a reviewer sees it: the quote
// and page as the answer gave them, the corpus document it was looked up
// in, where it was located with the pages' stored texts, and the claims a
// pass would support with their declared evidence.
type CitationContent struct {
	Quote    *string    `json:"quote"`    // null: the citation carried none
	Document string     `json:"document"` // "": no corpus document was resolved
	Page     *int       `json:"page"`     // null: the answer gave none
	Located  []Located  `json:"located"`  // the located spans, as the result lists them
	Pages    []PageText `json:"pages"`    // the stored text of each page a located span is on, ascending
	// Supports are the essential claims a pass supports, in reference
	// order: those whose declared spans the located passage contains
	// (the grader's finding); else those whose value or an accepted value
	// the quote holds (case and white space aside); else every claim of
	// the question.
	Supports []Claim `json:"supports"`
}

// Located is one located span and the stored text it covers.
type Located struct {
	Page  int    `json:"page"`
	Start int    `json:"start"` // code points into the page's stored text, end exclusive
	End   int    `json:"end"`
	Text  string `json:"text"`
}

// PageText is a page's stored text, verbatim.
type PageText struct {
	Page int    `json:"page"`
	Text string `json:"text"`
}

// Claim is an essential claim of the reference: its field, compact value
// and declared evidence spans.
type Claim struct {
	Field    string `json:"field"`
	Value    string `json:"value"`
	Evidence []Span `json:"evidence"`
}

// Span is a declared evidence span (spans.Span with its offsets); EndPage
// is 0 unless the span crosses into the next page.
type Span struct {
	Document string `json:"document"`
	Page     int    `json:"page"`
	EndPage  int    `json:"end_page"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	Text     string `json:"text"`
}

// FieldContent is one field's value as parsed from the answer, the target
// it is judged against (the grader's, else the reference's canonical
// value), and every value the answer gave the field when it gave it more
// than once, differently.
type FieldContent struct {
	Field  string   `json:"field"`
	Label  string   `json:"label"`
	Value  string   `json:"value"`
	Values []string `json:"values"`
	Target string   `json:"target"`
}

// AbstentionContent is the answer to an unknown question, verbatim, with
// the citations it emitted (the grader leaves a decline that cites open).
type AbstentionContent struct {
	Response  string  `json:"response"`
	Citations []Cited `json:"citations"`
}

// Cited is a citation as an answer gave it, its document resolved in the
// corpus ("" when none was).
type Cited struct {
	Document string  `json:"document"`
	Page     *int    `json:"page"`
	Quote    *string `json:"quote"`
}

// Canonical is the content's canonical form: its JSON encoding by
// encoding/json with HTML characters left as they are, keys in the order
// of the Go types above, no white space between tokens and no final line
// feed. Every text is verbatim (no white space or Unicode normalization);
// encoding/json writes invalid UTF-8 as U+FFFD and escapes U+2028 and
// U+2029.
func (c *Content) Canonical() []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(c); err != nil {
		panic(fmt.Sprintf("review: content does not encode: %v", err)) // only strings, ints and slices: cannot happen
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// Hash is the content's identity: "blake3:" and the BLAKE3-256 of its
// canonical form in lower-case hex.
func (c *Content) Hash() string { return corpus.Hash(c.Canonical()) }

// Pages gives the stored page texts the results were graded against
// (report.PageSource is one).
type Pages interface {
	// Text returns a page's stored text (1-based page); ok false when the
	// corpus has no such page.
	Text(doc string, page int) (string, bool)
}

// builder makes the contents of one evaluation's verdicts.
type builder struct {
	questions map[string]*spans.Question
	pages     Pages
}

func (b *builder) question(id string) (*spans.Question, error) {
	q, ok := b.questions[id]
	if !ok {
		return nil, fmt.Errorf("%w: question %s is not in the reference", ErrContent, id)
	}
	return q, nil
}

func newContent(kind string, q *spans.Question) Content {
	return Content{Kind: kind, Question: Question{ID: q.ID, Text: q.Question}}
}

// citation is the content of a result's citation, and the indices of the
// claims a pass of it supports.
func (b *builder) citation(q *spans.Question, c *grade.CitationResult) (Content, []int, error) {
	cc := &CitationContent{Quote: c.Quote, Document: c.Document, Page: c.Page, Located: []Located{}, Pages: []PageText{}}
	var pages []int
	texts := map[int][]rune{}
	for _, s := range c.Spans {
		text, ok := texts[s.Page]
		if !ok {
			t, ok := b.pages.Text(c.Document, s.Page)
			if !ok {
				return Content{}, nil, fmt.Errorf("%w: %s page %d, where citation %s was located, is not in the corpus: give the lock the results were graded against",
					ErrContent, c.Document, s.Page, idOf(c))
			}
			text = []rune(t)
			texts[s.Page] = text
			pages = append(pages, s.Page)
		}
		if s.Start < 0 || s.End < s.Start || s.End > len(text) {
			return Content{}, nil, fmt.Errorf("%w: citation %s's span [%d, %d) is not on %s page %d (%d code points): the results were graded against another corpus",
				ErrContent, idOf(c), s.Start, s.End, c.Document, s.Page, len(text))
		}
		cc.Located = append(cc.Located, Located{Page: s.Page, Start: s.Start, End: s.End, Text: string(text[s.Start:s.End])})
	}
	slices.Sort(pages)
	for _, p := range pages {
		cc.Pages = append(cc.Pages, PageText{Page: p, Text: string(texts[p])})
	}
	idx := supported(q, c)
	cc.Supports = []Claim{}
	for _, i := range idx {
		c := &q.EssentialClaims[i]
		cl := Claim{Field: c.Field, Value: c.Value, Evidence: []Span{}}
		for _, s := range c.Evidence {
			start, end, _ := s.Offsets()
			cl.Evidence = append(cl.Evidence, Span{Document: s.Document, Page: s.Page, EndPage: s.EndPage, Start: start, End: end, Text: s.Text})
		}
		cc.Supports = append(cc.Supports, cl)
	}
	out := newContent(KindCitation, q)
	out.Citation = cc
	return out, idx, nil
}

// supported lists the indices of the claims a pass of the citation
// supports (CitationContent.Supports).
func supported(q *spans.Question, c *grade.CitationResult) []int {
	var byField, byValue, all []int
	quote := ""
	if c.Quote != nil {
		quote = folded(*c.Quote)
	}
	for i, cl := range q.EssentialClaims {
		all = append(all, i)
		if slices.Contains(c.Claims, cl.Field) {
			byField = append(byField, i)
		}
		for _, v := range append([]string{cl.Value}, cl.AcceptedValues...) {
			if v := folded(v); v != "" && quote != "" && strings.Contains(quote, v) {
				byValue = append(byValue, i)
				break
			}
		}
	}
	switch {
	case len(byField) > 0:
		return byField
	case len(byValue) > 0:
		return byValue
	}
	return all
}

// folded is s lower-cased with its white space runs as one space.
func folded(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

// field is the content of a result's field verdict.
func (b *builder) field(q *spans.Question, name string, fv *grade.FieldVerdict) Content {
	fc := &FieldContent{Field: name, Value: fv.Value, Values: []string{}, Target: fv.Target}
	for _, f := range q.RequiredFields {
		if f.Field == name {
			fc.Label = f.Label
			break
		}
	}
	if fc.Target == "" {
		fc.Target = q.AnswerFields[name]
	}
	if slices.Contains(fv.Reasons, grade.FieldConflictingLabels) {
		// The grader lists the values it found in Details.
		fc.Values = append(fc.Values, fv.Details...)
	}
	out := newContent(KindField, q)
	out.Field = fc
	return out
}

// abstention is the content of an unknown question's answer.
func (b *builder) abstention(q *spans.Question, r *grade.Result) Content {
	ac := &AbstentionContent{Response: r.Response, Citations: []Cited{}}
	for _, c := range r.Citations {
		if c.ID != nil {
			ac.Citations = append(ac.Citations, Cited{Document: c.Document, Page: c.Page, Quote: c.Quote})
		}
	}
	out := newContent(KindAbstention, q)
	out.Abstention = ac
	return out
}

func idOf(c *grade.CitationResult) string {
	if c.ID == nil {
		return "(none)"
	}
	return *c.ID
}

// reasonOf joins a verdict's reasons for an item's reason.
func reasonOf[S ~string](rs []S) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = string(r)
	}
	return strings.Join(parts, ", ")
}
