package fidelity

import (
	"fmt"
	"slices"
	"strings"

	"github.com/citecheck/citecheck/textnorm"
)

// LocateFunc looks a quote up in one document of a corpus, as a citation
// locator does, and returns the 1-based pages of its one location, or nil
// when it found none or several.
type LocateFunc func(quote string) (pages []int)

// LocateMiss is a unique window the locator did not place on its page.
type LocateMiss struct {
	Page   int
	Source string
	Quote  string
	Pages  []int // where the locator put it, nil for nowhere
}

// LocateResult counts, per quote source, the windows unique in that
// source's own text of the document and how many the locator placed on
// their page.
type LocateResult struct {
	Cells  map[string]Cell
	Misses []LocateMiss
}

// Add adds r2's counts into r.
func (r *LocateResult) Add(r2 *LocateResult) {
	if r.Cells == nil {
		r.Cells = map[string]Cell{}
	}
	for s, c := range r2.Cells {
		a := r.Cells[s]
		r.Cells[s] = Cell{a.Found + c.Found, a.Total + c.Total}
	}
	r.Misses = append(r.Misses, r2.Misses...)
}

// MeasureLocate samples the same windows as Measure from every reference
// source (texts without Ours), keeps those that occur exactly once in the
// source's own text of the document (after normalization, so that "the
// right page" is defined), and counts how many locate places on their page.
func MeasureLocate(key string, texts map[string][]string, locate LocateFunc, keepMisses bool) *LocateResult {
	r := &LocateResult{Cells: map[string]Cell{}}
	names := make([]string, 0, len(texts))
	for n := range texts {
		if n != Ours {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, src := range names {
		norm := make([]*textnorm.Text, len(texts[src]))
		for p, t := range texts[src] {
			norm[p] = profile.Normalize(t)
		}
		for p, page := range texts[src] {
			for _, w := range Windows(page, fmt.Sprintf("%s/%d/%s", key, p+1, src)) {
				if !uniqueIn(norm, w) {
					continue
				}
				c := r.Cells[src]
				c.Total++
				pages := locate(w)
				if slices.Contains(pages, p+1) {
					c.Found++
				} else if keepMisses {
					r.Misses = append(r.Misses, LocateMiss{Page: p + 1, Source: src, Quote: w, Pages: pages})
				}
				r.Cells[src] = c
			}
		}
	}
	return r
}

// uniqueIn reports whether the normalized quote occurs exactly once in the
// normalized pages.
func uniqueIn(pages []*textnorm.Text, quote string) bool {
	q := profile.Normalize(quote).String()
	if q == "" {
		return false
	}
	n := 0
	for _, p := range pages {
		n += strings.Count(p.String(), q)
		if n > 1 {
			return false
		}
	}
	return n == 1
}
