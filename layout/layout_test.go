package layout_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/layout"
	"github.com/citecheck/citecheck/pdftext"
)

var update = flag.Bool("update", false, "rewrite golden files")

// checkOrder asserts the contract of an order of a page text: every code
// point maps to the page text's code point it shows, or is an inserted
// separator (white space, -1); every glyph of the page is in it once.
func checkOrder(t testing.TB, text string, boxes []corpus.GlyphBox, o layout.Order) {
	t.Helper()
	rs := []rune(text)
	os := []rune(o.Text)
	require.Len(t, o.Map, len(os), "one map entry per code point")
	seen := map[int32]bool{}
	for i, m := range o.Map {
		if m < 0 {
			require.True(t, unicode.IsSpace(os[i]), "inserted %q at %d is not a separator", os[i], i)
			continue
		}
		require.Less(t, int(m), len(rs), "map entry %d out of the page text", i)
		require.Equal(t, rs[m], os[i], "code point %d maps to %d", i, m)
		require.False(t, seen[m], "page offset %d taken twice", m)
		seen[m] = true
	}
	for _, b := range boxes {
		if b.Start < 0 || b.End > len(rs) || b.Start >= b.End {
			continue
		}
		for k := b.Start; k < b.End; k++ {
			if !unicode.IsSpace(rs[k]) {
				require.True(t, seen[int32(k)], "glyph at %d (%q) missing from %s", k, rs[k], o.Name)
			}
		}
	}
	require.True(t, utf8.ValidString(o.Text))
	require.False(t, strings.HasSuffix(o.Text, "\n") || strings.HasSuffix(o.Text, " "), "no trailing separator")
}

// show draws text at (x, y) in font F1 (Helvetica) or F2 at size.
func show(font string, size, x, y float64, text string) string {
	return fmt.Sprintf("BT /%s %g Tf %g %g Td %s Tj ET\n", font, size, x, y, fixtures.Literal(text))
}

// twoColumnsPage is a page with a title, two columns of running text, a
// table and a footnote, drawn in an order that is none of the reading
// orders: the footnote first, the columns a line of each at a time, the
// table a column at a time.
func twoColumnsPage() []byte {
	b := &fixtures.Builder{}
	fonts := map[string]int{"F1": b.StandardFont("Helvetica", "WinAnsiEncoding"), "F2": b.StandardFont("Times-Roman", "WinAnsiEncoding")}
	var c strings.Builder
	c.WriteString(show("F2", 8, 72, 60, "1 The footnote explains the survey's method."))
	c.WriteString(show("F1", 16, 72, 740, "Survey of Supplier Deliveries"))
	left := []string{"The left column opens the", "report with its first para-", "graph about deliveries that", "arrived late in the spring."}
	right := []string{"The right column goes on", "with the second paragraph", "about the inspections made", "at the receiving dock.1"}
	for i := range left {
		y := 700 - float64(i)*14
		c.WriteString(show("F1", 11, 72, y, left[i]))
		c.WriteString(show("F1", 11, 320, y, right[i]))
	}
	table := [][]string{{"Supplier", "Acme", "Bolt"}, {"Late", "12", "3"}, {"Rejected", "2", "0"}}
	for col, cells := range table {
		for row, cell := range cells {
			c.WriteString(show("F1", 11, 72+float64(col)*120, 580-float64(row)*16, cell))
		}
	}
	return b.Document([]fixtures.Page{{Content: c.String(), Fonts: fonts}})
}

// TestGoldenTwoColumnsTableFootnote pins both orders of a page with two
// columns, a table and a footnote (testdata/two-columns.golden; -update
// rewrites it).
func TestGoldenTwoColumnsTableFootnote(t *testing.T) {
	doc, err := pdftext.Extract(twoColumnsPage(), pdftext.Options{})
	require.NoError(t, err)
	p := doc.Pages[0]
	orders := layout.Orders(p.Text, p.Boxes, 0)
	var got strings.Builder
	fmt.Fprintf(&got, "===== page text\n%s\n", p.Text)
	for _, o := range orders {
		checkOrder(t, p.Text, p.Boxes, o)
		fmt.Fprintf(&got, "===== %s\n%s\n", o.Name, o.Text)
	}
	golden := filepath.Join("testdata", "two-columns.golden")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(golden, []byte(got.String()), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), got.String(), "run go test -update to accept")
	// What the golden file shows, said in words: the orders pdftotext and
	// pdfminer give this page (TestOrdersAsTheToolsRead compares them with
	// the tools themselves where they are installed).
	flow, boxes := orderNamed(orders, layout.Flow), orderNamed(orders, layout.Boxes)
	require.NotNil(t, flow)
	require.NotNil(t, boxes)
	for _, o := range []*layout.Order{flow, boxes} {
		assert.Contains(t, o.Text, "The left column opens the\nreport with its first para-\ngraph about deliveries that\narrived late in the spring.", "%s: the left column reads down", o.Name)
		assert.Contains(t, o.Text, "The right column goes on\nwith the second paragraph", "%s: the right column reads down", o.Name)
		assert.Less(t, strings.Index(o.Text, "Survey of"), strings.Index(o.Text, "The left column"), "%s: the title first", o.Name)
		assert.Less(t, strings.Index(o.Text, "spring."), strings.Index(o.Text, "The right column"), "%s: the left column before the right", o.Name)
		assert.Contains(t, o.Text, "Supplier\nAcme\nBolt\n\nLate\n12\n3", "%s: the table a column at a time, as both tools read it", o.Name)
	}
	// pdftotext reads the footnote where Breuel's rules put it, after the
	// blocks above it on the left; pdfminer's grouping puts it last.
	assert.Less(t, strings.Index(flow.Text, "1 The footnote"), strings.Index(flow.Text, "The right column"), "flow: the footnote before the right column")
	assert.Greater(t, strings.Index(boxes.Text, "1 The footnote"), strings.Index(boxes.Text, "Rejected"), "boxes: the footnote last")
}

func orderNamed(os []layout.Order, name string) *layout.Order {
	for i := range os {
		if os[i].Name == name {
			return &os[i]
		}
	}
	return nil
}

// TestOrdersContract checks every order of the shared corpus's pages
// against the contract (every glyph once, separators only inserted), and
// that the same input gives the same orders.
func TestOrdersContract(t *testing.T) {
	for _, pdf := range [][]byte{twoColumnsPage()} {
		doc, err := pdftext.Extract(pdf, pdftext.Options{})
		require.NoError(t, err)
		for _, p := range doc.Pages {
			a := layout.Orders(p.Text, p.Boxes, 0)
			b := layout.Orders(p.Text, p.Boxes, 0)
			assert.Equal(t, a, b, "deterministic")
			for _, o := range a {
				checkOrder(t, p.Text, p.Boxes, o)
			}
		}
	}
}

// TestOrdersConcurrent: Orders reuses its working arrays from call to
// call; calls at once on different pages, a large page beside small ones,
// each get the orders they get alone (run with -race too).
func TestOrdersConcurrent(t *testing.T) {
	type page struct {
		text  string
		boxes []corpus.GlyphBox
		want  []layout.Order
	}
	var pages []page
	for _, pdf := range toolPages() {
		doc, err := pdftext.Extract(pdf, pdftext.Options{})
		require.NoError(t, err)
		for _, p := range doc.Pages {
			pages = append(pages, page{p.Text, p.Boxes, layout.Orders(p.Text, p.Boxes, 0)})
		}
	}
	require.NotEmpty(t, pages)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				p := pages[(g+i)%len(pages)]
				assert.Equal(t, p.want, layout.Orders(p.text, p.boxes, 0))
			}
		}()
	}
	wg.Wait()
}

// TestDecisionOrderEqualToTextLeftOut: an order that reads the page as its
// text does, white space aside (a blank line between two blocks where the
// text has a line break), is not returned; there is nothing new to search
// in it, and a one-column page stores none.
func TestDecisionOrderEqualToTextLeftOut(t *testing.T) {
	text := "one line of text"
	var boxes []corpus.GlyphBox
	x := 72.0
	for i, r := range text {
		if r != ' ' {
			boxes = append(boxes, corpus.GlyphBox{Start: i, End: i + 1, X0: x, Y0: 698, X1: x + 5, Y1: 708})
		}
		x += 5
	}
	assert.Empty(t, layout.Orders(text, boxes, 0))
	// Two lines far apart: the orders put a blank line between them.
	text = "first\nsecond"
	boxes = []corpus.GlyphBox{
		{Start: 0, End: 5, X0: 72, Y0: 700, X1: 100, Y1: 710},
		{Start: 6, End: 12, X0: 72, Y0: 600, X1: 110, Y1: 610},
	}
	assert.Empty(t, layout.Orders(text, boxes, 0))
}

// TestNoBoxesNoOrders: a page without glyph boxes (imported text) has no
// orders, and neither has input the analysis refuses.
func TestNoBoxesNoOrders(t *testing.T) {
	assert.Empty(t, layout.Orders("text", nil, 0))
	assert.Empty(t, layout.Orders("text", []corpus.GlyphBox{{Start: 3, End: 9}}, 0), "a box outside the text")
}

func TestSameBarWhiteSpace(t *testing.T) {
	cases := []struct {
		a, b string
		same bool
	}{
		{"a b\nc", "a b\n\nc", true},
		{" a\tb ", "a\nb", true},
		{"ab", "a b", false},
		{"a b", "ab", false},
		{"a", "a b", false},
		{"", " \n", true},
		{"ab c", "a bc", false},
	}
	for _, c := range cases {
		assert.Equal(t, c.same, layout.SameBarWhiteSpace(c.a, c.b), "%q %q", c.a, c.b)
	}
}
