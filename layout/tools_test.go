package layout_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/internal/fidelity"
	"github.com/citecheck/citecheck/layout"
	"github.com/citecheck/citecheck/pdftext"
	"github.com/citecheck/citecheck/textnorm"
)

// toolPages are synthetic pages whose reading order pdftotext and pdfminer
// decide differently from the content stream's.
func toolPages() map[string][]byte {
	pages := map[string][]byte{"two-columns": twoColumnsPage()}
	// Three columns drawn right to left, a line of each at a time.
	{
		b := &fixtures.Builder{}
		fonts := map[string]int{"F1": b.StandardFont("Helvetica", "WinAnsiEncoding")}
		var c strings.Builder
		cols := [][]string{
			{"Alpha one two", "three four five", "six seven eight"},
			{"Beta nine ten", "eleven twelve", "thirteen fourteen"},
			{"Gamma fifteen", "sixteen seventeen", "eighteen nineteen"},
		}
		for line := range 3 {
			for col := 2; col >= 0; col-- {
				c.WriteString(show("F1", 10, 72+float64(col)*170, 700-float64(line)*13, cols[col][line]))
			}
		}
		pages["three-columns"] = b.Document([]fixtures.Page{{Content: c.String(), Fonts: fonts}})
	}
	// A page number and a running head drawn last, a heading set larger.
	{
		b := &fixtures.Builder{}
		fonts := map[string]int{"F1": b.StandardFont("Helvetica", "WinAnsiEncoding")}
		var c strings.Builder
		c.WriteString(show("F1", 18, 72, 700, "Chapter Two"))
		for i, l := range []string{"The chapter begins with a sentence that", "runs over two lines of the page."} {
			c.WriteString(show("F1", 11, 72, 670-float64(i)*14, l))
		}
		c.WriteString(show("F1", 9, 300, 40, "17"))
		c.WriteString(show("F1", 9, 72, 760, "A Book of Examples"))
		pages["furniture-last"] = b.Document([]fixtures.Page{{Content: c.String(), Fonts: fonts}})
	}
	return pages
}

// TestOrdersAsTheToolsRead compares the orders with the tools they follow,
// where they are installed (make reftools): on each synthetic page, the
// flow order reads as pdftotext and the boxes order as pdfminer, after the
// quote profile's normalization (which joins pdftotext's dehyphenated
// words as it joins ours).
func TestOrdersAsTheToolsRead(t *testing.T) {
	prof := textnorm.QuoteV2(textnorm.Options{})
	dir := t.TempDir()
	for name, pdf := range toolPages() {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name+".pdf")
			require.NoError(t, os.WriteFile(path, pdf, 0o644))
			doc, err := pdftext.Extract(pdf, pdftext.Options{})
			require.NoError(t, err)
			p := doc.Pages[0]
			orders := layout.Orders(p.Text, p.Boxes, 0)
			ours := func(n string) string {
				if o := orderNamed(orders, n); o != nil {
					return o.Text
				}
				return p.Text
			}
			for _, c := range []struct{ tool, order string }{{"pdftotext", layout.Flow}, {"pdfminer", layout.Boxes}} {
				tool, err := fidelity.Find(c.tool)
				if err != nil {
					t.Skipf("the reference extractor %s is not installed (make reftools): %v", c.tool, err)
				}
				theirs, err := tool.Pages(context.Background(), path)
				require.NoError(t, err)
				require.Len(t, theirs, 1)
				assert.Equal(t, prof.Normalize(theirs[0]).String(), prof.Normalize(ours(c.order)).String(), "%s order vs %s", c.order, c.tool)
			}
		})
	}
}
