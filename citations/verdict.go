package citations

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
)

// Outcome is a citation verdict's class.
type Outcome string

// The outcomes. Unresolved is data for source review, not an error.
const (
	Pass       Outcome = "pass"
	Fail       Outcome = "fail"
	Unresolved Outcome = "unresolved"
)

// Reason is the machine-readable reason of a verdict.
type Reason string

// The reasons, by outcome (DESIGN §5; the last five unresolved reasons are
// the cases "the rules cannot settle", named so that they can be counted).
const (
	// pass
	ReasonDeclaredSpan Reason = "declared_span" // grounded, located, contains a declared evidence span

	// fail
	ReasonFabricatedQuote = Reason("fabricated_quote") // in no corpus document
	ReasonWrongDocument   = Reason("wrong_document")   // grounded in another document than the one cited (or than the evidence's)
	ReasonWrongPage       = Reason("wrong_page")       // a page was given and the quote is on no page it could mean
	ReasonUnknownDocument = Reason("unknown_document") // the cited document is not in the corpus
	ReasonWrongFact       = Reason("wrong_fact")       // grounded, no declared span, no canonical fact
	ReasonMissingCitation = Reason("missing_citation") // an answer to an answerable question cited nothing

	// unresolved
	ReasonAmbiguousLocation        = Reason("ambiguous_location")         // several locations, nothing disambiguates
	ReasonAlternateEvidence        = Reason("alternate_evidence")         // grounded, holds the canonical fact, not a declared span
	ReasonAmbiguousDocumentMapping = Reason("ambiguous_document_mapping") // the cited document maps to several or only loosely
	ReasonJoinedWords              = Reason("joined_words")               // found only with spaces ignored
	ReasonUnmappedGlyphs           = Reason("unmapped_glyphs")            // found only with the page's unmapped glyphs left out
	ReasonGlyphCodes               = Reason("glyph_codes")                // found only with glyphs read by their font codes
	ReasonReordered                = Reason("reordered")                  // found only as pieces in another order
	ReasonPageConvention           = Reason("page_convention")            // the page matches only read 0-based or as a label
	ReasonNoQuote                  = Reason("no_quote")                   // the citation carries no quote to verify
	ReasonNoText                   = Reason("no_text")                    // not found, and the document or page has no reliable text
	ReasonNoReferenceEvidence      = Reason("no_reference_evidence")      // the reference declares neither spans nor values
)

// Reasons lists every reason with its outcome, in report order.
var Reasons = []struct {
	Reason  Reason
	Outcome Outcome
}{
	{ReasonDeclaredSpan, Pass},
	{ReasonFabricatedQuote, Fail}, {ReasonWrongDocument, Fail}, {ReasonWrongPage, Fail},
	{ReasonUnknownDocument, Fail}, {ReasonWrongFact, Fail}, {ReasonMissingCitation, Fail},
	{ReasonAmbiguousLocation, Unresolved}, {ReasonAlternateEvidence, Unresolved},
	{ReasonAmbiguousDocumentMapping, Unresolved}, {ReasonJoinedWords, Unresolved},
	{ReasonUnmappedGlyphs, Unresolved},
	{ReasonGlyphCodes, Unresolved}, {ReasonReordered, Unresolved}, {ReasonPageConvention, Unresolved}, {ReasonNoQuote, Unresolved},
	{ReasonNoText, Unresolved}, {ReasonNoReferenceEvidence, Unresolved},
}

// Citation is one citation an answer emitted.
type Citation struct {
	ID        string
	Document  string // name, hash, or a key of the run's Mapping
	Page      int    // 1-based; 0 when none given
	LastPage  int    // end of a page range, inclusive; 0 when none
	PageLabel string
	Quote     string
	// NoQuote: the format carries no quote (OpenAI file_citation); the
	// citation can never pass.
	NoQuote bool
}

// EvidenceSpan is a declared, exact supporting span of the reference.
type EvidenceSpan struct {
	Document string
	Page     int // 1-based
	Start    int // code points into the stored page text, end exclusive
	End      int
	// EndPage, when set, is Page+1: the span crosses the page break, Start
	// is in Page and End in EndPage (as in package spans).
	EndPage int
	Text    string // optional; informative
}

// Expected is the ground truth the classifier needs for one question, as
// ExpectedFor takes it from a reference (package spans).
type Expected struct {
	Evidence []EvidenceSpan
	// CanonicalValues are the complete canonical values and accepted
	// alternatives of the question's fields: a quote holding one is
	// plausible alternate evidence.
	CanonicalValues []string
}

// Verdict is the classification of one citation.
type Verdict struct {
	CitationID string
	Outcome    Outcome
	Reason     Reason
	// Result is where the quote was found (zero when nothing was located:
	// no quote, an ambiguous document mapping).
	Result Result
	// Evidence is the declared span the located quote contains (pass, and
	// relaxed matches that would otherwise pass).
	Evidence *EvidenceSpan
	Detail   string
}

// MissingCitation returns the missing_citation verdict when an answer to an
// answerable question emitted no citation. answered is the grader's
// decision that the attempt answered rather than abstained.
func MissingCitation(answerable, answered bool, citations int) (Verdict, bool) {
	if answerable && answered && citations == 0 {
		return Verdict{Outcome: Fail, Reason: ReasonMissingCitation, Detail: "the answer emitted no citation", Result: Result{Chosen: -1}}, true
	}
	return Verdict{}, false
}

// Classify verifies one citation against the corpus and the question's
// declared evidence, by the policy's "Evidence and abstention" rules. The
// rules are applied in this order, first match wins:
//
//  1. the document maps to nothing: fail unknown_document;
//  2. no quote: unresolved no_quote ("no quote to verify", never a pass);
//     the document maps ambiguously: unresolved ambiguous_document_mapping;
//  3. not found in the cited document: unresolved no_text if it or the
//     given page (or, with no page given, any page) has no reliable text;
//     else fail wrong_document when another document holds the quote, and
//     fabricated_quote when none does;
//  4. a page was given and the quote is on no page it could mean: fail
//     wrong_page; on it only read 0-based or as a label: unresolved
//     page_convention;
//  5. several locations left: unresolved ambiguous_location;
//  6. the reference declares nothing: unresolved no_reference_evidence;
//  7. the located span contains a declared span: pass, or unresolved
//     joined_words / reordered when the match needed those levels;
//  8. the quote holds a canonical value: unresolved alternate_evidence in a
//     document that holds declared evidence, fail wrong_document in another;
//  9. otherwise fail wrong_fact.
func (ix *Index) Classify(c Citation, m Mapping, exp Expected) Verdict {
	v := Verdict{CitationID: c.ID, Result: Result{Chosen: -1}}
	set := func(o Outcome, r Reason, format string, args ...any) Verdict {
		v.Outcome, v.Reason, v.Detail = o, r, fmt.Sprintf(format, args...)
		return v
	}
	dm := ix.Resolve(c.Document, m)
	if dm.Resolution == DocUnknown {
		v.Result = ix.Locate(Query{Document: c.Document, Quote: c.Quote})
		return set(Fail, ReasonUnknownDocument, "document %q is not in the corpus", c.Document)
	}
	if c.NoQuote || strings.TrimSpace(c.Quote) == "" {
		return set(Unresolved, ReasonNoQuote, "no quote to verify")
	}
	q := Query{Quote: c.Quote, Page: c.Page, LastPage: c.LastPage, PageLabel: c.PageLabel}
	switch dm.Resolution {
	case DocAmbiguous:
		return set(Unresolved, ReasonAmbiguousDocumentMapping, "%s", dm.Why(c.Document))
	case DocResolved:
		q.Document = dm.Name
	default:
		q.Document = c.Document
	}
	r := ix.Locate(q)
	v.Result = r
	switch r.Status {
	case StatusUnknownDocument:
		return set(Fail, ReasonUnknownDocument, "document %q is not in the corpus", c.Document)
	case StatusNotFound, StatusNotFoundInDocument:
		if why := textless(r, c.Page); why != "" {
			return set(Unresolved, ReasonNoText, "%s", why)
		}
		if r.Status == StatusNotFoundInDocument {
			return set(Fail, ReasonWrongDocument, "not in %s; found in %s", r.Document, r.Elsewhere[0].Document)
		}
		return set(Fail, ReasonFabricatedQuote, "the quote is in no corpus document")
	}
	switch r.PageCheck {
	case PageNotOnPage:
		return set(Fail, ReasonWrongPage, "given page %s; found on page %s", pageText(c), intsText(r.Pages()))
	case PageZeroBased, PageLabelled:
		return set(Unresolved, ReasonPageConvention, "given page %s matches page %s only as %s", pageText(c), intsText(r.Pages()), r.PageCheck)
	}
	if r.Status == StatusAmbiguous {
		why := fmt.Sprintf("%d locations on pages %s", len(r.Locations), intsText(r.Pages()))
		if r.Short {
			why = "a very short quote that occurs many times in the corpus"
		}
		return set(Unresolved, ReasonAmbiguousLocation, "%s", why)
	}
	if len(exp.Evidence) == 0 && len(exp.CanonicalValues) == 0 {
		return set(Unresolved, ReasonNoReferenceEvidence, "the reference declares no evidence span and no value")
	}
	loc, _ := r.Location()
	if e := ix.containedEvidence(loc, exp.Evidence); e != nil {
		v.Evidence = e
		if reason, why, relaxed := relaxedReason(loc.Level); relaxed {
			return set(Unresolved, reason, "contains the declared span only %s", why)
		}
		return set(Pass, ReasonDeclaredSpan, "contains the declared span %s p%d [%d,%d)", e.Document, e.Page, e.Start, e.End)
	}
	if val, ok := ix.holdsValue(c.Quote, exp.CanonicalValues); ok {
		evidenceDoc := len(exp.Evidence) == 0 || slices.ContainsFunc(exp.Evidence, func(e EvidenceSpan) bool { return e.Document == r.Document })
		if !evidenceDoc {
			return set(Fail, ReasonWrongDocument, "holds %q but in %s, not the evidence's document", val, r.Document)
		}
		return set(Unresolved, ReasonAlternateEvidence, "holds %q but contains no declared span: needs source review", val)
	}
	return set(Fail, ReasonWrongFact, "contains no declared span and no canonical value")
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

// containedEvidence returns the first declared span the location covers.
// Spans of the location on one page that only white space separates count
// as one (pieces and segments are contiguous there).
func (ix *Index) containedEvidence(l Location, ev []EvidenceSpan) *EvidenceSpan {
	merged := ix.mergeSpans(l)
	for i := range ev {
		e := &ev[i]
		if e.Document != l.Document {
			continue
		}
		if e.EndPage == e.Page+1 {
			if ix.coversPageBreak(l.Document, merged, e) {
				return e
			}
			continue
		}
		if e.End <= e.Start {
			continue
		}
		for _, s := range merged {
			if s.Page == e.Page && s.Start <= e.Start && e.End <= s.End {
				return e
			}
		}
	}
	return nil
}

// coversPageBreak reports whether the location holds a declared span that
// crosses a page break: from Start to the end of Page's content, and from
// the start of EndPage's content to End. Only white space and page
// furniture (a page number line, the policy's footer) may lie outside the
// location at the break, as the locator skips them there.
func (ix *Index) coversPageBreak(doc string, merged []Span, e *EvidenceSpan) bool {
	d, ok := ix.docIndex(doc)
	if !ok || e.Page < 1 || e.EndPage > ix.docs[d].n {
		return false
	}
	first, next := &ix.pages[ix.docs[d].first+e.Page-1], &ix.pages[ix.docs[d].first+e.EndPage-1]
	// Raw code points where the content ends on the first page and starts
	// on the next (normalized text has no white space at its ends).
	if first.contentTo == 0 || next.contentFrom >= next.text.Len() {
		return false
	}
	_, contentEnd := first.text.RawSpan(first.contentTo-1, first.contentTo)
	contentStart, _ := next.text.RawSpan(next.contentFrom, next.contentFrom+1)
	tail, head := false, false
	for _, s := range merged {
		if s.Page == e.Page && s.Start <= e.Start && s.End >= contentEnd {
			tail = true
		}
		if s.Page == e.EndPage && s.Start <= contentStart && e.End <= s.End {
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

// holdsValue reports whether the quote contains one of the values, both
// normalized by the quote profile and case-folded, between word
// boundaries ("10 days" is not in "110 days").
func (ix *Index) holdsValue(quote string, values []string) (string, bool) {
	fold := cases.Fold()
	qs := fold.String(ix.profile.Normalize(quote).String())
	for _, v := range values {
		vs := fold.String(ix.profile.Normalize(v).String())
		if vs == "" {
			continue
		}
		for off := 0; ; {
			i := strings.Index(qs[off:], vs)
			if i < 0 {
				break
			}
			b, e := off+i, off+i+len(vs)
			off = b + 1
			if b > 0 && isWordRune(lastRune(qs[:b])) && isWordRune(firstRune(vs)) {
				continue
			}
			if e < len(qs) && isWordRune(firstRune(qs[e:])) && isWordRune(lastRune(vs)) {
				continue
			}
			if b > 0 && boundDigit(lastRune(qs[:b]), firstRune(vs)) || e < len(qs) && boundDigit(lastRune(vs), firstRune(qs[e:])) {
				continue
			}
			return v, true
		}
	}
	return "", false
}

func firstRune(s string) rune {
	if s == "" {
		return -1
	}
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

func lastRune(s string) rune {
	if s == "" {
		return -1
	}
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// relaxedReason is the unresolved reason of a citation whose quote contains
// a declared span but was found only at a relaxed level. Every level past
// the quote profile's has one (TestRelaxedLevelsNeverPass), so that no new
// level can pass by default.
func relaxedReason(l Level) (reason Reason, why string, relaxed bool) {
	switch {
	case l == JoinedWords:
		return ReasonJoinedWords, "with spaces ignored", true
	case l == UnmappedGlyphs:
		return ReasonUnmappedGlyphs, "with the page's unmapped glyphs left out", true
	case l == GlyphCodes:
		return ReasonGlyphCodes, "with glyphs read by their font codes, as another extractor reads them", true
	case l == Reordered:
		return ReasonReordered, "as pieces in another order", true
	}
	return "", "", false
}
