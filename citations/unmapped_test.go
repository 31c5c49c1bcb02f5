package citations

import (
	"slices"
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/testcorpus"
)

func TestSkipUnmapped(t *testing.T) {
	tests := []struct {
		in, want string
		why      string
	}{
		{"err \uFFFD\uFFFD nil", "err nil", "a run between words goes, with one of the spaces around it"},
		{"\uFFFD start", "start", "a leading run goes with its space"},
		{"end \uFFFD", "end", "a trailing run goes with its space"},
		{"wor\uFFFDd", "word", "a run inside a word goes: poppler prints the word without it"},
		{"1\uFFFD\uFFFD2", "1\uFFFD\uFFFD2", "a run between two digits stays: 1?2 is not 12"},
		{"1 \uFFFD 2", "1 \uFFFD 2", "spaces do not separate the digits from the run"},
		{"a \uFFFD \uFFFD b", "a b", "two runs apart collapse to one space"},
		{"plain text", "plain text", "a page without unmapped glyphs is unchanged"},
	}
	for _, tc := range tests {
		got, idx := skipUnmapped(tc.in)
		if got != tc.want {
			t.Errorf("%s: skipUnmapped(%q) = %q, want %q", tc.why, tc.in, got, tc.want)
			continue
		}
		rs, gs := []rune(tc.in), []rune(got)
		if len(idx) != len(gs) {
			t.Fatalf("%q: %d offsets for %d code points", tc.in, len(idx), len(gs))
		}
		for k, n := range idx {
			if rs[n] != gs[k] || (k > 0 && n <= idx[k-1]) {
				t.Errorf("%q: code point %d maps to %d (%q), want %q in increasing order", tc.in, k, n, rs[n], gs[k])
			}
		}
	}
}

func TestUnmappedGlyphs(t *testing.T) {
	page := "59 ctx, err \uFFFD\uFFFD NewContext(rs, conf)\n60 if err \uFFFD\uFFFD nil {\n61 return nil, err\n" +
		"62 x := 1\uFFFD2 + total of the lines\n63 \uFFFD\uFFFD count the wor\uFFFDd of a summary line"
	ix, err := Build(testcorpus.Memory(t, []corpus.MemoryDocument{
		{Name: "read.go.pdf", Pages: []corpus.PageText{{Text: "Listing of read.go"}, {Text: page}}},
		{Name: "clean.pdf", Pages: []corpus.PageText{{Text: "ctx, err NewContext(rs, conf) is not on an unmapped page"}}},
	}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		why    string
		quote  string
		status Status
		level  string
	}{
		{"pdftotext drops the unmapped glyphs", "ctx, err NewContext(rs, conf)\n60 if err nil {", StatusUnique, "unmapped_glyphs"},
		{"a quote that kept them is a plain match", "ctx, err \uFFFD\uFFFD NewContext(rs, conf)", StatusUnique, "exact"},
		{"a short quote is not eligible: skipping glyphs lets short strings match by chance", "err nil {", StatusNotFound, ""},
		{"a changed word is still not found", "ctx, err NewContent(rs, conf)\n60 if err nil {", StatusNotFound, ""},
		{"a run between two digits is never skipped", "62 x := 12 + total of the lines", StatusNotFound, ""},
		{"the run between digits matches as written", "62 x := 1\uFFFD2 + total of the lines", StatusUnique, "exact"},
		{"a match starts on a word boundary of the page", "tx, err NewContext(rs, conf)\n60 if", StatusNotFound, ""},
		{"a glyph inside a word may be left out, as poppler does", "count the word of a summary line", StatusUnique, "unmapped_glyphs"},
		{"the clean document's text is found there, not here", "ctx, err NewContext(rs, conf) is not on", StatusNotFoundInDocument, ""},
	}
	for _, tc := range tests {
		r := ix.Locate(Query{Document: "read.go.pdf", Quote: tc.quote})
		level := levelOf(r)
		if r.Status != tc.status || level != tc.level {
			t.Errorf("%s: %q: got %s %q, want %s %q", tc.why, tc.quote, r.Status, level, tc.status, tc.level)
		}
		if level != "" && !slices.Equal(r.Pages(), []int{2}) {
			t.Errorf("%s: pages %v, want [2]", tc.why, r.Pages())
		}
		checkSpans(t, ix, r)
	}
}
