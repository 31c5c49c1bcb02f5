package citations

import (
	_ "embed"
	"encoding/json"
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
	"fees.pdf":  {"The fee is €5 million for all of the parties to the agreement here, über alles."},
	"statement.pdf": {
		"Revenue rose 5% to $1,200 million, a change of −5 points in total.\n" +
			"The tolerance is ±0.5 mm at a temperature of 20 °C for all parts.\n" +
			"The effect was significant at p<0.05 for all groups in the study.\n" +
			"The fee is €40 million for all of the parties to the agreement.\n" +
			"The ratio must stay ≤3 times earnings before interest and taxes.\n" +
			"Prices fell 7‰ over the period reported in this annual filing.",
		"Operating expenses — 1,200 — 1,200\nNet income — — 4,100 (2,300)\nOther items -- 350 -- 410\nTax charge – 77 – 81\n" +
			"Research and development — 1,204.5 —\nRestructuring charges −45.2 (12.0) 3.1",
	},
	"keys.pdf": {"Key points of the design, with κ ▶ Source files define them once here."},
	"annual.pdf": {"Net sales grew in the second half of the year.\n" +
		"Our products ■ fast ■ small ■ cheap sold well.\n" +
		"Cash flows were strong throughout the period.",
		"Key points of the design\n▶ Header files declare the functions in full.\n▶ Source files define them “once” here."},
	"privacy.pdf": {"any deterministic function of (ε1, ε2) gives the same result here.\n" +
		"Then V1 ∩ V2 = ∅ holds by assumption.\nCase 2: p(y1) \u0338= p(y2) for the two points."},
	"geometry.pdf": {"Sei s eine Kurve. Dann heißt κ(t) Krümmung von γ in t.\n" +
		"Da n(t) und γ′′(t) nach Bemerkung 71.b linear abhängig sind, existiert κ(t).\n" +
		"The FAA sent Emergency AD 2018–23–51 to all affected authorities.\n" +
		"For information, call 206–231–3195 or write to the office.\n" +
		"Metrische Räume heißen hausdorﬀsch für κ und γ hier."},
	"topology.pdf": {"Sei γ : I → R2 eine durch Bogenlänge parametrisierte Kurve.\n" +
		"Für t ∈ I sei n(t) der Normalenvektor von γ an der Stelle t.\n" +
		"Eine Teilmenge U ⊆ X heißt first-order offen, wenn x → y für alle x gilt.",
		"Die Abbildung heißt stetig, wenn für alle offenen Mengen das Urbild offen ist.\n" +
			"Es gibt 110 Mengen für alle Räume dieser Art.\n" +
			"Diﬀerentially pri-\nvate mechanisms for numerical data are noise addition.",
		"Die Räume sind zusammenhängend und kompakt.\nDer Beweis ist schön und kurz für alle.\nEs gilt x ≤ 5 für alle Räume.\nDer ﬁlter ist fertig.\nDas Fac¸ade Muster von K¨olling ist hier beschrieben.\n" +
			"Damit ist alles klar für uns.\n⇒ X ist oﬀen in jedem Raum.\n" +
			"Es gibt eine Überlagerung ˜p : ˜X → X mit Eigenschaften."},
	"lecture.pdf": {"Functions Associated to a Type\n▶ Header files dec-\nlare them in full\nis limited (according to an ϵ parameter).\nan e value here\n" +
		"▶ Declaration of the buﬀer and its ﬁelds, in full.\n5 Declarations of the buﬀer sizes are here.\n" +
		"Then the function of (κ1, κ2) gives ϵ-DP for all data sets here."},
}

// genuineAlts are alternative texts of some genuinePages (by document,
// page index): the page as pdfminer reads glyphs by their font codes.
var genuineAlts = map[string]map[int][]string{
	"topology.pdf": {0: {"Sei γ : I ! R2 eine durch Bogenlänge parametrisierte Kurve.\n" +
		"Für t 2 I sei n(t) der Normalenvektor von γ an der Stelle t.\n" +
		"Eine Teilmenge U ⊆ X heißt first-order offen, wenn x ! y für alle x gilt."}},
}

func genuineIndex(t testing.TB) *Index {
	t.Helper()
	var docs []corpus.MemoryDocument
	names := make([]string, 0, len(genuinePages))
	for name := range genuinePages {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		d := corpus.MemoryDocument{Name: name}
		for p, text := range genuinePages[name] {
			d.Pages = append(d.Pages, corpus.PageText{Text: text, Alts: genuineAlts[name][p]})
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
// found uniquely at level on page, or not found with status, naming the
// page's and the quote's characters when only a character that carries
// meaning differs (testdata/genuine-*.json).
type genuineCase struct {
	Why        string `json:"why"`
	Document   string `json:"document"`
	Quote      string `json:"quote"`
	Retrieval  bool   `json:"retrieval"`
	Level      string `json:"level"`
	Page       int    `json:"page"`
	Status     Status `json:"status"`
	PageChars  string `json:"page_chars"`
	QuoteChars string `json:"quote_chars"`
}

// The cases, JSON arrays of genuineCase.
var (
	//go:embed testdata/genuine-found.json
	genuineFound []byte
	//go:embed testdata/genuine-guard-rails.json
	genuineGuardRails []byte
)

// genuineCases reads cases; a case without a status is found uniquely.
func genuineCases(t *testing.T, b []byte) []genuineCase {
	t.Helper()
	var cases []genuineCase
	if err := json.Unmarshal(b, &cases); err != nil || len(cases) == 0 {
		t.Fatalf("%v, %d cases", err, len(cases))
	}
	for i := range cases {
		if cases[i].Status == "" {
			cases[i].Status = StatusUnique
		}
	}
	return cases
}

// check locates the case's quote and reports what differs from what the
// case wants.
func (c genuineCase) check(t *testing.T, ix *Index) {
	t.Helper()
	r := ix.Locate(Query{Document: c.Document, Quote: c.Quote, Retrieval: c.Retrieval})
	switch {
	case r.Status != c.Status:
		t.Errorf("%s: %q: %s at %q on %v (note %q), want %s", c.Why, c.Quote, r.Status, levelOf(r), r.Pages(), r.Note, c.Status)
	case c.Status == StatusUnique && (levelOf(r) != c.Level || !slices.Equal(r.Pages(), []int{c.Page})):
		t.Errorf("%s: %q: at %q on %v, want %s on page %d", c.Why, c.Quote, levelOf(r), r.Pages(), c.Level, c.Page)
	case c.Status == StatusUnique:
	case c.PageChars == "" && c.QuoteChars == "" && r.Changed != nil:
		t.Errorf("%s: a passage named although none differs only in meaning: %+v", c.Why, r.Changed)
	case c.PageChars == "" && c.QuoteChars == "":
	case r.Changed == nil:
		t.Errorf("%s: no passage named; note %q", c.Why, r.Note)
	case r.Changed.Page != c.PageChars || r.Changed.Quote != c.QuoteChars:
		t.Errorf("%s: Changed says the page has %q and the quote %q, want %q and %q", c.Why, r.Changed.Page, r.Changed.Quote, c.PageChars, c.QuoteChars)
	case !strings.Contains(r.Note, "carries meaning") || strings.Contains(r.Note, "has nothing where the quote has nothing"):
		t.Errorf("%s: the note does not say why: %q", c.Why, r.Note)
	}
}

// TestGenuineQuotes: the punctuation, non_ascii_dropped and
// retrieval_edges levels, the accent after its letter and pypdf's
// artefacts find genuine quotes that differ only as real pipelines change
// them (testdata/genuine-found.json).
func TestGenuineQuotes(t *testing.T) {
	ix := genuineIndex(t)
	for _, c := range genuineCases(t, genuineFound) {
		c.check(t, ix)
	}
}

// TestGenuineGuardRails: no relaxed level finds a quote with a changed
// number, word, sign, comparison, currency or unit; where only a character
// that carries meaning differs, the result says which and where
// (testdata/genuine-guard-rails.json).
func TestGenuineGuardRails(t *testing.T) {
	ix := genuineIndex(t)
	for _, c := range genuineCases(t, genuineGuardRails) {
		c.check(t, ix)
	}
}
