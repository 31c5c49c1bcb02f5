package fidelity

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/citecheck/citecheck/textnorm"
)

// Ours names citecheck's own text in matrices.
const Ours = "citecheck"

// Pair is one cell of the matrix: windows of Quote's text looked up in
// Text's text of the same page.
type Pair struct{ Text, Quote string }

// Cell counts windows found and sampled.
type Cell struct{ Found, Total int }

// Rate is Found/Total in percent, 0 for an empty cell.
func (c Cell) Rate() float64 {
	if c.Total == 0 {
		return 0
	}
	return 100 * float64(c.Found) / float64(c.Total)
}

// Plus is the two cells' counts added up.
func (c Cell) Plus(o Cell) Cell { return Cell{c.Found + o.Found, c.Total + o.Total} }

// A Miss is a window of a reference tool not found in our text.
type Miss struct {
	Page   int // 1-based
	Source string
	Quote  string
}

// Result holds the cells of one document or of many added together.
type Result struct {
	Cells  map[Pair]Cell
	Misses []Miss // windows missing from Ours, when asked for
	// BestPerPage is a ceiling: the windows of every source found in the
	// one text of each page (ours or a reference tool's) that holds most of
	// them, a tool's own windows counted as found in its own text: what
	// choosing among the texts page by page could reach.
	BestPerPage Cell
}

// Add adds r2's counts into r.
func (r *Result) Add(r2 *Result) {
	if r.Cells == nil {
		r.Cells = map[Pair]Cell{}
	}
	for p, c := range r2.Cells {
		r.Cells[p] = r.Cells[p].Plus(c)
	}
	r.Misses = append(r.Misses, r2.Misses...)
	r.BestPerPage = r.BestPerPage.Plus(r2.BestPerPage)
}

var profile = textnorm.QuoteV2(textnorm.Options{})

// Found reports whether quote occurs in page after quote/v2 normalization
// of both, trying the quote's line-end hyphenation variants.
func Found(page *textnorm.Text, quote string) bool {
	q := profile.Normalize(quote)
	if q.Len() == 0 {
		return true
	}
	vs, _ := q.Variants(8)
	for _, v := range vs {
		if strings.Contains(page.String(), v) {
			return true
		}
	}
	return false
}

// Measure samples windows from every source's page texts (texts maps a
// source name to its pages, Ours included) and looks each up in every other
// text of the same page. key identifies the document in the seed (its
// hash). Sources missing from texts are simply absent from the result.
func Measure(key string, texts map[string][]string, keepMisses bool) *Result {
	r := &Result{Cells: map[Pair]Cell{}}
	names := make([]string, 0, len(texts))
	for n := range texts {
		names = append(names, n)
	}
	slices.Sort(names)
	pages := 0
	for _, n := range names {
		pages = max(pages, len(texts[n]))
	}
	for p := range pages {
		norm := map[string]*textnorm.Text{}
		for _, n := range names {
			if p < len(texts[n]) {
				norm[n] = profile.Normalize(texts[n][p])
			}
		}
		foundIn := map[string]int{} // windows of the page found in each text
		windows := 0
		for _, src := range names {
			if src == Ours || p >= len(texts[src]) {
				continue
			}
			for _, w := range Windows(texts[src][p], fmt.Sprintf("%s/%d/%s", key, p+1, src)) {
				windows++
				foundIn[src]++
				for _, tgt := range names {
					if tgt == src {
						continue
					}
					c := r.Cells[Pair{tgt, src}]
					c.Total++
					page, ok := norm[tgt]
					if ok && Found(page, w) {
						c.Found++
						foundIn[tgt]++
					} else if tgt == Ours && keepMisses {
						r.Misses = append(r.Misses, Miss{Page: p + 1, Source: src, Quote: w})
					}
					r.Cells[Pair{tgt, src}] = c
				}
			}
		}
		best := 0
		for _, n := range names {
			best = max(best, foundIn[n])
		}
		r.BestPerPage.Found += best
		r.BestPerPage.Total += windows
	}
	return r
}

// Overall is the share of all reference windows found in target's text.
func (r *Result) Overall(target string) Cell {
	var sum Cell
	for p, c := range r.Cells {
		if p.Text == target {
			sum = sum.Plus(c)
		}
	}
	return sum
}

// WriteMatrix prints the matrix: one row per text source (Ours first), one
// column per quote source, and an "others" column: the rate over every
// quote source but the row's own.
func (r *Result) WriteMatrix(w io.Writer, sources []string) {
	rows := append([]string{Ours}, sources...)
	fmt.Fprintf(w, "%-12s", "text \\ quote")
	for _, q := range sources {
		fmt.Fprintf(w, " %16s", q)
	}
	fmt.Fprintf(w, " %16s\n", "all quotes")
	for _, t := range rows {
		fmt.Fprintf(w, "%-12s", t)
		for _, q := range sources {
			if q == t {
				fmt.Fprintf(w, " %16s", "-")
				continue
			}
			c := r.Cells[Pair{t, q}]
			fmt.Fprintf(w, " %6.2f%% %8s", c.Rate(), fmt.Sprintf("/%d", c.Total))
		}
		o := r.Overall(t)
		fmt.Fprintf(w, " %6.2f%% %8s\n", o.Rate(), fmt.Sprintf("/%d", o.Total))
	}
}
