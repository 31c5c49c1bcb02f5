package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/metrics"
	"github.com/citecheck/citecheck/review"
)

// reviewView is one item of the review mode: its content as the reviewer
// judges it, and the two verdicts its buttons give.
type reviewView struct {
	ID, Hash, Kind  string
	Question, Asked string
	Reason          string
	Where           string // the attempts it occurs in; "" when blinded
	Verdicts        [2]string
	HasQuote        bool
	Quote           string
	Facts           []kv
	Claims          []kv // field: value, then the declared evidence
	Message         string
	Views           []pageView
	Field, Value    string
	Values          []string
	Target          string
	Response        string
	Cited           []string
}

// reviewIntro says what the review mode is for, without a word of the
// systems.
const reviewIntro = "Each item is a verdict the rules left unresolved, once per distinct content. Give each a verdict (a note says why), your name, and download the decisions: a JSON Lines file that citecheck report --reviews applies (docs/review.md). Nothing leaves this page. A review resolves only what the rules left open; the automatic figures stay as they are."

func (r *renderer) reviewViews() []reviewView {
	var out []reviewView
	for i := range r.in.Review {
		it := &r.in.Review[i]
		v := reviewView{ID: r.used.take("review/" + strings.TrimPrefix(it.Hash, "blake3:")[:16]), Hash: it.Hash, Kind: it.Kind,
			Question: it.Question, Asked: it.Content.Question.Text, Reason: it.Reason}
		if it.Kind == review.KindField {
			v.Verdicts = [2]string{review.VerdictCorrect, review.VerdictIncorrect}
		} else {
			v.Verdicts = [2]string{review.VerdictPass, review.VerdictFail}
		}
		if len(it.Attempts) > 0 {
			var where []string
			for _, a := range it.Attempts {
				w := fmt.Sprintf("%s/%d #%d", a.Arm, a.Session, a.Position)
				if a.Citation != "" {
					w += " " + a.Citation
				}
				where = append(where, w)
			}
			v.Where = "occurs in " + plural(len(it.Attempts), "attempt") + ": " + strings.Join(where, ", ")
		}
		switch {
		case it.Content.Citation != nil:
			r.citationItem(&v, it)
		case it.Content.Field != nil:
			f := it.Content.Field
			v.Field, v.Value, v.Values, v.Target = f.Label+" ("+f.Field+")", f.Value, f.Values, f.Target
		case it.Content.Abstention != nil:
			a := it.Content.Abstention
			v.Response = a.Response
			for _, c := range a.Citations {
				v.Cited = append(v.Cited, citedText(c.Document, c.Page, c.Quote))
			}
		}
		out = append(out, v)
	}
	return out
}

// blinded reports whether no item says where it occurs.
func blinded(items []review.Item) bool {
	for _, it := range items {
		if len(it.Attempts) > 0 {
			return false
		}
	}
	return true
}

func citedText(doc string, page *int, quote *string) string {
	if doc == "" {
		doc = "a document not in the corpus"
	}
	s := doc
	if page != nil {
		s += ", page " + strconv.Itoa(*page)
	}
	if quote != nil {
		s += ": " + strconv.Quote(*quote)
	}
	return s
}

// citationItem fills a citation item: the quote, where it was looked up
// and found, the claims a pass supports, and each page as the citation
// cards draw it.
func (r *renderer) citationItem(v *reviewView, it *review.Item) {
	c := it.Content.Citation
	if c.Quote != nil {
		v.HasQuote, v.Quote = true, *c.Quote
	}
	if c.Document != "" {
		v.Facts = append(v.Facts, kv{"looked up in", c.Document})
	} else {
		v.Facts = append(v.Facts, kv{"document", "none resolved in the corpus"})
	}
	if c.Page != nil {
		v.Facts = append(v.Facts, kv{"page given", strconv.Itoa(*c.Page)})
	}
	cr := grade.CitationResult{Document: c.Document}
	var found []string
	for _, l := range c.Located {
		cr.Spans = append(cr.Spans, citations.Span{Page: l.Page, Start: l.Start, End: l.End})
		found = append(found, fmt.Sprintf("page %d [%d, %d)", l.Page, l.Start, l.End))
	}
	if len(found) > 0 {
		v.Facts = append(v.Facts, kv{"found at", strings.Join(found, "; ")})
	}
	for _, cl := range c.Supports {
		var ev []string
		for _, s := range cl.Evidence {
			ev = append(ev, fmt.Sprintf("%s page %d: %q", s.Document, s.Page, s.Text))
		}
		v.Claims = append(v.Claims, kv{cl.Field + ": " + cl.Value, strings.Join(ev, "; ")})
	}
	switch {
	case r.in.Pages == nil:
		v.Message = "No corpus was given: the page is not shown."
	case len(c.Located) == 0:
		v.Message = "The quote was not located: judge it against the document itself."
	}
	if v.Message != "" {
		return
	}
	q := r.questions[it.Question]
	for _, p := range pagesOf(&cr) {
		v.Views = append(v.Views, r.pageView(&cr, p, q))
	}
}

// reviewPages are the pages the review items' citations are on, for
// loadPages.
func (r *renderer) reviewPages() []pageKey {
	var keys []pageKey
	for i := range r.in.Review {
		c := r.in.Review[i].Content.Citation
		if c == nil || c.Document == "" {
			continue
		}
		for _, l := range c.Located {
			keys = append(keys, pageKey{c.Document, l.Page})
		}
	}
	return keys
}

// reviewedCell is a metric's figure after review, for the cell beside
// the automatic one.
func reviewedCell(m metrics.MetricJSON) string {
	if m.N == 0 {
		return "after review: n/a"
	}
	return fmt.Sprintf("after review: %s (%d/%d/%d of %d)", boundsRange(m, "–"), m.Pass, m.Unresolved, m.Fail, m.N)
}

// addReviewed puts a group's reviewed figures beside its automatic ones.
func addReviewed(v *groupView, g *metrics.Group) {
	rv := g.Reviewed
	if rv == nil {
		return
	}
	for i, m := range []metrics.MetricJSON{rv.Supported, rv.Factual, rv.Citations, {}, rv.Abstention} {
		if i != 3 { // the count of answers with no citation has no reviewed figure
			v.Metrics[i].Reviewed = reviewedCell(m)
		}
	}
	if rv.Qualified != nil {
		v.RevQualified = map[bool]string{true: "PASS", false: "FAIL"}[*rv.Qualified]
		v.RevReasons = rv.Qualification
	}
}
