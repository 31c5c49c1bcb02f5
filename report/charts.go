package report

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/metrics"
	"github.com/citecheck/citecheck/spans"
)

// histView is one side's bootstrap histogram, drawn as SVG.
type histView struct {
	W, H, X0, X1, Base, Top, Zero, Mean, CIHi string
	CI                                        rectView
	Bars                                      []rectView
	Ticks                                     []tickView
	Label, Caption                            string
}

type rectView struct{ X, Y, W, H, Class, Title string }

type tickView struct{ X, Y, Anchor, Label string }

// pageView is a cited page: drawn from its glyph boxes (SVG) or shown as
// its stored text with the spans marked; Message says why it is not drawn,
// or not shown at all.
type pageView struct {
	Doc               string
	Page              int
	Located           bool
	Declared          string
	SVG               *svgView
	Text              []segView
	Message, MsgClass string
}

type svgView struct {
	W, H, Label, Def string
	Rects            []rectView
}

type segView struct{ Text, Class, Title string }

type defView struct {
	ID    string
	Lines []lineView
}

type lineView struct{ X, Y, Size, Len, Text string }

// num formats a coordinate or measure with at most two decimals.
func num(v float64) string {
	v = math.Round(v*100) / 100
	if v == 0 {
		v = 0 // no "-0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// histogram draws the bootstrap replicates of one side: the bins, the 95%
// interval shaded and bounded, zero dashed and the mean difference in red.
func histogram(name string, c *metrics.Comparison, s metrics.Side) histView {
	const w, h, left, right, top, bottom = 440.0, 170.0, 12.0, 12.0, 10.0, 26.0
	ci0, ci1, md := float64(s.Interval[0]), float64(s.Interval[1]), float64(s.MeanDiff)
	lo, hi := math.Min(0, math.Min(ci0, md)), math.Max(0, math.Max(ci1, md))
	maxCount := 0
	for _, b := range s.Histogram {
		lo, hi = math.Min(lo, float64(b.From)), math.Max(hi, float64(b.To))
		maxCount = max(maxCount, b.Count)
	}
	if !(hi > lo) || math.IsInf(hi-lo, 0) || math.IsNaN(hi-lo) {
		lo, hi = -0.5, 0.5
	}
	pad := (hi - lo) * 0.04 // bins at the ends stay visible
	lo, hi = lo-pad, hi+pad
	x := func(v float64) float64 {
		if math.IsNaN(v) {
			v = 0
		}
		return left + (math.Max(lo, math.Min(hi, v))-lo)/(hi-lo)*(w-left-right)
	}
	base := h - bottom
	v := histView{W: num(w), H: num(h), X0: num(left), X1: num(w - right), Base: num(base), Top: num(top),
		Zero: num(x(0)), Mean: num(x(md)), CIHi: num(x(ci1))}
	v.CI = rectView{X: num(x(ci0)), Y: num(top), W: num(x(ci1) - x(ci0)), H: num(base - top)}
	for _, b := range s.Histogram {
		bh := 0.0
		if maxCount > 0 {
			bh = float64(b.Count) / float64(maxCount) * (base - top)
		}
		x0, x1 := x(float64(b.From)), x(float64(b.To))
		if x1-x0 < 2.5 { // a bin of one value
			x0, x1 = (x0+x1)/2-1.25, (x0+x1)/2+1.25
		}
		v.Bars = append(v.Bars, rectView{X: num(x0), Y: num(base - bh), W: num(x1 - x0 - 0.5), H: num(bh),
			Title: fmt.Sprintf("[%+.4f, %+.4f): %d replicates", b.From, b.To, b.Count)})
	}
	ty := num(h - 10)
	v.Ticks = []tickView{{X: num(left), Y: ty, Anchor: "start", Label: fmt.Sprintf("%+.3f", lo)},
		{X: num(w - right), Y: ty, Anchor: "end", Label: fmt.Sprintf("%+.3f", hi)}}
	if z := x(0); z-left > 40 && w-right-z > 40 {
		v.Ticks = append(v.Ticks, tickView{X: num(z), Y: ty, Anchor: "middle", Label: "0"})
	}
	v.Label = fmt.Sprintf("%s: histogram of %d bootstrap replicates of the mean difference %s - %s", name, c.Replicates, c.Arms[0], c.Arms[1])
	v.Caption = fmt.Sprintf("%s (unresolved as %s): bootstrap replicates of the mean difference; 95%% interval [%+.4f, %+.4f] shaded, mean difference %+.4f in red, zero dashed.",
		name, map[string]string{"LB": "fail", "UB": "pass"}[name], s.Interval[0], s.Interval[1], s.MeanDiff)
	return v
}

// loadedPage is a page read once from the PageSource.
type loadedPage struct {
	text    []rune
	hasText bool
	boxes   []corpus.GlyphBox
	err     error
	def     string // "#page-def-N" when drawn from boxes
	minX    float64
	maxY    float64
	w, h    float64
	dropped int // glyph boxes that did not fit the text, ignored
}

const pagePad = 14.0

// setBoxes keeps the boxes that fit the text, in order, and computes the
// page's extent.
func (lp *loadedPage) setBoxes(boxes []corpus.GlyphBox) {
	n := len(lp.text)
	end := 0
	for _, b := range boxes {
		finite := !math.IsNaN(b.X0+b.Y0+b.X1+b.Y1) && !math.IsInf(b.X0+b.Y0+b.X1+b.Y1, 0)
		if b.Start < end || b.End <= b.Start || b.End > n || !finite || b.X1 < b.X0 || b.Y1 < b.Y0 {
			lp.dropped++
			continue
		}
		lp.boxes = append(lp.boxes, b)
		end = b.End
	}
	if len(lp.boxes) == 0 {
		return
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, b := range lp.boxes {
		minX, minY = math.Min(minX, b.X0), math.Min(minY, b.Y0)
		maxX, maxY = math.Max(maxX, b.X1), math.Max(maxY, b.Y1)
	}
	lp.minX, lp.maxY = minX-pagePad, maxY+pagePad
	lp.w, lp.h = maxX-minX+2*pagePad, maxY-minY+2*pagePad
}

// x and y map PDF points (y up) to the page's SVG coordinates (y down).
func (lp *loadedPage) x(v float64) float64 { return v - lp.minX }
func (lp *loadedPage) y(v float64) float64 { return lp.maxY - v }

// sameLine reports whether glyph b continues a's run: the same baseline,
// to the right, without a column-sized gap.
func sameLine(a, b corpus.GlyphBox) bool {
	h := math.Max(math.Max(a.Y1-a.Y0, b.Y1-b.Y0), 0.5)
	return math.Abs(a.Y0-b.Y0) <= 0.25*h && b.X0 >= a.X0 && b.X0-a.X1 <= 3*h
}

// lines renders the page's glyphs as text runs, one per stretch of a line,
// each fitted to its boxes' width.
func (lp *loadedPage) lines() []lineView {
	var out []lineView
	bs := lp.boxes
	for i := 0; i < len(bs); {
		j := i + 1
		for j < len(bs) && sameLine(bs[j-1], bs[j]) {
			j++
		}
		first, last := bs[i], bs[j-1]
		size := 0.0
		for _, b := range bs[i:j] {
			size = math.Max(size, b.Y1-b.Y0)
		}
		text := strings.Map(func(r rune) rune {
			if r < 0x20 || r == 0x7f {
				return ' '
			}
			return r
		}, string(lp.text[first.Start:last.End]))
		lv := lineView{X: num(lp.x(first.X0)), Y: num(lp.y(first.Y0 + 0.2*size)), Size: num(math.Max(size, 0.5)), Text: text}
		if width := last.X1 - first.X0; width > 0 && len([]rune(text)) > 1 {
			lv.Len = num(width)
		}
		out = append(out, lv)
		i = j
	}
	return out
}

// rects returns the rectangles covering the glyphs of [start, end), one per
// stretch of a line.
func (lp *loadedPage) rects(start, end int, class, title string) []rectView {
	bs := lp.boxes
	i := sort.Search(len(bs), func(i int) bool { return bs[i].End > start })
	var out []rectView
	var cur *corpus.GlyphBox
	var prev corpus.GlyphBox
	flush := func() {
		if cur != nil {
			out = append(out, rectView{Class: class, Title: title, X: num(lp.x(cur.X0) - 0.5), Y: num(lp.y(cur.Y1) - 0.5),
				W: num(cur.X1 - cur.X0 + 1), H: num(cur.Y1 - cur.Y0 + 1)})
			cur = nil
		}
	}
	for ; i < len(bs) && bs[i].Start < end; i++ {
		b := bs[i]
		if cur != nil && sameLine(prev, b) {
			cur.X0, cur.Y0 = math.Min(cur.X0, b.X0), math.Min(cur.Y0, b.Y0)
			cur.X1, cur.Y1 = math.Max(cur.X1, b.X1), math.Max(cur.Y1, b.Y1)
		} else {
			flush()
			c := b
			cur = &c
		}
		prev = b
	}
	flush()
	return out
}

// mark is a span of a page to highlight.
type mark struct {
	start, end int
	class      string // "loc" or "decl"
	title      string
}

// segments cuts text at the marks' ends, each piece with the classes of
// the marks covering it.
func segments(text []rune, marks []mark) []segView {
	n := len(text)
	cuts := []int{0, n}
	var ms []mark
	for _, m := range marks {
		m.start, m.end = max(0, min(n, m.start)), max(0, min(n, m.end))
		if m.start < m.end {
			ms = append(ms, m)
			cuts = append(cuts, m.start, m.end)
		}
	}
	sort.Ints(cuts)
	cuts = slices.Compact(cuts)
	var out []segView
	for i := 0; i+1 < len(cuts); i++ {
		a, b := cuts[i], cuts[i+1]
		var classes, titles []string
		for _, m := range ms {
			if m.start <= a && b <= m.end {
				if !slices.Contains(classes, m.class) {
					classes = append(classes, m.class)
				}
				if !slices.Contains(titles, m.title) {
					titles = append(titles, m.title)
				}
			}
		}
		sort.Strings(classes)
		out = append(out, segView{Text: string(text[a:b]), Class: strings.Join(classes, " "), Title: strings.Join(titles, "; ")})
	}
	return out
}

// declared returns the declared evidence of the question on a page: the
// essential claims' evidence spans, or an unknown question's abstention
// evidence, and the legend naming them.
func declared(q *spans.Question, c *grade.CitationResult, page, textLen int) ([]mark, string) {
	if q == nil {
		return nil, ""
	}
	var marks []mark
	var names []string
	addSpan := func(s spans.Span, title string) bool {
		start, end, ok := s.Offsets()
		if !ok || s.Document != c.Document {
			return false
		}
		switch {
		case s.Page == page && s.LastPage() == page:
		case s.Page == page:
			end = textLen
		case s.LastPage() == page:
			start = 0
		default:
			return false
		}
		marks = append(marks, mark{start, end, "decl", title})
		return true
	}
	for _, cl := range q.EssentialClaims {
		name := cl.Field
		if slices.Contains(c.Claims, cl.Field) {
			name += " (covered by this citation)"
		}
		found := false
		for _, s := range cl.Evidence {
			if addSpan(s, "declared evidence: "+cl.Field) {
				found = true
			}
		}
		if found && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	for _, s := range q.AbstentionEvidence {
		if addSpan(s, "abstention evidence") && !slices.Contains(names, "abstention evidence") {
			names = append(names, "abstention evidence")
		}
	}
	return marks, strings.Join(names, ", ")
}

func (r *renderer) pageView(c *grade.CitationResult, page int, q *spans.Question) pageView {
	v := pageView{Doc: c.Document, Page: page, MsgClass: "msg"}
	lp := r.pages[pageKey{c.Document, page}]
	switch {
	case lp == nil:
		v.Message = fmt.Sprintf("Page %d is not a page number.", page)
		return v
	case lp.err != nil && !lp.hasText:
		v.Message, v.MsgClass = fmt.Sprintf("This page could not be read: %v", lp.err), "msg err"
		return v
	case lp.err != nil:
		v.Message, v.MsgClass = fmt.Sprintf("The glyph boxes of this page could not be read, its stored text is shown instead: %v", lp.err), "msg err"
	case !lp.hasText:
		v.Message = fmt.Sprintf("The corpus has no page %d of %s.", page, c.Document)
		return v
	}
	var marks []mark
	for _, s := range c.Spans {
		if s.Page == page {
			marks = append(marks, mark{s.Start, s.End, "loc", fmt.Sprintf("located span [%d, %d)", s.Start, s.End)})
			v.Located = true
		}
	}
	decl, names := declared(q, c, page, len(lp.text))
	v.Declared = names
	if len(lp.boxes) == 0 {
		v.Text = segments(lp.text, append(decl, marks...))
		return v
	}
	sv := &svgView{W: num(lp.w), H: num(lp.h), Def: lp.def, Label: fmt.Sprintf("%s page %d", c.Document, page)}
	for _, m := range decl { // declared first, the located span drawn over it
		sv.Rects = append(sv.Rects, lp.rects(m.start, m.end, m.class, m.title)...)
	}
	for _, m := range marks {
		sv.Rects = append(sv.Rects, lp.rects(m.start, m.end, m.class, m.title)...)
	}
	if len(marks) > 0 { // the declared spans' edges stay visible over the located span
		for _, m := range decl {
			sv.Rects = append(sv.Rects, lp.rects(m.start, m.end, "decl-edge", m.title)...)
		}
	}
	v.SVG = sv
	return v
}
