package grade

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/citecheck/citecheck/absence"
	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/runs"
	"golang.org/x/text/cases"
)

// Outcome is a verdict's class: citations and the derived verdicts are
// pass, fail or unresolved; fields are correct, incorrect or unresolved.
// It is package absence's type, so that an abstention verdict is a
// result's verdict as absence decides it, never converted.
type Outcome = absence.Outcome

// The outcomes. Unresolved is data for source review, not an error.
const (
	Pass       = absence.Pass
	Fail       = absence.Fail
	Unresolved = absence.Unresolved

	Correct   Outcome = "correct"
	Incorrect Outcome = "incorrect"
)

// Reason is the machine-readable reason of a citation verdict.
type Reason string

// The citation reasons, by outcome (the unresolved reasons after
// the first four are the cases "the rules cannot settle", named so that
// they can be counted).
const (
	// pass
	ReasonDeclaredSpan Reason = "declared_span" // grounded, located, contains a declared evidence span

	// fail
	ReasonFabricatedQuote = Reason("fabricated_quote") // in no corpus document
	ReasonChangedSymbol   = Reason("changed_symbol")   // a passage matches but for a sign, comparison, currency, unit or separator
	ReasonWrongDocument   = Reason("wrong_document")   // grounded in another document than the one cited
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
	ReasonExternalSource           = Reason("external_source")            // a source outside the corpus (a web page): the frozen corpus cannot check it
	ReasonMalformedCitation        = Reason("malformed_citation")         // the citation's own values cannot be read as given (a page 0): kept, never looked up
)

// Reasons lists every citation reason with its outcome, in report order.
var Reasons = []struct {
	Reason  Reason
	Outcome Outcome
}{
	{ReasonDeclaredSpan, Pass},
	{ReasonFabricatedQuote, Fail}, {ReasonChangedSymbol, Fail}, {ReasonWrongDocument, Fail}, {ReasonWrongPage, Fail},
	{ReasonUnknownDocument, Fail}, {ReasonWrongFact, Fail}, {ReasonMissingCitation, Fail},
	{ReasonAmbiguousLocation, Unresolved}, {ReasonAlternateEvidence, Unresolved},
	{ReasonAmbiguousDocumentMapping, Unresolved}, {ReasonJoinedWords, Unresolved},
	{ReasonUnmappedGlyphs, Unresolved},
	{ReasonGlyphCodes, Unresolved}, {ReasonReordered, Unresolved}, {ReasonPageConvention, Unresolved}, {ReasonNoQuote, Unresolved},
	{ReasonNoText, Unresolved}, {ReasonNoReferenceEvidence, Unresolved}, {ReasonExternalSource, Unresolved},
	{ReasonMalformedCitation, Unresolved},
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
	// Claim is the index of the essential claim the span supports.
	Claim int
}

// Expected is the ground truth the classifier needs for one question, as
// ExpectedFor takes it from a reference (package spans).
type Expected struct {
	Evidence []EvidenceSpan
	// CanonicalValues are the complete canonical values and accepted
	// alternatives of the question's fields: a quote holding one is
	// plausible alternate evidence.
	CanonicalValues []string
	// Abstain: the question expects an abstention, so nothing the corpus
	// says supports an answer to it (docs/grading.md's readings).
	Abstain bool
}

// Verdict is the classification of one citation.
type Verdict struct {
	CitationID string
	Outcome    Outcome
	Reason     Reason
	// Grounded is where the quote was found (Result zero, Chosen -1, when
	// nothing was located: no quote, an ambiguous document mapping).
	Grounded citations.Grounded
	// Covered are the declared spans the located quote contains, in the
	// order of Expected.Evidence (set for pass, and for relaxed matches
	// that would otherwise pass).
	Covered []EvidenceSpan
	Detail  string
}

// MalformedCitation is the verdict of a citation whose own values cannot
// be read as given (runs.Citation.Fault: a page 0, a range that ends
// before it starts, no document): unresolved, never looked up, the fault
// in its detail. What the citation says is left to review rather than
// guessed, and the record's other citations are graded as usual.
func MalformedCitation(id, fault string) Verdict {
	return Verdict{CitationID: id, Outcome: Unresolved, Reason: ReasonMalformedCitation, Detail: "malformed citation: " + fault,
		Grounded: citations.Grounded{Result: citations.Result{Chosen: -1}}}
}

// MissingCitation is the verdict reported, in place of citation verdicts,
// for an answer to an answerable question that emitted no citation, a
// decline included (docs/grading.md's readings).
func MissingCitation() Verdict {
	return Verdict{Outcome: Fail, Reason: ReasonMissingCitation, Detail: "the answer emitted no citation",
		Grounded: citations.Grounded{Result: citations.Result{Chosen: -1}}}
}

// Classify verifies one citation against the corpus and the question's
// declared evidence, by the policy's "Evidence and abstention" rules, in
// the precedence docs/grading.md's readings state. First match wins:
//
//  0. a source outside the corpus (a web page; citations.Citation
//     External): unresolved external_source, since the frozen corpus
//     cannot check it;
//  1. grounding failures, from citations.Index.Ground: unknown document
//     (fail unknown_document); an ambiguous document mapping, no quote, no
//     text where the quote would be (unresolved with that cause); found
//     only in other documents (fail wrong_document); nowhere, but a
//     passage matches but for a character that carries meaning (fail
//     changed_symbol: a changed sign fails, and the detail says what
//     differs); nowhere (fail fabricated_quote); not on the given page
//     (fail wrong_page; on it only
//     read 0-based or as a label: unresolved page_convention); several
//     locations (unresolved ambiguous_location);
//  2. the question expects an abstention: fail wrong_fact, at whatever
//     level the quote was found;
//  3. found only at a relaxed level (joined_words, unmapped_glyphs,
//     glyph_codes, reordered): unresolved with the level's reason, whatever
//     the quote holds; punctuation, non_ascii_dropped and
//     retrieval_edges are graded as the normalized levels are (the same
//     words and numbers, every character that carries meaning as the page
//     has it: docs/grading.md);
//  4. the reference declares nothing: unresolved no_reference_evidence;
//  5. the located span contains a declared span: pass declared_span;
//  6. the quote holds a canonical value (normalized, it contains the
//     compact value, an accepted alternative or a declared span's text):
//     unresolved alternate_evidence, in whatever document it is grounded;
//  7. otherwise fail wrong_fact.
func Classify(ix *citations.Index, c citations.Citation, m runs.Mapping, exp Expected) Verdict {
	g := ix.Ground(c, m)
	v := Verdict{CitationID: c.ID, Grounded: g}
	set := func(o Outcome, r Reason, format string, args ...any) Verdict {
		v.Outcome, v.Reason, v.Detail = o, r, fmt.Sprintf(format, args...)
		if g.Note != "" {
			v.Detail += " (" + g.Note + ")"
		}
		return v
	}
	switch g.Grounding {
	case citations.GroundedExternal:
		return set(Unresolved, ReasonExternalSource, "%s", g.Detail)
	case citations.GroundedUnknownDocument:
		return set(Fail, ReasonUnknownDocument, "%s", g.Detail)
	case citations.GroundedUnverifiable:
		return set(Unresolved, Reason(g.Cause), "%s", g.Detail)
	case citations.GroundedWrongDocument:
		return set(Fail, ReasonWrongDocument, "%s", g.Detail)
	case citations.GroundedFabricated:
		if g.Cause == citations.CauseChangedSymbol {
			return set(Fail, ReasonChangedSymbol, "%s", g.Detail)
		}
		return set(Fail, ReasonFabricatedQuote, "the quote is in no corpus document")
	case citations.GroundedWrongPage:
		return set(Fail, ReasonWrongPage, "%s", g.Detail)
	case citations.GroundedPageConvention:
		return set(Unresolved, ReasonPageConvention, "%s", g.Detail)
	case citations.GroundedAmbiguous:
		return set(Unresolved, ReasonAmbiguousLocation, "%s", g.Detail)
	}
	loc, _ := g.Result.Location()
	for _, e := range exp.Evidence {
		if ix.Covers(loc, citations.Passage{Document: e.Document, Page: e.Page, Start: e.Start, End: e.End, EndPage: e.EndPage}) {
			v.Covered = append(v.Covered, e)
		}
	}
	reason, why, relaxed := relaxedReason(loc.Level)
	if exp.Abstain {
		// No passage supports an answer to an unknown question, so no level
		// could make the citation pass: the level leaves nothing open.
		if relaxed {
			return set(Fail, ReasonWrongFact, "the question expects an abstention: no passage supports an answer (found only %s)", why)
		}
		return set(Fail, ReasonWrongFact, "the question expects an abstention: no passage supports an answer")
	}
	if relaxed {
		return set(Unresolved, reason, "found only %s", why)
	}
	if len(exp.Evidence) == 0 && len(exp.CanonicalValues) == 0 {
		return set(Unresolved, ReasonNoReferenceEvidence, "the reference declares no evidence span and no value")
	}
	if len(v.Covered) > 0 {
		e := v.Covered[0]
		return set(Pass, ReasonDeclaredSpan, "contains the declared span %s p%d [%d,%d)", e.Document, e.Page, e.Start, e.End)
	}
	if val, ok := holdsValue(ix, c.Quote, exp.CanonicalValues); ok {
		return set(Unresolved, ReasonAlternateEvidence, "holds %q but contains no declared span: needs source review", val)
	}
	return set(Fail, ReasonWrongFact, "contains no declared span and no canonical value")
}

// holdsValue reports whether the quote contains one of the values, both
// normalized by the quote profile and case-folded, between word
// boundaries ("10 days" is not in "110 days").
func holdsValue(ix *citations.Index, quote string, values []string) (string, bool) {
	fold := cases.Fold()
	p := ix.Profile()
	qs := fold.String(p.Normalize(quote).String())
	for _, v := range values {
		vs := fold.String(p.Normalize(v).String())
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

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) }

// boundDigit: a digit next to a decimal point, comma or sign that continues
// a number ("1.5" does not hold "1", "-5" does not hold "5").
func boundDigit(a, b rune) bool {
	isD := func(r rune) bool { return r >= '0' && r <= '9' }
	return (isD(a) && (b == '.' || b == ',')) || ((a == '.' || a == ',' || a == '-' || a == '+') && isD(b))
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

// relaxedReason is the unresolved reason of a citation found only at a
// relaxed level. Every level past the quote profile's has one but those
// that passesLikeNormalized names (TestRelaxedLevelsNeverPass), so that no
// new level can pass by default.
func relaxedReason(l citations.Level) (reason Reason, why string, relaxed bool) {
	switch {
	case passesLikeNormalized(l):
		return "", "", false
	case l == citations.JoinedWords:
		return ReasonJoinedWords, "with spaces ignored", true
	case l == citations.UnmappedGlyphs:
		return ReasonUnmappedGlyphs, "with the page's unmapped glyphs left out", true
	case l == citations.GlyphCodes:
		return ReasonGlyphCodes, "with glyphs read by their font codes, as another extractor reads them", true
	case l == citations.Reordered:
		return ReasonReordered, "as pieces in another order", true
	}
	return "", "", false
}

// passesLikeNormalized names the levels past the quote profile's that
// docs/grading.md grades as the normalized ones: what they relax never
// changes a letter, a digit or a character that carries meaning
// (punctuation), or only drops what an ASCII-only pipeline cannot carry
// (non_ascii_dropped), or only cuts a retrieval result's edge words
// (retrieval_edges).
func passesLikeNormalized(l citations.Level) bool {
	return l == citations.Punctuation || l == citations.NonASCIIDropped || l == citations.RetrievalEdges
}
