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
	"other.pdf":   {"Nothing about results or quarters appears on this page at all."},
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
func found(why, doc, quote string, retrieval bool, level string, page int) genuineCase {
	return genuineCase{why: why, q: Query{Document: doc, Quote: quote, Retrieval: retrieval}, level: level, onPage: page, status: StatusUnique}
}

// missed is a case of a quote not found (status), naming the characters
// that differ when pageChars is not "".
func missed(why, doc, quote string, status Status, pageChars, quoteChars string) genuineCase {
	return genuineCase{why: why, q: Query{Document: doc, Quote: quote}, status: status, pageChars: pageChars, quoteChars: quoteChars}
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
		found("a hyphen between letters written as a space", "filing.pdf", "Results for the first quarter of 2023 were strong across the group.", false, "punctuation", 1),
		found("a hyphen between letters dropped", "filing.pdf", "Results for the firstquarter of 2023 were strong", false, "punctuation", 1),
		found("an apostrophe dropped", "filing.pdf", "The Former Issuers shares were exchanged for new shares.", false, "punctuation", 1),
		found("an em dash written as --", "filing.pdf", "Marketable securities -- current 1,234 (567) and more.", false, "punctuation", 1),
		found("a table's nil em dash written as --", "filing.pdf", "Total assets $ -- $ 2,345 at the end of the year", false, "punctuation", 2),
		found("bullets dropped", "filing.pdf", "Features: fast small cheap machines for everyone here.", false, "punctuation", 1),
		found("an em dash dropped by an ASCII pipeline (punctuation finds it first)", "filing.pdf", "Marketable securities  current 1,234 (567) and more.", false, "punctuation", 1),
		found("accented letters dropped by an ASCII pipeline", "filing.pdf", "Agncia Nacional de Aviao Civil (ANAC) approved the change.", false, "non_ascii_dropped", 1),
		found("ligatures dropped by an ASCII pipeline", "filing.pdf", "All nancial statements were led on time by the company.", false, "non_ascii_dropped", 1),
		found("a table's nil em dash dropped by an ASCII pipeline", "filing.pdf", "Total assets $  $ 2,345 at the end of the year", false, "punctuation", 2),
		found("the accent after its letter, as pdftotext and people write it", "register.pdf", "Agência Nacional de Aviação Civil", false, "typography", 1),
		found("a retrieval result cut inside its last word", "filing.pdf", "We employed 29,239 peo", true, "retrieval_edges", 2),
		found("a retrieval result cut inside its first word", "filing.pdf", "ployed 29,239 people worldwide in 2022", true, "retrieval_edges", 2),
		found("a whole-word retrieval result is found as any quote", "filing.pdf", "We employed 29,239 people", true, "exact", 2),
		found("pypdf's glyph name glued to the next word", "lecture.pdf", "Functions Associated to a Type\n/trianglerightsldHeader files", false, "glyph_codes", 1),
		found("pypdf's glyph name of a TeX letter", "lecture.pdf", "is limited (according to an /epsilon1parameter).", false, "glyph_codes", 1),
		found("pypdf's space before a line-end hyphen", "lecture.pdf", "Header files dec -\nlare them in full", false, "hyphenation", 1),
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
	retrieved := missed("a retrieval result with a changed digit", f, "We employed 29,238 peo", nf, "", "")
	retrieved.q.Retrieval = true
	for _, c := range []genuineCase{
		missed("a minus sign dropped", f, "Revenue rose 5% to $1,200 million, a change of 5 points in total.", nf, "-", ""),
		missed("a minus sign as an ASCII pipeline drops it", f, "a change of  5 points in total.", nf, "-", ""),
		missed("a per-cent sign dropped", f, "Revenue rose 5 to $1,200 million, a change of", nf, "%", ""),
		missed("a currency sign dropped", f, "Revenue rose 5% to 1,200 million, a change of", nf, "$", ""),
		missed("a comparison and a euro sign dropped by an ASCII pipeline", f, "measured  3 units and the price was 40 each.", nf, "≤", ""),
		missed("the euro sign alone dropped", f, "units and the price was 40 each.", nf, "€", ""),
		missed("a degree sign dropped", f, "At 20 C the 5 μm layer measured ≤ 3 units", nf, "°", ""),
		missed("a unit's letter dropped by an ASCII pipeline", f, "At 20 C the 5 m layer measured  3 units", nf, "°", ""),
		missed("a comparison dropped next to a number", f, "the 5 μm layer measured 3 units and the price was €40", nf, "≤", ""),
		missed("a comparison dropped between letters", f, "The bound x y holds for all inputs of the system studied.", nf, "≤", ""),
		missed("a comparison changed", f, "The bound x < y holds for all inputs of the system studied.", nf, "≤", "<"),
		missed("a thousands separator dropped", f, "Revenue rose 5% to $1200 million, a change of", nf, ",", ""),
		missed("a thin space between digits dropped", f, "The range was 2019-2020 and 1000 units shipped in that time.", nf, " ", ""),
		missed("a range's dash dropped", f, "The range was 2019 2020 and 1\u2009000 units shipped in that time.", nf, "-", " "),
		missed("an accounting negative's parentheses dropped", f, "Marketable securities -- current 1,234 567 and more.", nf, "(", ""),
		missed("a changed digit", f, "We employed 29,238 people worldwide in 2022 across all regions.", nf, "", ""),
		missed("a changed word", f, "Results for the second quarter of 2023 were strong across the group.", nf, "", ""),
		missed("words joined as well as a hyphen dropped: joined_words territory", f, "Results for thefirst quarter of 2023 were strong", nf, "", ""),
		missed("a fabricated quote", f, "Results for the first quarter of 2023 were weak across the board.", nf, "", ""),
		missed("the right passage named to the wrong document", "other.pdf", "Results for the first quarter of 2023 were strong across the group.", StatusNotFoundInDocument, "", ""),
		missed("a page printing aõ does not hold ão", "register.pdf", "A page that prints Aviação Civil itself", nf, "", ""),
		retrieved,
		missed("a cut edge is for retrieval results only", f, "We employed 29,239 peo", nf, "", ""),
		missed("a glyph name never stands for an ASCII letter", "lecture.pdf", "parameter).\nan /epsilon1 value here", nf, "", ""),
	} {
		c.check(t, ix)
	}
}
