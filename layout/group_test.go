package layout

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// groupOneHeap is pdfminer's group_textboxes as group was first written:
// every pair in one heap, popped until the heap is empty.
// TestGroupAsOneHeap holds group to it.
func groupOneHeap(boxes []*elem) *elem {
	all := slices.Clone(boxes)
	plane := slices.Clone(boxes)
	type pair struct {
		d    int64
		a, b int32
		skip bool
	}
	less := func(x, y *pair) bool {
		if x.skip != y.skip {
			return !x.skip
		}
		return wideLess(wideKey{x.d, x.a, x.b}, wideKey{y.d, y.a, y.b})
	}
	var h []pair
	up := func(i int) {
		for i > 0 {
			j := (i - 1) / 2
			if !less(&h[i], &h[j]) {
				return
			}
			h[i], h[j] = h[j], h[i]
			i = j
		}
	}
	down := func(i int) {
		for {
			m, l := i, 2*i+1
			for _, c := range []int{l, l + 1} {
				if c < len(h) && less(&h[c], &h[m]) {
					m = c
				}
			}
			if m == i {
				return
			}
			h[i], h[m] = h[m], h[i]
			i = m
		}
	}
	push := func(p pair) { h = append(h, p); up(len(h) - 1) }
	for i := range boxes {
		for j := i + 1; j < len(boxes); j++ {
			push(pair{d: dist(boxes[i], boxes[j]), a: int32(i), b: int32(j)})
		}
	}
	for len(h) > 0 {
		p := h[0]
		h[0] = h[len(h)-1]
		h = h[:len(h)-1]
		down(0)
		a, b := all[p.a], all[p.b]
		if a.done || b.done {
			continue
		}
		if !p.skip {
			x0, y0 := min(a.x0, b.x0), min(a.y0, b.y0)
			x1, y1 := max(a.x1, b.x1), max(a.y1, b.y1)
			if slices.ContainsFunc(plane, func(e *elem) bool { return e != a && e != b && intersects(e, x0, y0, x1, y1) }) {
				p.skip = true
				push(p)
				continue
			}
		}
		g := &elem{x0: min(a.x0, b.x0), y0: min(a.y0, b.y0), x1: max(a.x1, b.x1), y1: max(a.y1, b.y1), kids: [2]*elem{a, b}, id: len(all)}
		all = append(all, g)
		a.done, b.done = true, true
		plane = slices.DeleteFunc(plane, func(e *elem) bool { return e == a || e == b })
		for _, o := range plane {
			push(pair{d: dist(g, o), a: int32(g.id), b: int32(o.id)})
		}
		plane = append(plane, g)
	}
	return plane[0]
}

// shape writes the merge tree of e: its boxes by id, each group's two
// elements in merge order.
func shape(e *elem, out []int) []int {
	if e.lines != nil {
		return append(out, e.id)
	}
	out = append(out, -1)
	return shape(e.kids[1], shape(e.kids[0], out))
}

// TestGroupAsOneHeap: sorted runs of pairs under a heap of runs, stale
// pairs dropped early and a stop at the root, merge exactly as one heap
// of all pairs does.
// The boxes sit on a coarse grid so that distances tie and boxes overlap
// or contain each other (the pairs group defers), as in tables and
// stacked labels; the orders stored by extractor 0.7.0 depend on it.
func TestGroupAsOneHeap(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 2))
	for trial := range 400 {
		n := 1 + r.IntN(60)
		if trial%50 == 0 {
			n = maxGrouped
		}
		grid := int64(1 + r.IntN(40))
		if trial%7 == 0 {
			grid <<= 18 // beyond packed keys: group takes wide ones
		}
		var spec [][4]int64
		for range n {
			x0, y0 := grid*int64(r.IntN(20)), grid*int64(r.IntN(30))
			spec = append(spec, [4]int64{x0, y0, x0 + grid*int64(1+r.IntN(6)), y0 + grid*int64(1+r.IntN(2))})
		}
		build := func() []*elem {
			var bs []*elem
			for i, s := range spec {
				bs = append(bs, &elem{x0: s[0], y0: s[1], x1: s[2], y1: s[3], lines: []*mline{{}}, id: i})
			}
			return bs
		}
		want := shape(groupOneHeap(build()), nil)
		if got := shape(group(build(), new([]uint64), new([]uint64)), nil); !slices.Equal(got, want) {
			t.Fatalf("trial %d (%d boxes): merged as %v, one heap as %v", trial, n, got, want)
		}
		wideRoot, _ := groupBy(build(), wide{}, nil)
		if got := shape(wideRoot, nil); !slices.Equal(got, want) {
			t.Fatalf("trial %d (%d boxes): wide keys merged as %v, one heap as %v", trial, n, got, want)
		}
	}
}

// TestCentiRoundsAsMathRound: centi's integer rounding is math.Round's,
// halves away from zero included, and clamps as it did.
func TestCentiRoundsAsMathRound(t *testing.T) {
	ref := func(v float64) int64 {
		const lim = 1 << 25
		if v != v {
			return 0
		}
		return int64(math.Round(math.Max(-lim, math.Min(lim, v*100))))
	}
	vals := []float64{0, math.Copysign(0, -1), 0.005, -0.005, 0.015, -0.015, 0.004999999999999999, 1.125, -1.125,
		72.345, -72.345, 612.005, 335544.31, -335544.31, 335544.32, 1e300, -1e300,
		math.Inf(1), math.Inf(-1), math.NaN(), math.Nextafter(0.005, 1), math.Nextafter(0.005, 0)}
	r := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		vals = append(vals, (r.Float64()-0.5)*2000, float64(r.IntN(200000)-100000)/200)
	}
	for _, v := range vals {
		if got, want := centi(v), ref(v); got != want {
			t.Fatalf("centi(%v) = %d, math.Round gives %d", v, got, want)
		}
	}
}

// BenchmarkGroup compares group with the one-heap grouping on a table of
// maxGrouped cells (15 columns, 20 rows) of uneven widths: the pages with
// most boxes are tables.
func BenchmarkGroup(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	var spec [][4]int64
	for row := range 20 {
		for col := range 15 {
			x0, y0 := int64(3600+col*3600+r.IntN(300)), int64(5000+row*1400)
			spec = append(spec, [4]int64{x0, y0, x0 + int64(800+r.IntN(2400)), y0 + 1000})
		}
	}
	build := func() []*elem {
		var bs []*elem
		for i, s := range spec {
			bs = append(bs, &elem{x0: s[0], y0: s[1], x1: s[2], y1: s[3], lines: []*mline{{}}, id: i})
		}
		return bs
	}
	for _, f := range []struct {
		name string
		fn   func([]*elem) *elem
	}{{"runs", func(bs []*elem) *elem { return group(bs, new([]uint64), new([]uint64)) }}, {"oneHeap", groupOneHeap}} {
		b.Run(f.name, func(b *testing.B) {
			for b.Loop() {
				f.fn(build())
			}
		})
	}
}

// TestPoolKeyOrdersAsBandThenX0: a word's pk orders words as (band, x0)
// does, at the extremes of the coordinate grid too (centi's ±2^25).
func TestPoolKeyOrdersAsBandThenX0(t *testing.T) {
	const lim = 1 << 25
	vals := []int64{-lim, -lim + 1, -1, 0, 1, lim - 1, lim}
	var gs []glyph
	for _, base := range vals {
		for _, x0 := range vals {
			gs = append(gs, glyph{x0: x0, x1: x0, y0: base, y1: base, base: base, sep: ' ', idx: int32(len(gs))})
		}
	}
	ws := words(gs)
	for _, a := range ws {
		for _, b := range ws {
			want := cmpInt(a.band, b.band)
			if want == 0 {
				want = cmpInt(a.x0, b.x0)
			}
			if got := cmpInt(a.pk, b.pk); got != want {
				t.Fatalf("band %d x0 %d vs band %d x0 %d: pk compares %d, want %d", a.band, a.x0, b.band, b.x0, got, want)
			}
		}
	}
}

// TestRadixSortIsSort: radixSort orders distinct keys as slices.Sort does,
// whichever bytes they share.
func TestRadixSortIsSort(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var tmp []uint64
	for _, n := range []int{1, 2, 511, 512, 5000, 40000} {
		for _, mask := range []uint64{^uint64(0), 0xFFFF, 0xFF00FF0000FF, 1<<54 - 1} {
			seen := map[uint64]bool{}
			var keys []uint64
			for len(keys) < n {
				k := r.Uint64()&mask | 0x0100000000000000
				if !seen[k] {
					seen[k] = true
					keys = append(keys, k)
				}
				if len(seen) == int(mask&0xFFFF)+1 && mask == 0xFFFF {
					break
				}
			}
			want := slices.Sorted(slices.Values(keys))
			tmp = radixSort(keys, tmp)
			if !slices.Equal(keys, want) {
				t.Fatalf("n %d mask %x: radixSort differs from slices.Sort", n, mask)
			}
		}
	}
}
