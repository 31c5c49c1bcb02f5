package citations

import (
	"sort"

	"github.com/citecheck/citecheck/corpus"
)

// Query is one quote to locate.
type Query struct {
	// Document names the cited document: its file name or its
	// "blake3:<hex>" hash. Empty means no document was named.
	Document string
	Quote    string
	// Page is the page the citation gave, 1-based; 0 when none was given.
	Page int
	// LastPage, when above Page, makes the given page a range (Anthropic's
	// page_location); the check then accepts any page in it.
	LastPage int
	// PageLabel is a page label the citation gave (LangChain's and
	// LlamaIndex's page_label), checked against the corpus's labels.
	PageLabel string
	// PhysicalOnly: Page is the 1-based physical page by the citing
	// format's contract, so it is not also read as a label or 0-based.
	PhysicalOnly bool
	// Retrieval: the quote is a retrieval result (runs.QuoteFromRetrieval),
	// text a vendor's retrieval returned, cut at token boundaries, not
	// words anyone typed: its first and last words may be cut short
	// (RetrievalEdges). Nothing else is relaxed for it.
	Retrieval bool
}

// Status is where a quote was found, relative to the document it names.
type Status string

// The statuses, as "citecheck locate" reports them.
const (
	StatusUnique             Status = "unique"                // one location in the named document (or one on the given page)
	StatusAmbiguous          Status = "ambiguous"             // several locations; nothing given settles which
	StatusNotFound           Status = "not_found"             // in no indexed document
	StatusNotFoundInDocument Status = "not_found_in_document" // not in the named document, but in another
	StatusUnknownDocument    Status = "unknown_document"      // the named document is not in the corpus
)

// PageCheck is how the page a citation gave relates to where the quote is.
type PageCheck string

// The page checks. A page under another convention is reported as such:
// never silently accepted, never silently failed.
const (
	PageNotGiven  PageCheck = ""            // no page was given
	PagePhysical  PageCheck = "physical"    // a location is on the given 1-based page
	PageLabelled  PageCheck = "page_label"  // on the page whose label is the given number or label
	PageZeroBased PageCheck = "zero_based"  // on the given page read as 0-based (given + 1)
	PageNotOnPage PageCheck = "not_on_page" // on no page the given one could mean
)

// Span is a located range: a page (1-based) and Unicode code point offsets
// into its stored text, 0-based, end exclusive.
type Span struct {
	Page  int `json:"page"`
	Start int `json:"start"`
	End   int `json:"end"`
}

// Location is one place a quote was found: one span, two or more when it
// crosses a page break, one per segment of an elided quote, one per piece of
// a reordered one (in page order).
type Location struct {
	Document string
	Spans    []Span
	Level    Level
	// Order names the page's reading order the quote was found in
	// (corpus.Order: "layout" as pdftotext reads the page, "boxes" as
	// pdfminer does), "" for the page text itself. Its spans are still in
	// page-text offsets, one per piece the page text has apart.
	Order string
}

// Pages lists the distinct pages of the location, ascending.
func (l Location) Pages() []int {
	var ps []int
	for _, s := range l.Spans {
		if len(ps) == 0 || ps[len(ps)-1] != s.Page {
			ps = append(ps, s.Page)
		}
	}
	sort.Ints(ps)
	return dedupInts(ps)
}

// CrossesPage reports whether the location spans more than one page.
func (l Location) CrossesPage() bool { return len(l.Pages()) > 1 }

// Result is what Locate found. Unresolved outcomes are data, not errors.
type Result struct {
	Query    Query
	Status   Status
	Document string // the corpus name the query's document resolved to; "" when unknown
	// Level is the least relaxed level of the locations in the document
	// (meaningful when Found).
	Level Level
	// Locations are every place in the named document, in page order.
	Locations []Location
	// Chosen is the index in Locations of the location a unique status
	// refers to (the only one, or the one on the given page); -1 otherwise.
	Chosen int
	// Elsewhere lists locations in other documents, at most
	// MaxElsewhere, found when the named document has none.
	Elsewhere []Location
	PageCheck PageCheck
	// DisambiguatedByPage: several locations, one on the given page.
	DisambiguatedByPage bool
	// Short: the quote is shorter than ShortQuoteLen and occurs more than
	// ShortQuoteMaxOccurrences times in the corpus, so it is ambiguous
	// whatever else narrows it.
	Short bool
	// Elided: the quote was found segment by segment around "..." or "…".
	Elided bool
	// DocumentStatus is the named document's extraction status when it is
	// not ok (it has no text to search).
	DocumentStatus corpus.Status
	// PageFlags are the corpus flags of the given page (no_text_layer,
	// unreliable_text), when it exists.
	PageFlags []string
	// DocumentHasTextlessPages: some page of the named document has no
	// (reliable) text, so a quote not found may be printed there.
	DocumentHasTextlessPages bool
	// Changed is set for a quote not found that matches a passage but for
	// a character that carries meaning (a sign, a comparison, a currency,
	// a unit or a separator next to a number), which no level relaxes:
	// the passage and the characters. Note says the same in words.
	Changed *Changed
	Note    string
}

// Changed is a passage a quote matches but for characters that carry
// meaning, and the first such difference: what the page has there and
// what the quote has ("" for nothing).
type Changed struct {
	Location    Location
	Page, Quote string
}

// MaxElsewhere caps Result.Elsewhere.
const MaxElsewhere = 5

// Found reports whether the quote was located in the named document.
func (r *Result) Found() bool { return r.Status == StatusUnique || r.Status == StatusAmbiguous }

// Clean reports whether the quote was located with nothing to question:
// unique in the named document and, when a page was given, on that
// 1-based page. "citecheck locate" exits 0 only when every result is.
func (r *Result) Clean() bool {
	return r.Status == StatusUnique && (r.PageCheck == PageNotGiven || r.PageCheck == PagePhysical)
}

// Location returns the chosen location of a unique result.
func (r *Result) Location() (Location, bool) {
	if r.Chosen < 0 || r.Chosen >= len(r.Locations) {
		return Location{}, false
	}
	return r.Locations[r.Chosen], true
}

// Pages lists every page of the named document where the quote was found.
func (r *Result) Pages() []int {
	var ps []int
	for _, l := range r.Locations {
		ps = append(ps, l.Pages()...)
	}
	sort.Ints(ps)
	return dedupInts(ps)
}

// Spans lists the spans reported for the result: the chosen location's for
// a unique status, every location's otherwise.
func (r *Result) Spans() []Span {
	if l, ok := r.Location(); ok {
		return append([]Span(nil), l.Spans...)
	}
	var out []Span
	for _, l := range r.Locations {
		out = append(out, l.Spans...)
	}
	return out
}

// CrossesPage reports whether the reported location crosses a page break.
func (r *Result) CrossesPage() bool {
	if l, ok := r.Location(); ok {
		return l.CrossesPage()
	}
	for _, l := range r.Locations {
		if l.CrossesPage() {
			return true
		}
	}
	return false
}

func dedupInts(s []int) []int {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
