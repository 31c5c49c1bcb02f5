package citations

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/strictjson"
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
		p1, p2, _ := strings.Cut(text, "\f")
		pages := []SourcePage{{Text: p1, Label: "i", Alts: fuzzAlts(p1), Orders: fuzzOrders(p1)}, {Text: p2}}
		ix, err := Build([]Source{{Name: "f.pdf", Pages: pages}, {Name: "g.pdf", Pages: []SourcePage{{Text: p2 + " " + p1}}}}, Options{Workers: 1})
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
				_ = ix.Covers(l, l.Document, s.Page, s.Start, s.End, 0)
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

// FuzzReadRuns feeds the run and quote readers untrusted JSON Lines in every
// native format: they must never panic, and every refusal must be an
// *InputError naming the file and a line of it.
func FuzzReadRuns(f *testing.F) {
	for i, format := range Formats {
		if format == "run" {
			continue
		}
		// The format's own fixture and the published payloads read in it.
		files, _ := filepath.Glob(filepath.Join("testdata", "adapters", format+"-*.jsonl"))
		for _, file := range append(files, filepath.Join("testdata", "adapters", format+".jsonl")) {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(string(data), uint8(i))
		}
	}
	// Shapes of issue 18: both spellings of a Gemini key, a support into a
	// missing chunk, an LM Studio page range, LangChain's XML parser output,
	// markers without citations.
	f.Add(`{"arm": "A", "session": 1, "question": "q", "response": {"candidates": [{"content": {"parts": [{"text": "x"}]}, "grounding_metadata": {"grounding_chunks": [], "grounding_supports": [{"segment": {"end_index": 1}, "grounding_chunk_indices": [2]}]}, "groundingMetadata": null}]}}`, uint8(3))
	f.Add(`{"arm": "A", "session": 1, "question": "q", "response": {"role": "assistant", "content": [{"type": "citationBlock.create", "citedText": "x", "fileName": "a.pdf", "pageNumber": [1, 2]}]}}`, uint8(4))
	f.Add(`{"arm": "A", "session": 1, "question": "q", "response": {"cited_answer": [{"answer": "x"}, {"citations": [{"citation": [{"source_id": "0"}, {"quote": "q"}]}]}]}}`, uint8(5))
	f.Add(`{"arm": "A", "session": 1, "question": "q", "response": {"type": "message", "content": [{"type": "text", "text": "x [1][2] parts[0]"}]}}`, uint8(1))
	f.Add(`{"arm": "A", "session": 1, "question": "q01", "status": "ok", "response": "x", "citations": [{"id": "c1", "document": "a.pdf", "page": 2, "quote": "y"}]}`, uint8(0))
	f.Add(`{"arm": "A", "session": 1, "question": "q01", "status": "ok", "response": "x", "citations": [{"id": "c1", "document": "file-2", "quote": "y"}], "retrieval": [{"text": "y", "score": 0.5}], "documents": {"file-2": ["a.pdf", "b.pdf"], "file-3": "c.pdf", "file-4": []}}`, uint8(0))
	f.Add(`{"id": "q1", "document": "a.pdf", "quote": "x y", "page": 2, "page_label": "iv"}`, uint8(0))
	f.Add("{\"id\": \"q\", \"quote\": \"\\ud800\", \"QUOTE\": 1}\n{", uint8(3))
	f.Fuzz(func(t *testing.T, data string, which uint8) {
		if len(data) > 1<<16 {
			return
		}
		lines := strings.Count(data, "\n") + 1
		check := func(err error) {
			if err == nil {
				return
			}
			var ie *InputError
			if !errors.As(err, &ie) || ie.File != "in.jsonl" || ie.Line < 0 || ie.Line > lines {
				t.Fatalf("refusal without a position in the file: %v", err)
			}
		}
		format := Formats[int(which)%len(Formats)]
		// The run records' tree decoder agrees with encoding/json.
		for _, line := range strings.Split(data, "\n") {
			v, err := parseRunLine([]byte(line))
			if err != nil || v.Kind != strictjson.Object {
				continue
			}
			var got, want RunRecord
			_, err = decodeRunRecord(v, []byte(line), &got)
			jerr := json.Unmarshal([]byte(line), &want)
			if (err == nil) != (jerr == nil) || err == nil && !reflect.DeepEqual(got, want) {
				t.Fatalf("%q: tree decoder %v %+v; encoding/json %v %+v", line, err, got, jerr, want)
			}
		}
		_, err := ReadRuns(strings.NewReader(data), "in.jsonl", format)
		check(err)
		_, err = ReadLocateRequests(strings.NewReader(data), "in.jsonl")
		check(err)
	})
}
