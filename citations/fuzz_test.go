package citations

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/testcorpus"
)

// FuzzLocate indexes two pages cut from the input, locates the quote in
// them and checks that nothing panics and that every reported span maps
// back inside its page, on rune boundaries of the stored text; the page
// text is normalized through the same profile, so the normalizer is fuzzed
// with it.
func FuzzLocate(f *testing.F) {
	seeds := [][3]string{
		{"Orders must be delivered within 10 working days.\fof the purchase order date.", "10 working days. of the purchase", "1"},
		{"an ac-\ntual case\ff.pdf Page 1", "ac-tual", "0"},
		{"x 3.5 mm\f3.5 mm y", "3.5 mm", "2"},
		{"A ... B ... C\fD", "A ... C", "1"},
		{"The left column starts here and\nThe right column ends here.\fpage two", "The right column ends here. The left column starts here and", "1"},
		{"\ufb01rst \u201cquote\u201d \u2026\f\u00ad\u200b", "first \"quote\" ...", "3"},
		{"lostinterwordspaces everywhere\fnext", "lost inter word spaces everywhere", ""},
		{"\xff\xfe e\u0301\f- 7 -", "é", "1"},
		{"ctx, err \ufffd\ufffd NewContext(rs, conf) 1\ufffd2\fwor\ufffdd", "ctx, err NewContext(rs, conf) 12", "1"},
		{"f(x, y) \u0338= 0 and \u25b6 x \u2208 U", "f(x; y) 6= 0 and I x 2 U", "1"},
		{"Alabama 18,870 23,022\nAlaska 209 3,062\nNew York 0 4,235\fOhio 4,100 9,800", "18,870\n209\n0", "1"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, text, quote, page string) {
		if len(text) > 4096 || len(quote) > 1024 {
			return
		}
		// A stored page text is valid UTF-8 without form feeds (NewMemory
		// refuses others); the quote may be anything, so the normalizer
		// still meets invalid bytes.
		p1, p2, _ := strings.Cut(strings.ToValidUTF8(text, "\uFFFD"), "\f")
		p2 = strings.ReplaceAll(p2, "\f", " ")
		pages := []corpus.PageText{{Text: p1, Label: "i", Alts: fuzzAlts(p1), Orders: fuzzOrders(p1)}, {Text: p2}}
		ix, err := Build(testcorpus.Memory(t, []corpus.MemoryDocument{{Name: "f.pdf", Pages: pages}, {Name: "g.pdf", Pages: []corpus.PageText{{Text: p2 + " " + p1}}}}), Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		pg := 0
		if page != "" {
			pg = int(page[0]) % 4
		}
		r := ix.Locate(Query{Document: "f.pdf", Quote: quote, Page: pg, PageLabel: page})
		for _, l := range append(append([]Location(nil), r.Locations...), r.Elsewhere...) {
			for _, s := range l.Spans {
				raw, ok := ix.PageText(l.Document, s.Page)
				n := utf8.RuneCountInString(raw)
				if !ok || s.Start < 0 || s.End < s.Start || s.End > n {
					t.Fatalf("span %+v outside %s page %d (%d code points)", s, l.Document, s.Page, n)
				}
			}
		}
		if r.Status == StatusUnique {
			if _, ok := r.Location(); !ok {
				t.Fatalf("unique without a chosen location: %+v", r)
			}
		}
		_ = NewLocateRecord("x", r)
		if g := ix.Ground(Citation{Document: "f.pdf", Quote: quote, Page: pg}, nil); g.Grounding == GroundedUnique {
			l, _ := g.Result.Location()
			for _, s := range l.Spans {
				_ = ix.Covers(l, Passage{Document: l.Document, Page: s.Page, Start: s.Start, End: s.End})
			}
		}
	})
}

// fuzzAlts makes a page's alternative texts as the extractor would: code
// point for code point, the way poppler and pdfminer read some TeX glyphs.
// fuzzOrders reads the page's lines last to first, as a reading order
// (corpus.Order), so that the search in orders is fuzzed too.
func fuzzOrders(text string) []corpus.Order {
	if !utf8.ValidString(text) || strings.ContainsRune(text, '\f') {
		return nil
	}
	rs := []rune(text)
	var lines [][2]int
	start := 0
	for i, r := range rs {
		if r == '\n' {
			lines = append(lines, [2]int{start, i})
			start = i + 1
		}
	}
	lines = append(lines, [2]int{start, len(rs)})
	if len(lines) < 2 {
		return nil
	}
	o := corpus.Order{Name: "layout"}
	var b strings.Builder
	for k := len(lines) - 1; k >= 0; k-- {
		if k < len(lines)-1 {
			b.WriteRune('\n')
			o.Map = append(o.Map, -1)
		}
		for i := lines[k][0]; i < lines[k][1]; i++ {
			b.WriteRune(rs[i])
			o.Map = append(o.Map, int32(i))
		}
	}
	o.Text = b.String()
	if corpus.ValidateOrders([]corpus.Order{o}, text) != nil {
		return nil
	}
	return []corpus.Order{o}
}

func fuzzAlts(text string) []string {
	if !utf8.ValidString(text) || strings.ContainsRune(text, '\f') {
		return nil
	}
	var alts []string
	for _, m := range []map[rune]rune{{'\u0338': '6', '\u25b6': 'I'}, {'\u0338': '6', '\u25b6': 'I', ',': ';', '\u2208': '2'}} {
		alt := strings.Map(func(r rune) rune {
			if a, ok := m[r]; ok {
				return a
			}
			return r
		}, text)
		if alt != text && !slices.Contains(alts, alt) {
			alts = append(alts, alt)
		}
	}
	return alts
}

// FuzzReadLocateRequests feeds the locate request reader untrusted JSON
// Lines: it must never panic, and every refusal must be an *InputError
// naming the file and a line of it.
func FuzzReadLocateRequests(f *testing.F) {
	f.Add(`{"id": "q1", "document": "a.pdf", "quote": "x y", "page": 2, "page_label": "iv"}`)
	f.Add("{\"id\": \"q\", \"quote\": \"\\ud800\", \"QUOTE\": 1}\n{")
	f.Add(`{"arm": "A", "session": 1, "question": "q01", "status": "ok", "response": "x", "citations": [{"id": "c1", "document": "a.pdf", "page": 2, "quote": "y"}]}`)
	f.Fuzz(func(t *testing.T, data string) {
		if len(data) > 1<<16 {
			return
		}
		lines := strings.Count(data, "\n") + 1
		_, err := ReadLocateRequests(strings.NewReader(data), "in.jsonl")
		var ie *InputError
		if err != nil && (!errors.As(err, &ie) || ie.File != "in.jsonl" || ie.Line < 0 || ie.Line > lines) {
			t.Fatalf("refusal without a position in the file: %v", err)
		}
	})
}

// FuzzLocateRequestsApart: reading locate requests gives, request by
// request, what reading each request alone gives (at its own line, after
// as many blank lines); when the whole read fails, its error is the first
// failing request's alone, the requests before it the same.
func FuzzLocateRequestsApart(f *testing.F) {
	lines := []string{
		`{"id": "q1", "document": "a.pdf", "quote": "a quote long enough to be overwritten by the next line", "page": 2, "page_label": "iv"}`,
		`{"id": "q2", "document": "b.pdf", "quote": "short"}`,
		`{"id": "q3", "document": "blake3:00", "quote": "x y", "page_label": "ii"}`,
	}
	f.Add(strings.Join(lines, "\n") + "\n")
	f.Add(lines[0] + "\n\n" + lines[2] + "\n \n" + lines[1])
	f.Add(lines[0] + "\n{\"id\": \"q\", \"quote\": \"\\ud800\", \"QUOTE\": 1}\n" + lines[1])
	f.Fuzz(func(t *testing.T, data string) {
		// Each request alone is read after its line's blank lines: the
		// work grows with the square of the lines.
		if len(data) > 1<<16 || strings.Count(data, "\n") > 256 {
			return
		}
		whole, werr := ReadLocateRequests(strings.NewReader(data), "in.jsonl")
		var alone []LocateRequest
		var aerr error
		for i, line := range strings.SplitAfter(data, "\n") {
			reqs, err := ReadLocateRequests(strings.NewReader(strings.Repeat("\n", i)+line), "in.jsonl")
			alone = append(alone, reqs...)
			if err != nil {
				aerr = err
				break
			}
		}
		if (werr == nil) != (aerr == nil) || werr != nil && werr.Error() != aerr.Error() {
			t.Fatalf("the whole file: %v; its requests alone: %v", werr, aerr)
		}
		if !reflect.DeepEqual(whole, alone) {
			t.Fatalf("the whole file's requests %+v, alone %+v", whole, alone)
		}
	})
}
