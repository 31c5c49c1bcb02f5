package citations

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/citecheck/citecheck/internal/suggest"
)

// Citation is one citation an answer emitted, as the locator takes it.
type Citation struct {
	ID        string
	Document  string // name, hash, or a key of the run's runs.Mapping
	Page      int    // 1-based; 0 when none given
	LastPage  int    // end of a page range, inclusive; 0 when none
	PageLabel string
	Quote     string
	// NoQuote: the format carries no quote (OpenAI file_citation); the
	// citation can never be grounded.
	NoQuote bool
	// External: the citation names a source outside the corpus (a web
	// page); it is never looked up (GroundedExternal).
	External bool
	// PagePhysical: the citing format defines Page as the 1-based physical
	// page, so another reading of it is a wrong page, not another
	// convention.
	PagePhysical bool
	// Title is the title the vendor gives the cited document (Anthropic's
	// document_title): when it names a corpus document other than the one
	// Document resolves to, the title is used, and Grounded.Note says so.
	Title string
	// Retrieval: the quote is a retrieval result (runs.QuoteFromRetrieval),
	// located as Query.Retrieval says.
	Retrieval bool
}

// Why a citation is GroundedUnverifiable.
const (
	CauseNoQuote          = "no_quote"                   // the citation carries no quote to verify
	CauseAmbiguousMapping = "ambiguous_document_mapping" // the cited document maps to several or only loosely
	CauseNoText           = "no_text"                    // not found, and the document or page has no reliable text
)

// CauseChangedSymbol says why a citation is GroundedFabricated or
// GroundedWrongDocument although a passage matches its quote but for a
// character that carries meaning (Result.Changed): a changed sign,
// comparison, currency, unit or separator.
const CauseChangedSymbol = "changed_symbol"

// Grounded is where one citation's quote is, with no reference: the
// reference-free half of citation checking, shared by the audit of runs
// (package audit) and the grader's classifier.
type Grounded struct {
	Grounding Grounding
	// Cause says why a citation is GroundedUnverifiable (a Cause constant).
	Cause  string
	Result Result // zero (Chosen -1) when nothing was located
	Detail string
	// Note reports what the grounding corrected in the citation's own
	// naming (a title that disagrees with the run's documents list), ""
	// when nothing.
	Note string
}

// Ground resolves the cited document and locates the quote, in the order
// the policy's precedence needs (docs/grading.md's readings): a source outside the
// corpus (external: never looked up), an unknown document, then an
// ambiguous document mapping, a missing quote, a quote not found in the
// cited document (in no text-bearing page: unverifiable; elsewhere in the
// corpus: wrong document; nowhere: fabricated), a page that does not hold
// it (wrong page, or another page convention where the format's page base
// is not its contract), several locations, and finally one location. A
// title that names a corpus document wins over a documents list that
// names another one (or none), and Note reports the disagreement. m is
// the run's mapping of document names (runs.Mapping; see Resolve).
func (ix *Index) Ground(c Citation, m map[string][]string) Grounded {
	g := Grounded{Result: Result{Chosen: -1}}
	set := func(gr Grounding, format string, args ...any) Grounded {
		g.Grounding, g.Detail = gr, fmt.Sprintf(format, args...)
		return g
	}
	if c.External {
		return set(GroundedExternal, "%s is a source outside the corpus: the frozen corpus cannot check it", c.Document)
	}
	dm := ix.Resolve(c.Document, m)
	if c.Title != "" && c.Title != c.Document {
		if tm := ix.Resolve(c.Title, m); tm.Resolution == DocResolved && (dm.Resolution != DocResolved || dm.Name != tm.Name) {
			other := "no corpus document"
			switch dm.Resolution {
			case DocResolved:
				other = dm.Name
			case DocAmbiguous:
				other = strings.Join(dm.Candidates, " or ")
			}
			g.Note = fmt.Sprintf("title %q names %s, %s names %s: the title is used", c.Title, tm.Name, c.Document, other)
			dm = tm
		}
	}
	switch dm.Resolution {
	case DocUnknown:
		g.Result = ix.Locate(Query{Document: c.Document, Quote: c.Quote})
		return set(GroundedUnknownDocument, "document %q is not in the corpus%s", c.Document, suggest.Phrase(ix.Documents(), c.Document))
	case DocAmbiguous:
		g.Cause = CauseAmbiguousMapping
		return set(GroundedUnverifiable, "%s", dm.Why(c.Document))
	}
	if c.NoQuote || strings.TrimSpace(c.Quote) == "" {
		g.Cause = CauseNoQuote
		return set(GroundedUnverifiable, "no quote to verify")
	}
	r := ix.Locate(Query{Document: dm.Name, Quote: c.Quote, Page: c.Page, LastPage: c.LastPage, PageLabel: c.PageLabel, PhysicalOnly: c.PagePhysical, Retrieval: c.Retrieval})
	g.Result = r
	switch r.Status {
	case StatusNotFound, StatusNotFoundInDocument:
		if why := textless(r, c.Page); why != "" && r.Changed == nil {
			g.Cause = CauseNoText
			return set(GroundedUnverifiable, "%s", why)
		}
		if r.Changed != nil {
			g.Cause = CauseChangedSymbol
			gr := GroundedFabricated
			if r.Status == StatusNotFoundInDocument {
				gr = GroundedWrongDocument
			}
			return set(gr, "%s", changedDetail(r.Changed))
		}
		if r.Status == StatusNotFoundInDocument {
			return set(GroundedWrongDocument, "not in %s; found in %s", r.Document, r.Elsewhere[0].Document)
		}
		return set(GroundedFabricated, "in no corpus document")
	}
	switch r.PageCheck {
	case PageNotOnPage:
		if c.PagePhysical {
			return set(GroundedWrongPage, "given page %s (1-based by the format's contract); found on page %s", pageText(c), intsText(r.Pages()))
		}
		return set(GroundedWrongPage, "given page %s; found on page %s", pageText(c), intsText(r.Pages()))
	case PageZeroBased, PageLabelled:
		return set(GroundedPageConvention, "given page %s is page %s only as %s", pageText(c), intsText(r.Pages()), r.PageCheck)
	}
	if r.Status == StatusAmbiguous {
		if r.Short {
			return set(GroundedAmbiguous, "a very short quote that occurs many times")
		}
		return set(GroundedAmbiguous, "%d locations on pages %s", len(r.Locations), intsText(r.Pages()))
	}
	l, _ := r.Location()
	return set(GroundedUnique, "%s", l.Level)
}

// changedDetail says what differs between a quote and the passage it
// matches but for a character that carries meaning.
func changedDetail(c *Changed) string {
	where := ""
	if len(c.Location.Spans) > 0 {
		where = fmt.Sprintf(" on page %d of %s", c.Location.Spans[0].Page, c.Location.Document)
	}
	return fmt.Sprintf("not found: a passage%s matches but for a character that carries meaning: the page has %s where the quote has %s", where, quoteChars(c.Page), quoteChars(c.Quote))
}

// textless explains why a quote not found in the named document may still
// be printed there: the document has no text, or the given page (or, with
// no page given, some page) has none that is reliable. "" otherwise.
func textless(r Result, page int) string {
	switch {
	case r.DocumentStatus != "":
		return fmt.Sprintf("%s has no text (%s)", r.Document, r.DocumentStatus)
	case page > 0 && hasTextlessFlag(r.PageFlags):
		return fmt.Sprintf("page %d of %s has no reliable text (%s)", page, r.Document, strings.Join(r.PageFlags, ", "))
	case page == 0 && r.DocumentHasTextlessPages:
		return fmt.Sprintf("not found, and %s has pages without reliable text", r.Document)
	}
	return ""
}

func pageText(c Citation) string {
	switch {
	case c.Page > 0 && c.LastPage > c.Page:
		return fmt.Sprintf("%d-%d", c.Page, c.LastPage)
	case c.Page > 0:
		return fmt.Sprint(c.Page)
	}
	return fmt.Sprintf("label %q", c.PageLabel)
}

func intsText(ps []int) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = fmt.Sprint(p)
	}
	return strings.Join(s, ",")
}

// Passage is a span of a document's stored text, in code points: [Start,
// End) of page Page, or, when EndPage is Page+1, from Start on Page to End
// on EndPage across the page break.
type Passage struct {
	Document         string
	Page, Start, End int
	EndPage          int
}

// Covers reports whether a location holds passage p. Spans of the location
// on one page that only white space separates count as one (pieces and
// segments are contiguous there); at a page break only white space and
// page furniture (a page-number line, the policy's footer) may lie outside
// the location, as the locator skips them there.
func (ix *Index) Covers(l Location, p Passage) bool {
	if p.Document != l.Document {
		return false
	}
	merged := ix.mergeSpans(l)
	if p.EndPage == p.Page+1 {
		return ix.coversPageBreak(merged, p)
	}
	if p.End <= p.Start {
		return false
	}
	for _, s := range merged {
		if s.Page == p.Page && s.Start <= p.Start && p.End <= s.End {
			return true
		}
	}
	return false
}

func (ix *Index) coversPageBreak(merged []Span, p Passage) bool {
	page, start, end, endPage := p.Page, p.Start, p.End, p.EndPage
	d, ok := ix.docIndex(p.Document)
	if !ok || page < 1 || endPage > ix.docs[d].n {
		return false
	}
	fi, ni := ix.docs[d].first+page-1, ix.docs[d].first+endPage-1
	first, next := &ix.pages[fi], &ix.pages[ni]
	// Raw code points where the content ends on the first page and starts
	// on the next (normalized text has no white space at its ends).
	if first.contentTo == 0 || next.contentFrom >= ix.text(ni).Len() {
		return false
	}
	_, contentEnd := ix.text(fi).RawSpan(first.contentTo-1, first.contentTo)
	contentStart, _ := ix.text(ni).RawSpan(next.contentFrom, next.contentFrom+1)
	tail, head := false, false
	for _, s := range merged {
		if s.Page == page && s.Start <= start && s.End >= contentEnd {
			tail = true
		}
		if s.Page == endPage && s.Start <= contentStart && end <= s.End {
			head = true
		}
	}
	return tail && head
}

func (ix *Index) mergeSpans(l Location) []Span {
	var out []Span
	for _, s := range l.Spans {
		if n := len(out); n > 0 && out[n-1].Page == s.Page && s.Start >= out[n-1].End {
			raw, _ := ix.PageText(l.Document, s.Page)
			if strings.TrimFunc(runeSlice(raw, out[n-1].End, s.Start), unicode.IsSpace) == "" {
				out[n-1].End = max(out[n-1].End, s.End)
				continue
			}
		}
		out = append(out, s)
	}
	return out
}

// runeSlice returns code points [a, b) of s.
func runeSlice(s string, a, b int) string {
	i, start := 0, -1
	for bi := range s {
		if i == a {
			start = bi
		}
		if i == b {
			if start < 0 {
				return ""
			}
			return s[start:bi]
		}
		i++
	}
	if start < 0 {
		return ""
	}
	return s[start:]
}
