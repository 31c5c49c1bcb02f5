package fidelity

import (
	"slices"
	"strings"
	"testing"
)

func TestWindows(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string // nil: only check invariants
	}{
		{"fewer words than a window gives nothing", "one two three four five", []string{}},
		{"exactly six words is one window", "a b c d e f", []string{"a b c d e f"}},
		{"line breaks are kept inside a window", "a b\nc d e f", []string{"a b\nc d e f"}},
		{"a U+FFFD window is left out", "a b c d e \uFFFD", []string{}},
		{"pdfminer's (cid:N) window is left out", "a b c (cid:18) d e", []string{}},
		{"a control character window is left out: poppler's mark for a glyph it could not map", "a b c \x04 d e", []string{}},
		{"a literal \"(cid:\" without a number is text", "a b c (cid:x) d e", []string{"a b c (cid:x) d e"}},
		{"tabs and form feeds are white space, not undecoded glyphs", "a b\tc d\fe f", []string{"a b\tc d\fe f"}},
	}
	for _, tt := range tests {
		got := Windows(tt.text, "key")
		if got == nil {
			got = []string{}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: Windows(%q) = %q, want %q", tt.name, tt.text, got, tt.want)
		}
	}
}

func TestWindowsDeterministicAndCovering(t *testing.T) {
	text := strings.Repeat("alpha beta gamma delta\n", 40)
	a, b := Windows(text, "doc/1/x"), Windows(text, "doc/1/x")
	if !slices.Equal(a, b) {
		t.Fatal("the same key gave different windows")
	}
	if slices.Equal(a, Windows(text, "doc/2/x")) {
		t.Error("a different key gave the same lengths: the seed does not depend on the key")
	}
	words := 0
	for _, w := range a {
		n := len(strings.Fields(w))
		if n < MinWords || n > MaxWords {
			t.Errorf("window of %d words: %q", n, w)
		}
		words += n
	}
	if words < 160-MaxWords {
		t.Errorf("windows cover %d of 160 words", words)
	}
}

func TestWindowsKeepHyphenatedWords(t *testing.T) {
	text := strings.Repeat("a b hy-\nphen c ", 50)
	for _, w := range Windows(text, "k") {
		if strings.HasSuffix(w, "-") || strings.HasPrefix(w, "phen") {
			t.Errorf("window %q cuts a word hyphenated across lines", w)
		}
	}
	cut := false
	for _, w := range Windows(strings.Repeat("a b well- known c ", 50), "k") {
		cut = cut || strings.HasSuffix(w, "well-")
	}
	if !cut {
		t.Error("a hyphen followed by a space on the same line should be a word end")
	}
}

func TestFound(t *testing.T) {
	page := profile.Normalize("The ﬁrst “quoted” line is hy-\nphenated and ends\nhere.")
	tests := []struct {
		quote string
		want  bool
		why   string
	}{
		{"first \"quoted\" line", true, "ligature and typographic quotes fold"},
		{"is hyphenated and", true, "the page's line-end hyphen joins"},
		{"is hy-\nphenated", true, "a quote with the same break"},
		{"ends here.", true, "line breaks are spaces"},
		{"ends there.", false, "a changed word is not found"},
		{"line is hy- phenated", true, "the quote's hyphen may stand for the page's optional one"},
	}
	for _, tt := range tests {
		if got := Found(page, tt.quote); got != tt.want {
			t.Errorf("Found(%q) = %v, want %v: %s", tt.quote, got, tt.want, tt.why)
		}
	}
}

func TestMeasureLocate(t *testing.T) {
	page1 := "one two three four five six seven eight nine ten eleven twelve"
	page2 := "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu"
	texts := map[string][]string{
		Ours:  {"ignored"},
		"ref": {page1, page2 + " " + page2}, // page 2 repeats itself: only windows across the seam are unique
	}
	var asked []string
	locate := func(q string, page int) Answer {
		if !strings.Contains(page1+" "+page2+" "+page2, q) {
			return Answer{} // a changed window
		}
		asked = append(asked, q)
		if page > 0 {
			asked = asked[:len(asked)-1] // counted once, without its page
		}
		if strings.Contains(q, "one") || strings.Contains(q, "twelve") || strings.Contains(q, "six") {
			return Answer{Pages: []int{1}, Found: true, Level: "exact"}
		}
		if page == 2 {
			return Answer{Pages: []int{2}, Found: true, Level: "exact"} // the page settles what the quote alone could not
		}
		return Answer{} // the locator finds nothing on page 2
	}
	// The other document holds page 1: its windows are no wrong-document
	// control, nor its halves fabrications.
	other := map[string][]string{"ref": {page1, "zulu yankee xray whiskey victor uniform tango sierra romeo quebec papa oscar"}}
	var wrongDoc []string
	r := MeasureLocate(LocateInput{Key: "k", Texts: texts, OtherTexts: other, KeepMisses: true, Locator: Locator{
		In: locate,
		Other: func(q string) Answer {
			wrongDoc = append(wrongDoc, q)
			return Answer{}
		},
	}})
	c := r.Cell(MeasureFound, "ref")
	if c.Total == 0 || c.Total != len(asked) {
		t.Fatalf("total %d, asked %d", c.Total, len(asked))
	}
	onPage1 := 0
	for _, q := range asked {
		if strings.Contains(q, "alpha") && !strings.Contains(q, "mu alpha") {
			t.Errorf("window %q lies in one copy of a repeated page and was counted as unique", q)
		}
		if strings.Contains(q, "one") || strings.Contains(q, "twelve") || strings.Contains(q, "six") {
			onPage1++
		}
	}
	if c.Found != onPage1 || len(r.Misses) != c.Total-onPage1 {
		t.Errorf("found %d, misses %d of %d; want the %d page-1 windows found and the rest missed", c.Found, len(r.Misses), c.Total, onPage1)
	}
	if wp := r.Cell(MeasureWithPage, "ref"); wp.Total != c.Total || wp.Found != c.Total {
		t.Errorf("with the page given: %d of %d found; want every window", wp.Found, wp.Total)
	}
	if _, ok := r.Counts[Row{MeasureFound, Ours}]; ok {
		t.Error("our own text was sampled as a quote source")
	}
	if w := r.Cell(MeasureChangedWord, "ref"); w.Total != c.Total || w.Found != 0 {
		t.Errorf("changed words: %d checked, %d found; want all %d windows changed and none found", w.Total, w.Found, c.Total)
	}
	if d := r.Cell(MeasureChangedDigit, "ref"); d.Total != 0 {
		t.Errorf("changed digits: %d checked in windows without a digit", d.Total)
	}
	if f := r.Cell(MeasureFabricated, "ref"); f.Total == 0 || f.Total > c.Total || f.Found != 0 {
		t.Errorf("fabricated: %d checked, %d found; want windows spliced, none found", f.Total, f.Found)
	}
	wd := r.Cell(MeasureWrongDocument, "ref")
	if len(wrongDoc) != wd.Total || wd.Found != 0 || wd.Total >= c.Total || wd.Total == 0 {
		t.Errorf("wrong document: %d asked, %d counted, %d found; want the windows the other document does not hold asked and counted", len(wrongDoc), wd.Total, wd.Found)
	}
	for _, v := range Variants {
		if vc := r.Cell(VariantMeasure(MeasureFound, v.Name), "ref"); vc.Total != 0 {
			t.Errorf("variant %s measured on %d windows it does not change", v.Name, vc.Total)
		}
	}
}

func TestChanges(t *testing.T) {
	w := "Orders ship within 12 working days"
	for _, key := range []string{"a", "b", "c", "d"} {
		d := ChangeDigit(w, key)
		if d == w || len(d) != len(w) || strings.Count(d, "12") != 0 || d[:19] != w[:19] || d[21:] != w[21:] {
			t.Errorf("ChangeDigit(%q, %q) = %q: want exactly one digit changed", w, key, d)
		}
		if ChangeDigit(w, key) != d {
			t.Error("ChangeDigit is not deterministic")
		}
		c := ChangeWord(w, key, []string{"Orders", "days", "weeks"})
		if c == "" || c == w || len(strings.Fields(c)) != len(strings.Fields(w)) {
			t.Errorf("ChangeWord(%q) = %q: want one word replaced", w, c)
		}
		if !strings.Contains(c, "12") {
			t.Errorf("ChangeWord(%q) = %q changed the number", w, c)
		}
	}
	if ChangeDigit("no digits here at all", "k") != "" {
		t.Error("ChangeDigit changed a window without digits")
	}
	if c := ChangeWord("a /trianglerightsld at", "k", []string{"still"}); c != "" {
		t.Errorf("ChangeWord changed a glyph name pypdf prints: %q", c)
	}
	if ChangeDigit("gives /epsilon1-DP here", "k") != "" {
		t.Error("ChangeDigit changed the digit of a glyph name pypdf prints")
	}
	if ChangeWord("a to of 12 by", "k", []string{"words"}) != "" {
		t.Error("ChangeWord changed a window without a content word")
	}
}

// TestBestPerPage: the ceiling takes, page by page, the text that holds
// most windows of every source, a tool's own windows found in its own text.
func TestBestPerPage(t *testing.T) {
	a := "one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
	b := "eight nine ten eleven twelve thirteen fourteen one two three four five six seven"
	texts := map[string][]string{
		Ours:    {a, "nothing like the others at all on this page of the document here"},
		"toolA": {a, b},
		"toolB": {b, b},
	}
	r := Measure("k", texts, false)
	var windows int
	for p, c := range r.Cells {
		if p.Text == Ours {
			windows += c.Total
		}
	}
	if r.BestPerPage.Total != windows {
		t.Fatalf("ceiling over %d windows, want every source's %d", r.BestPerPage.Total, windows)
	}
	// Page 2: toolA's and toolB's texts are the same, so either holds every
	// window; page 1: ours (= toolA's) holds toolA's windows and some of toolB's.
	ours := r.Overall(Ours)
	if r.BestPerPage.Found <= ours.Found || r.BestPerPage.Found > r.BestPerPage.Total {
		t.Errorf("ceiling %d of %d, ours %d: want above ours and at most all", r.BestPerPage.Found, r.BestPerPage.Total, ours.Found)
	}
	page2 := 0
	for _, src := range []string{"toolA", "toolB"} {
		page2 += len(Windows(b, "k/2/"+src))
	}
	page1 := 0
	for _, src := range []string{"toolA", "toolB"} {
		for _, w := range Windows(texts[src][0], "k/1/"+src) {
			if src == "toolA" || Found(profile.Normalize(a), w) {
				page1++
			}
		}
	}
	alt := 0
	for _, src := range []string{"toolA", "toolB"} {
		for _, w := range Windows(texts[src][0], "k/1/"+src) {
			if src == "toolB" || Found(profile.Normalize(b), w) {
				alt++
			}
		}
	}
	if want := page2 + max(page1, alt); r.BestPerPage.Found != want {
		t.Errorf("ceiling found %d, want %d (page 2: %d, page 1: best of %d and %d)", r.BestPerPage.Found, want, page2, page1, alt)
	}
}
