package textnorm

import "testing"

func TestFooterRepair(t *testing.T) {
	p := QuoteV2(Options{FooterNames: []string{"report.pdf", "a report.pdf", "Report.pdf", "", "x\u00a0y.pdf"}})
	cases := []struct {
		name, raw, want, why string
	}{
		{"before", "last line.report.pdf Page 3", "last line. report.pdf Page 3", "text glued before the name"},
		{"after", "report.pdf Page 3First line", "report.pdf Page 3 First line", "text glued after the number"},
		{"both", "end.report.pdf Page 12Start", "end. report.pdf Page 12 Start", "both sides alike"},
		{"letters-both", "wordreport.pdf Page 4word", "word report.pdf Page 4 word", "'wordreport.pdf' is no corpus name, 'report.pdf' is"},
		{"separated", "end. report.pdf Page 3 Start", "end. report.pdf Page 3 Start", "nothing glued: unchanged"},
		{"newline-separators", "end.report.pdf\nPage\n3\nStart", "end. report.pdf Page 3 Start", "separators are whitespace runs"},
		{"digits-greedy", "report.pdf Page 34 items", "report.pdf Page 34 items", "all digits belong to the number: never split"},
		{"longest-name", "xa report.pdf Page 1y", "x a report.pdf Page 1 y", "'a report.pdf' is longer than 'report.pdf'"},
		{"case-sensitive-name", "x.REPORT.pdf Page 1y", "x.REPORT.pdf Page 1y", "file names are case-sensitive"},
		{"other-case-name", "x.Report.pdf Page 1y", "x. Report.pdf Page 1 y", "Report.pdf is a different corpus name"},
		{"page-case", "x.report.pdf page 1y", "x.report.pdf page 1y", "'Page' is case-sensitive"},
		{"no-number", "x.report.pdf Page y", "x.report.pdf Page y", "a number is required"},
		{"not-a-name", "x.other.pdf Page 1y", "x.other.pdf Page 1y", "only corpus names"},
		{"name-normalized", "x.x y.pdf Page 2z", "x. x y.pdf Page 2 z", "names are normalized like the text (NBSP)"},
		{"two-footers", "a.report.pdf Page 1report.pdf Page 2b", "a. report.pdf Page 1 report.pdf Page 2 b", "adjacent footers share one inserted space"},
		{"punctuation", "(report.pdf Page 1)", "( report.pdf Page 1 )", "any non-space neighbour, punctuation too (symmetric, so harmless)"},
		{"at-edges", "report.pdf Page 1", "report.pdf Page 1", "nothing glued at the text edges"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := p.Normalize(c.raw)
			if x.String() != c.want {
				t.Fatalf("%q -> %q, want %q (%s)", c.raw, x.String(), c.want, c.why)
			}
			checkInvariants(t, p, c.raw, x)
		})
	}
	off := QuoteV2(Options{FooterNames: []string{"report.pdf"}, NoFooterRepair: true})
	if got := off.Normalize("end.report.pdf Page 3Start").String(); got != "end.report.pdf Page 3Start" {
		t.Fatalf("NoFooterRepair still repaired: %q", got)
	}
}

// TestFooterSymmetric: the same glued footer in a quote and in the page
// matches exactly; a quote copied from a cleaner extractor matches at
// whitespace level.
func TestFooterSymmetric(t *testing.T) {
	p := QuoteV2(Options{FooterNames: []string{"report.pdf"}})
	page := "the limit is 5 kg.report.pdf Page 3The next page"
	for _, c := range []struct {
		quote string
		level Level
	}{
		{"5 kg.report.pdf Page 3The next", Exact},
		{"5 kg. report.pdf Page 3 The next", Whitespace},
		{"5 kg.\nreport.pdf Page 3\nThe next", Whitespace},
	} {
		_, _, l, ok := locate(p, page, c.quote)
		if !ok || l != c.level {
			t.Errorf("quote %q: found %v level %v, want %v", c.quote, ok, l, c.level)
		}
	}
}

func TestDecisionFooterAnyCorpusName(t *testing.T) {
	// A page of report.pdf showing another corpus file's footer is repaired
	// too: the quote's document is unknown when it is normalized.
	p := QuoteV2(Options{FooterNames: []string{"report.pdf", "annex.pdf"}})
	if got := p.Normalize("x.annex.pdf Page 2y").String(); got != "x. annex.pdf Page 2 y" {
		t.Fatalf("got %q", got)
	}
	// A footer cut by the quote's edge is not repaired.
	if got := p.Normalize("Page 2The next").String(); got != "Page 2The next" {
		t.Fatalf("partial footer repaired: %q", got)
	}
}

func TestDecisionFooterInsideLigature(t *testing.T) {
	// The name "ile.pdf" starts inside the ligature ﬁ. The space is inserted
	// all the same (else the output would not be idempotent) and maps to the
	// ligature's raw code point.
	p := QuoteV2(Options{FooterNames: []string{"ile.pdf"}})
	x := p.Normalize("\ufb01le.pdf Page 1")
	if x.String() != "f ile.pdf Page 1" {
		t.Fatalf("got %q", x.String())
	}
	if a, b := x.RawSpan(1, 2); a != 0 || b != 1 {
		t.Fatalf("space maps to [%d,%d), want the ligature [0,1)", a, b)
	}
	checkInvariants(t, p, "\ufb01le.pdf Page 1", x)
}
