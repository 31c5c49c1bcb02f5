package citations

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/textnorm"
)

// A page's reading orders (corpus.Order, package layout) are its glyphs
// read as pdftotext and pdfminer read a page, by its layout: a quote copied
// from such an extractor's text is often found contiguously only there.
// Each order of each page is normalized like a page text and indexed on its
// own (no excerpts across page breaks: the page text serves those); the
// index keeps the orders' normalized texts and suffix arrays, their raw
// texts and their maps as runs, not their normalization maps, which a hit
// re-computes for its page. A match is reported in page-text offsets: the
// order's code points map to the page text, and pieces of it that the page
// text has apart (an order joins lines the content stream draws apart)
// are several spans of one location.

// orderPage is one order of one page.
type orderPage struct {
	page int32 // index in Index.pages
	name string
	raw  string
	runs []orderRun
	fb   int32 // byte offset of its normalized text in its shard's data
}

// orderRun maps order code points [at, at+n) to page-text code points
// [from, from+n); from is -1 for separators the order inserted. It is the
// index file's record of a run.
type orderRun struct{ at, from, n int32 }

// orderShard is a group of orders with their suffix array.
type orderShard struct {
	data  []byte
	sa    suffixes
	pages []int // indexes into orderIndex.pages, by fb
	// sk holds the orders' skeletons (skeleton.go).
	sk skelIndex
}

type orderIndex struct {
	pages  []orderPage
	shards []orderShard
	// byDoc gives each document's byte range in its shard, for a scan of
	// the named document when a pattern is too frequent for the index.
	byDoc map[int]orderRegion
}

type orderRegion struct{ shard, from, to int }

func runsOf(m []int32) []orderRun {
	var runs []orderRun
	for i, v := range m {
		if k := len(runs) - 1; k >= 0 {
			r := &runs[k]
			if (v < 0 && r.from < 0) || (v >= 0 && r.from >= 0 && v == r.from+r.n) {
				r.n++
				continue
			}
		}
		from := v
		if from < 0 {
			from = -1
		}
		runs = append(runs, orderRun{int32(i), from, 1})
	}
	return runs
}

// primary maps order code point k to its page-text offset, or -1.
func (op *orderPage) primary(k int) int {
	i := sort.Search(len(op.runs), func(i int) bool { return op.runs[i].at > int32(k) }) - 1
	if i < 0 {
		return -1
	}
	r := op.runs[i]
	if r.from < 0 || int32(k) >= r.at+r.n {
		return -1
	}
	return int(r.from + int32(k) - r.at)
}

// orderReader says whose reading an order follows.
func orderReader(name string) string {
	switch name {
	case "layout":
		return "as pdftotext reads a page"
	case "boxes":
		return "as pdfminer reads a page"
	}
	return "another extractor's"
}

func checkOrders(name string, page int, orders []corpus.Order, text string) error {
	if err := corpus.ValidateOrders(orders, text); err != nil {
		return fmt.Errorf("citations: %s page %d: reading orders: %w", name, page, err)
	}
	return nil
}

// findOrders looks the quote's spellings vs up in the pages' orders at
// the normalized levels, as findText does in their texts, and reports each
// match in page-text offsets. Several orders finding the quote at one
// place of the page text count once.
func (ix *Index) findOrders(qt *textnorm.Text, vs []string, doc int, partial bool, sc scope) (locs []loc, frequent bool) {
	oi := ix.orders
	if oi == nil {
		return nil, false
	}
	type try struct{ op, at int }
	var tried smallSet[try]
	var found smallSet[string]
	texts := map[int]*textnorm.Text{}
	for _, v := range vs {
		pat := bytesOf(v)
		for s := sc.orderFrom; s < sc.orderTo; s++ {
			sh := &oi.shards[s]
			hits := sh.sa.Lookup(pat, maxHits+1)
			if len(hits) > maxHits {
				frequent = true
				if r, ok := oi.byDoc[doc]; ok && r.shard == s {
					ix.blocks.bytes(sh.data[r.from:r.to])
					hits = append(hits, scanAll(sh.data[r.from:r.to], pat, r.from)...)
				}
			}
			sort.Ints(hits)
			for _, h := range hits {
				i := sort.Search(len(sh.pages), func(i int) bool { return int(oi.pages[sh.pages[i]].fb) > h }) - 1
				if i < 0 {
					continue
				}
				k := sh.pages[i]
				op := &oi.pages[k]
				tn := texts[k]
				if tn == nil {
					ix.blocks.string(op.raw)
					tn = ix.profile.Normalize(op.raw)
					texts[k] = tn
				}
				b := h - int(op.fb)
				if b >= len(tn.String()) {
					continue
				}
				at := tn.CodePoint(b)
				if !tried.add(try{k, at}) {
					continue
				}
				l, ok := ix.verifyOrder(qt, op, tn, at, partial)
				if !ok || !found.add(partsKey(l.parts)) {
					continue
				}
				locs = append(locs, l)
			}
		}
	}
	ix.sortLocs(locs)
	return locs, frequent
}

func partsKey(ps []part) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "%d:%d-%d;", p.page, p.from, p.to)
	}
	return b.String()
}

// verifyOrder matches the whole quote from position at of an order's
// normalized text, with the word-boundary rule of the page text, and
// returns the match as parts of the page text.
func (ix *Index) verifyOrder(qt *textnorm.Text, op *orderPage, tn *textnorm.Text, at int, partial bool) (loc, bool) {
	a := textnorm.Align(tn, at, qt, 0, qt.Len())
	if a.QuoteEnd != qt.Len() || a.End <= at {
		return loc{}, false
	}
	lvl, ok := edgeLevel(onText(tn, at, a.End), qt, Level(a.Level), partial)
	if !ok {
		return loc{}, false
	}
	return ix.orderLoc(op, tn, at, a.End, lvl)
}

// orderLoc reports the order's normalized range [from, to) as a location
// on the page text, one part per piece the page text has apart.
func (ix *Index) orderLoc(op *orderPage, tn *textnorm.Text, from, to int, lvl Level) (loc, bool) {
	pe := &ix.pages[op.page]
	ra, rb := tn.RawSpan(from, to)
	// Runs of consecutive page-text code points, separators left out.
	type piece struct{ from, to int }
	var ps []piece
	for k := ra; k < rb; k++ {
		m := op.primary(k)
		if m < 0 {
			continue
		}
		if n := len(ps); n > 0 && ps[n-1].to == m {
			ps[n-1].to++
			continue
		}
		ps = append(ps, piece{m, m + 1})
	}
	if len(ps) == 0 {
		return loc{}, false
	}
	slices.SortFunc(ps, func(x, y piece) int { return x.from - y.from })
	// Pieces the page text has apart only by white space are one.
	ptext := ix.text(int(op.page))
	raw := ptext.Raw()
	merged := ps[:1]
	for _, p := range ps[1:] {
		last := &merged[len(merged)-1]
		if p.from >= last.to && strings.TrimFunc(runeSlice(raw, last.to, p.from), unicode.IsSpace) == "" {
			last.to = max(last.to, p.to)
			continue
		}
		merged = append(merged, p)
	}
	l := loc{doc: pe.doc, level: lvl, order: op.name}
	for _, p := range merged {
		from, to := normAtRaw(ptext, p.from), normAtRaw(ptext, p.to)
		if to <= from {
			continue
		}
		l.parts = append(l.parts, part{page: int(op.page), from: from, to: to})
	}
	if len(l.parts) == 0 {
		return loc{}, false
	}
	return l, true
}
