package layout_test

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/layout"
)

// FuzzOrders runs the analysis on boxes in any order, overlapping,
// degenerate, out of range or of any size, over any text and rotation: it
// must not fail, loop or break the contract (checkOrder).
func FuzzOrders(f *testing.F) {
	f.Add("The left column\nThe right column", []byte{0, 3, 72, 100, 0, 10, 4, 6, 72, 90, 0, 10}, 0)
	f.Add("a b\nc", []byte{0, 1, 10, 10, 5, 5, 2, 3, 10, 10, 5, 5, 4, 5, 10, 10, 5, 5}, 90)
	f.Add("x", []byte{0, 1, 0, 0, 0, 0}, 270)
	f.Add("検知機\n構", []byte{0, 1, 10, 10, 10, 10, 1, 2, 10, 20, 10, 10, 4, 5, 30, 10, 10, 10}, 180)
	f.Fuzz(func(t *testing.T, text string, data []byte, rotate int) {
		// Six bytes a box: start, end (code points), x, y, width, height,
		// the coordinates on a coarse grid so that boxes collide.
		var boxes []corpus.GlyphBox
		for len(data) >= 6 {
			b := corpus.GlyphBox{
				Start: int(data[0]), End: int(data[1]),
				X0: float64(int8(data[2])) * 3, Y0: float64(int8(data[3])) * 3,
			}
			b.X1, b.Y1 = b.X0+float64(data[4]%32), b.Y0+float64(data[5]%32)
			if data[5] == 255 {
				b.Y1 = math.Inf(1)
			}
			boxes = append(boxes, b)
			data = data[6:]
		}
		if len(data) >= 2 {
			// A huge coordinate.
			boxes = append(boxes, corpus.GlyphBox{Start: 0, End: 1, X0: float64(binary.BigEndian.Uint16(data)) * 1e9, X1: 1e12, Y1: -1e12})
		}
		for _, o := range layout.Orders(text, boxes, rotate) {
			checkOrderLoose(t, text, o)
		}
	})
}

// checkOrderLoose is checkOrder without the every-glyph check, which needs
// boxes that fit the text.
func checkOrderLoose(t *testing.T, text string, o layout.Order) {
	rs := []rune(text)
	os := []rune(o.Text)
	if len(o.Map) != len(os) {
		t.Fatalf("%d map entries for %d code points", len(o.Map), len(os))
	}
	seen := map[int32]bool{}
	for i, m := range o.Map {
		if m < 0 {
			if os[i] != ' ' && os[i] != '\n' {
				t.Fatalf("inserted %q", os[i])
			}
			continue
		}
		if int(m) >= len(rs) || rs[m] != os[i] || seen[m] {
			t.Fatalf("map entry %d = %d wrong", i, m)
		}
		seen[m] = true
	}
}
