package citations

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/testcorpus"
)

// genuinePages hold what genuine quotes from real pipelines change:
// hyphens, dashes, apostrophes, non-ASCII characters, signs and units next
// to numbers; by document, its pages.
var genuinePages = map[string][]string{
	"filing.pdf": {
		"Results for the first-quarter of 2023 were strong across the group.\n" +
			"The Former Issuer’s shares were exchanged for new shares.\n" +
			"Marketable securities — current 1,234 (567) and more.\n" +
			"Revenue rose 5% to $1,200 million, a change of −5 points in total.\n" +
			"At 20 °C the 5 μm layer measured ≤ 3 units and the price was €40 each.\n" +
			"The range was 2019–2020 and 1\u2009000 units shipped in that time.\n" +
			"Features: ■ fast ■ small ■ cheap machines for everyone here.\n" +
			"The bound x ≤ y holds for all inputs of the system studied.\n" +
			"Agência Nacional de Aviação Civil (ANAC) approved the change.\n" +
			"All ﬁnancial statements were ﬁled on time by the company.",
		"We employed 29,239 people worldwide in 2022 across all regions.\n" +
			"Total assets $ — $ 2,345 at the end of the year under review.",
	},
	"register.pdf": {
		"civil aviation authorities: Ageˆncia Nacional de\nAviac¸a˜o Civil (ANAC) Brazil, Transport Canada",
		"A page that prints Aviaçaõ Civil itself, with its own spelling.",
	},
	"other.pdf": {"Nothing about results or quarters appears on this page at all."},
	"privacy.pdf": {"any deterministic function of (ε1, ε2) gives the same result here.\n" +
		"Then V1 ∩ V2 = ∅ holds by assumption.\nCase 2: p(y1) \u0338= p(y2) for the two points."},
	"lecture.pdf": {"Functions Associated to a Type\n▶ Header files dec-\nlare them in full\nis limited (according to an ϵ parameter).\nan e value here"},
}

func genuineIndex(t *testing.T) *Index {
	t.Helper()
	var docs []corpus.MemoryDocument
	for _, name := range slices.Sorted(maps.Keys(genuinePages)) {
		d := corpus.MemoryDocument{Name: name}
		for _, text := range genuinePages[name] {
			d.Pages = append(d.Pages, corpus.PageText{Text: text})
		}
		docs = append(docs, d)
	}
	ix, err := Build(testcorpus.Memory(t, docs), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// genuineCase is a quote to locate, why, and what the locator must say:
// found at level on page, or not found with status, naming the page's and
// the quote's characters when only a character that carries meaning
// differs.
type genuineCase struct {
	why                   string
	q                     Query
	level                 string
	onPage                int
	status                Status
	pageChars, quoteChars string
}

// found is a case of a quote found uniquely at level on page.
func found(why string, q Query, level string, page int) genuineCase {
	return genuineCase{why: why, q: q, level: level, onPage: page, status: StatusUnique}
}

// missed is a case of a quote not found (status), naming the characters
// that differ when pageChars is not "".
func missed(why string, q Query, status Status, pageChars, quoteChars string) genuineCase {
	return genuineCase{why: why, q: q, status: status, pageChars: pageChars, quoteChars: quoteChars}
}

// check locates the case's quote and reports what differs from what the
// case wants.
func (c genuineCase) check(t *testing.T, ix *Index) {
	t.Helper()
	r := ix.Locate(c.q)
	switch {
	case r.Status != c.status:
		t.Errorf("%s: %q: %s at %q on %v (note %q), want %s", c.why, c.q.Quote, r.Status, levelOf(r), r.Pages(), r.Note, c.status)
	case c.status == StatusUnique && (levelOf(r) != c.level || !slices.Equal(r.Pages(), []int{c.onPage})):
		t.Errorf("%s: %q: at %q on %v, want %s on page %d", c.why, c.q.Quote, levelOf(r), r.Pages(), c.level, c.onPage)
	case c.status == StatusUnique:
	case c.pageChars == "" && r.Changed != nil:
		t.Errorf("%s: a passage named although none differs only in meaning: %+v", c.why, r.Changed)
	case c.pageChars != "" && r.Changed == nil:
		t.Errorf("%s: no passage named; note %q", c.why, r.Note)
	case c.pageChars != "" && (r.Changed.Page != strings.TrimSpace(c.pageChars) || r.Changed.Quote != strings.TrimSpace(c.quoteChars)):
		t.Errorf("%s: Changed says the page has %q and the quote %q, want %q and %q", c.why, r.Changed.Page, r.Changed.Quote, c.pageChars, c.quoteChars)
	case c.pageChars != "" && !strings.Contains(r.Note, "carries meaning"):
		t.Errorf("%s: the note does not say why: %q", c.why, r.Note)
	}
}

// TestGenuineQuotes: the punctuation, non_ascii_dropped and
// retrieval_edges levels and the accent after its letter find genuine
// quotes that differ only as real pipelines change them.
func TestGenuineQuotes(t *testing.T) {
	ix := genuineIndex(t)
	for _, c := range []genuineCase{
		found("a hyphen between letters written as a space", Query{Document: "filing.pdf", Quote: "Results for the first quarter of 2023 were strong across the group."}, "punctuation", 1),
		found("a hyphen between letters dropped", Query{Document: "filing.pdf", Quote: "Results for the firstquarter of 2023 were strong"}, "punctuation", 1),
		found("an apostrophe dropped", Query{Document: "filing.pdf", Quote: "The Former Issuers shares were exchanged for new shares."}, "punctuation", 1),
		found("an em dash written as --", Query{Document: "filing.pdf", Quote: "Marketable securities -- current 1,234 (567) and more."}, "punctuation", 1),
		found("a table's nil em dash written as --", Query{Document: "filing.pdf", Quote: "Total assets $ -- $ 2,345 at the end of the year"}, "punctuation", 2),
		found("bullets dropped", Query{Document: "filing.pdf", Quote: "Features: fast small cheap machines for everyone here."}, "punctuation", 1),
		found("an em dash dropped by an ASCII pipeline (punctuation finds it first)", Query{Document: "filing.pdf", Quote: "Marketable securities  current 1,234 (567) and more."}, "punctuation", 1),
		found("accented letters dropped by an ASCII pipeline", Query{Document: "filing.pdf", Quote: "Agncia Nacional de Aviao Civil (ANAC) approved the change."}, "non_ascii_dropped", 1),
		found("TeX's spacing accents dropped by an ASCII pipeline, their letters kept", Query{Document: "register.pdf", Quote: "civil aviation authorities: Agencia Nacional de\nAviacao Civil (ANAC) Brazil"}, "non_ascii_dropped", 1),
		found("ligatures dropped by an ASCII pipeline", Query{Document: "filing.pdf", Quote: "All nancial statements were led on time by the company."}, "non_ascii_dropped", 1),
		found("a table's nil em dash dropped by an ASCII pipeline", Query{Document: "filing.pdf", Quote: "Total assets $  $ 2,345 at the end of the year"}, "punctuation", 2),
		found("the accent after its letter, as pdftotext and people write it", Query{Document: "register.pdf", Quote: "Agência Nacional de Aviação Civil"}, "typography", 1),
		found("a retrieval result cut inside its last word", Query{Document: "filing.pdf", Quote: "We employed 29,239 peo", Retrieval: true}, "retrieval_edges", 2),
		found("a retrieval result cut inside its first word", Query{Document: "filing.pdf", Quote: "ployed 29,239 people worldwide in 2022", Retrieval: true}, "retrieval_edges", 2),
		found("words joined as well as a hyphen written as a space: joined_words, which never passes", Query{Document: "filing.pdf", Quote: "Results for thefirst quarter of 2023 were strong"}, "joined_words", 1),
		found("a whole-word retrieval result is found as any quote", Query{Document: "filing.pdf", Quote: "We employed 29,239 people", Retrieval: true}, "exact", 2),
		found("pypdf's glyph name glued to the next word", Query{Document: "lecture.pdf", Quote: "Functions Associated to a Type\n/trianglerightsldHeader files"}, "glyph_codes", 1),
		found("pypdf's glyph name of a TeX letter", Query{Document: "lecture.pdf", Quote: "is limited (according to an /epsilon1parameter)."}, "glyph_codes", 1),
		found("pypdf's space before a line-end hyphen", Query{Document: "lecture.pdf", Quote: "Header files dec -\nlare them in full"}, "hyphenation", 1),
	} {
		c.check(t, ix)
	}
}

// TestGenuineGuardRails: no relaxed level finds a quote with a changed
// number, word, sign, comparison, currency or unit; where only a character
// that carries meaning differs, the result says which and where.
func TestGenuineGuardRails(t *testing.T) {
	ix := genuineIndex(t)
	const f, nf = "filing.pdf", StatusNotFound
	for _, c := range []genuineCase{
		missed("a minus sign dropped", Query{Document: f, Quote: "Revenue rose 5% to $1,200 million, a change of 5 points in total."}, nf, "-", ""),
		missed("a minus sign as an ASCII pipeline drops it", Query{Document: f, Quote: "a change of  5 points in total."}, nf, "-", ""),
		missed("a per-cent sign dropped", Query{Document: f, Quote: "Revenue rose 5 to $1,200 million, a change of"}, nf, "%", ""),
		missed("a currency sign dropped", Query{Document: f, Quote: "Revenue rose 5% to 1,200 million, a change of"}, nf, "$", ""),
		missed("a comparison and a euro sign dropped by an ASCII pipeline", Query{Document: f, Quote: "measured  3 units and the price was 40 each."}, nf, "≤", ""),
		missed("the euro sign alone dropped", Query{Document: f, Quote: "units and the price was 40 each."}, nf, "€", ""),
		missed("a degree sign dropped", Query{Document: f, Quote: "At 20 C the 5 μm layer measured ≤ 3 units"}, nf, "°", ""),
		missed("a unit's letter dropped by an ASCII pipeline", Query{Document: f, Quote: "At 20 C the 5 m layer measured  3 units"}, nf, "°", ""),
		missed("a comparison dropped next to a number", Query{Document: f, Quote: "the 5 μm layer measured 3 units and the price was €40"}, nf, "≤", ""),
		missed("a comparison dropped between letters", Query{Document: f, Quote: "The bound x y holds for all inputs of the system studied."}, nf, "≤", ""),
		missed("a comparison changed", Query{Document: f, Quote: "The bound x < y holds for all inputs of the system studied."}, nf, "≤", "<"),
		missed("a thousands separator dropped", Query{Document: f, Quote: "Revenue rose 5% to $1200 million, a change of"}, nf, ",", ""),
		missed("a thin space between digits dropped", Query{Document: f, Quote: "The range was 2019-2020 and 1000 units shipped in that time."}, nf, " ", ""),
		missed("a range's dash dropped", Query{Document: f, Quote: "The range was 2019 2020 and 1\u2009000 units shipped in that time."}, nf, "-", " "),
		missed("an accounting negative's parentheses dropped", Query{Document: f, Quote: "Marketable securities -- current 1,234 567 and more."}, nf, "(", ""),
		missed("a changed digit", Query{Document: f, Quote: "We employed 29,238 people worldwide in 2022 across all regions."}, nf, "", ""),
		missed("a changed word", Query{Document: f, Quote: "Results for the second quarter of 2023 were strong across the group."}, nf, "", ""),
		missed("a fabricated quote", Query{Document: f, Quote: "Results for the first quarter of 2023 were weak across the board."}, nf, "", ""),
		missed("the right passage named to the wrong document", Query{Document: "other.pdf", Quote: "Results for the first quarter of 2023 were strong across the group."}, StatusNotFoundInDocument, "", ""),
		missed("a page printing aõ does not hold ão", Query{Document: "register.pdf", Quote: "A page that prints Aviação Civil itself"}, nf, "", ""),
		missed("a retrieval result with a changed digit", Query{Document: f, Quote: "We employed 29,238 peo", Retrieval: true}, nf, "", ""),
		missed("a precomposed accented letter is not read as its letter: an accent distinguishes words", Query{Document: f, Quote: "Agencia Nacional de Aviacao Civil (ANAC) approved the change."}, nf, "", ""),
		missed("a cut edge is for retrieval results only", Query{Document: f, Quote: "We employed 29,239 peo"}, nf, "", ""),
		missed("a letter with an index dropped by an ASCII pipeline", Query{Document: "privacy.pdf", Quote: "any deterministic function of (1, 2) gives the same result"}, nf, "ε", ""),
		missed("a symbol dropped before the quote's first word", Query{Document: "privacy.pdf", Quote: "=  holds by assumption.\nCase 2: p(y1) \u0338= p(y2) for the two points."}, nf, "∅", "="),
		missed("a negation overlay dropped by an ASCII pipeline", Query{Document: "privacy.pdf", Quote: "holds by assumption.\nCase 2: p(y1) = p(y2) for the two points."}, nf, "\u0338", ""),
		missed("a glyph name never stands for an ASCII letter", Query{Document: "lecture.pdf", Quote: "parameter).\nan /epsilon1 value here"}, nf, "", ""),
	} {
		c.check(t, ix)
	}
}
