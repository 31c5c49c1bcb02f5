package pdftext

import (
	"fmt"
	"math"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// gstate is the part of the graphics state that places text.
type gstate struct {
	ctm       matrix
	font      *font
	fontSize  float64
	charSpace float64
	wordSpace float64
	hscale    float64 // Tz / 100
	leading   float64
	rise      float64
}

// maxSaveDepth bounds the q/Q stack; deeper saves are ignored, as a viewer
// that ran out of memory would.
const maxSaveDepth = 1024

// interp runs content streams and records the glyphs they show. One interp
// serves a whole document: it owns the font cache and the operator budget.
type interp struct {
	obj objects
	dec *decoder
	lim Limits
	ops int64 // operators run so far in the document

	fonts map[int]*font // by object number

	// Per page.
	glyphs   []glyph
	warnings []string
	warned   map[string]bool
	forms    map[int]bool // forms being run, to break cycles

	// Per content stream.
	gs    gstate
	stack []gstate
	tm    matrix
	tlm   matrix
	codes []glyphCode
}

func newInterp(obj objects, lim Limits) *interp {
	return &interp{
		obj:   obj,
		dec:   &decoder{budget: lim.MaxDecoded},
		lim:   lim,
		fonts: map[int]*font{},
	}
}

// warn records a page warning once per distinct text.
func (x *interp) warn(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if x.warned == nil {
		x.warned = map[string]bool{}
	}
	if x.warned[s] || len(x.warnings) >= 100 {
		return
	}
	x.warned[s] = true
	x.warnings = append(x.warnings, s)
}

// page runs one page's content streams and returns its glyphs, in content
// order, and warnings. An error is returned only for a spent budget.
func (x *interp) page(p pageInfo) ([]glyph, []string, error) {
	x.glyphs, x.warnings, x.warned, x.forms = nil, nil, nil, map[int]bool{}
	contents := x.obj.get(p.dict, "Contents")
	var streams []types.Object
	if a, ok := contents.(types.Array); ok {
		streams = a
	} else if c, ok := p.dict["Contents"]; ok {
		streams = []types.Object{c}
	}
	// The page's streams form one content stream: a token may span two.
	var data []byte
	for _, s := range streams {
		sd, num := x.obj.stream(s)
		if sd == nil {
			continue
		}
		b, w, err := x.dec.decode(sd, num)
		if err != nil {
			return nil, nil, err
		}
		if w != "" {
			x.warn("content: %s", w)
		}
		data = append(data, b...)
		data = append(data, '\n')
	}
	err := x.run(data, p.resources, gstate{ctm: identity, hscale: 1}, 0)
	return x.glyphs, x.warnings, err
}

// run interprets one content stream with the given resources, starting from
// the graphics state gs (a form inherits its caller's). The caller's state is
// restored afterwards, as the q/Q around a form's content would.
func (x *interp) run(data []byte, res types.Dict, gs gstate, depth int) error {
	saved, savedStack, savedTm, savedTlm := x.gs, x.stack, x.tm, x.tlm
	defer func() { x.gs, x.stack, x.tm, x.tlm = saved, savedStack, savedTm, savedTlm }()
	x.gs = gs
	x.stack = nil
	x.tm, x.tlm = identity, identity

	l := &lexer{data: data}
	var args []operand
	for {
		tok, v, op := l.next()
		switch tok {
		case tEOF:
			return nil
		case tOperand:
			if len(args) < 64 {
				args = append(args, v)
			}
			continue
		case tArrayEnd, tDictEnd:
			continue
		}
		x.ops++
		if x.ops > x.lim.MaxOperators {
			return fmt.Errorf("%w: more than %d content operators", ErrResourceLimit, x.lim.MaxOperators)
		}
		if err := x.do(string(op), args, res, l, depth); err != nil {
			return err
		}
		args = args[:0]
	}
}

func nums(args []operand, n int) ([]float64, bool) {
	if len(args) < n {
		return nil, false
	}
	out := make([]float64, n)
	for i, a := range args[len(args)-n:] {
		if a.kind != kNumber || math.IsNaN(a.num) || math.IsInf(a.num, 0) {
			return nil, false
		}
		out[i] = a.num
	}
	return out, true
}

func num1(args []operand) (float64, bool) {
	v, ok := nums(args, 1)
	if !ok {
		return 0, false
	}
	return v[0], true
}

// do runs one operator. Operators with missing or mistyped operands are
// ignored, as viewers do.
func (x *interp) do(op string, args []operand, res types.Dict, l *lexer, depth int) error {
	gs := &x.gs
	switch op {
	case "q":
		if len(x.stack) < maxSaveDepth {
			x.stack = append(x.stack, *gs)
		}
	case "Q":
		if n := len(x.stack); n > 0 {
			*gs = x.stack[n-1]
			x.stack = x.stack[:n-1]
		}
	case "cm":
		if v, ok := nums(args, 6); ok {
			m := matrix{v[0], v[1], v[2], v[3], v[4], v[5]}.mul(gs.ctm)
			if m.finite() {
				gs.ctm = m
			}
		}
	case "BT":
		x.tm, x.tlm = identity, identity
	case "Tc":
		if v, ok := num1(args); ok {
			gs.charSpace = v
		}
	case "Tw":
		if v, ok := num1(args); ok {
			gs.wordSpace = v
		}
	case "Tz":
		if v, ok := num1(args); ok {
			gs.hscale = v / 100
		}
	case "TL":
		if v, ok := num1(args); ok {
			gs.leading = v
		}
	case "Ts":
		if v, ok := num1(args); ok {
			gs.rise = v
		}
	case "Tf":
		if len(args) >= 2 && args[len(args)-2].kind == kName {
			if v, ok := num1(args); ok {
				gs.fontSize = v
			}
			gs.font = x.font(res, string(args[len(args)-2].bytes))
		}
	case "Td":
		if v, ok := nums(args, 2); ok {
			x.moveLine(v[0], v[1])
		}
	case "TD":
		if v, ok := nums(args, 2); ok {
			gs.leading = -v[1]
			x.moveLine(v[0], v[1])
		}
	case "Tm":
		if v, ok := nums(args, 6); ok {
			m := matrix{v[0], v[1], v[2], v[3], v[4], v[5]}
			if m.finite() {
				x.tm, x.tlm = m, m
			}
		}
	case "T*":
		x.moveLine(0, -gs.leading)
	case "Tj":
		if len(args) > 0 && args[len(args)-1].kind == kString {
			x.show(args[len(args)-1].bytes)
		}
	case "'":
		x.moveLine(0, -gs.leading)
		if len(args) > 0 && args[len(args)-1].kind == kString {
			x.show(args[len(args)-1].bytes)
		}
	case "\"":
		if len(args) >= 3 && args[len(args)-1].kind == kString {
			if v, ok := nums(args[:len(args)-1], 2); ok {
				gs.wordSpace, gs.charSpace = v[0], v[1]
			}
			x.moveLine(0, -gs.leading)
			x.show(args[len(args)-1].bytes)
		}
	case "TJ":
		if len(args) > 0 && args[len(args)-1].kind == kArray {
			for _, e := range args[len(args)-1].arr {
				switch e.kind {
				case kString:
					x.show(e.bytes)
				case kNumber:
					x.adjust(e.num)
				}
			}
		}
	case "BI":
		dict := map[string]operand{}
		var key []byte
		for {
			tok, v, op := l.next()
			if tok == tEOF {
				return nil
			}
			if tok == tOperator {
				if string(op) == "ID" {
					break
				}
				continue
			}
			if tok != tOperand {
				continue
			}
			if key == nil && v.kind == kName {
				key = v.bytes
			} else if key != nil {
				dict[string(key)] = v
				key = nil
			}
		}
		l.skipInlineImage(dict)
	case "Do":
		if len(args) > 0 && args[len(args)-1].kind == kName {
			return x.xobject(res, string(args[len(args)-1].bytes), depth)
		}
	}
	return nil
}

// moveLine starts a new line offset by (tx, ty) from the current line start.
func (x *interp) moveLine(tx, ty float64) {
	x.tlm = matrix{1, 0, 0, 1, tx, ty}.mul(x.tlm)
	x.tm = x.tlm
}

// adjust applies a TJ number: a move against the writing direction, in
// thousandths of text space.
func (x *interp) adjust(n float64) {
	gs := &x.gs
	if gs.font != nil && gs.font.vertical {
		x.tm = matrix{1, 0, 0, 1, 0, -n / 1000 * gs.fontSize}.mul(x.tm)
		return
	}
	x.tm = matrix{1, 0, 0, 1, -n / 1000 * gs.fontSize * gs.hscale, 0}.mul(x.tm)
}

// font returns the font a Tf operand names, loading it once per document.
func (x *interp) font(res types.Dict, name string) *font {
	fonts := x.obj.dictEntry(res, "Font")
	ref, ok := fonts[name]
	if !ok {
		x.warn("font /%s is not in the resources", name)
		return nil
	}
	num := 0
	if r, ok := ref.(types.IndirectRef); ok {
		num = r.ObjectNumber.Value()
		if f, ok := x.fonts[num]; ok {
			return f
		}
	}
	f, warnings := x.loadFont(ref)
	for _, w := range warnings {
		x.warn("%s", w)
	}
	if num > 0 {
		x.fonts[num] = f
	}
	return f
}

// show places the glyphs of one string, advancing the text matrix by each
// glyph's width, character spacing and (for code 32) word spacing, as
// PDF 32000-1 §9.4.4 defines.
func (x *interp) show(s []byte) {
	gs := &x.gs
	f := gs.font
	if f == nil {
		x.warn("text shown before any font was set")
		return
	}
	x.codes = f.decode(x.codes[:0], s)
	for _, g := range x.codes {
		w0 := g.width / 1000
		space := gs.charSpace
		if g.wordSpace {
			space += gs.wordSpace
		}
		m := x.tm.mul(gs.ctm)
		// A glyph's extent is its width alone: character and word spacing
		// widen the gap after it, which is what separates words in PDFs
		// that space words with Tc (as poppler reads them). A blank glyph's
		// extent is its whole advance, so that one squeezed to nothing by a
		// negative Tw is recognised as no space at all.
		var adv, tx, ty float64
		if f.vertical {
			adv = w0 * gs.fontSize
			ty = w0*gs.fontSize + space
			if isBlank(g.text) {
				adv = ty
			}
		} else {
			adv = w0 * gs.fontSize * gs.hscale
			tx = (w0*gs.fontSize + space) * gs.hscale
			if isBlank(g.text) {
				adv = tx
			}
		}
		x.emit(g.text, m, adv, f.vertical)
		x.tm = matrix{1, 0, 0, 1, tx, ty}.mul(x.tm)
	}
}

// emit records a glyph whose text-space origin is (0, rise) under m and
// whose extent along the writing direction is adv text-space units.
func (x *interp) emit(text string, m matrix, adv float64, vertical bool) {
	if !m.finite() {
		return
	}
	gs := &x.gs
	ox, oy := m.apply(0, gs.rise)
	var ex, ey, dx, dy float64
	if vertical {
		ex, ey = m.apply(0, gs.rise+adv)
		dx, dy = -m[2], -m[3]
	} else {
		ex, ey = m.apply(adv, gs.rise)
		dx, dy = m[0], m[1]
	}
	// The glyph's size in user space: the text-space em scaled by m.
	size := math.Hypot(m[2], m[3]) * math.Abs(gs.fontSize)
	if n := math.Hypot(dx, dy); n > 0 {
		dx, dy = dx/n, dy/n
	} else {
		dx, dy = 1, 0
	}
	if len(x.glyphs) >= maxGlyphsPerPage {
		x.warn("more than %d glyphs on the page; the rest are dropped", maxGlyphsPerPage)
		return
	}
	x.glyphs = append(x.glyphs, glyph{text: sanitize(text), ox: ox, oy: oy, ex: ex, ey: ey, dx: dx, dy: dy, size: size})
}

// maxGlyphsPerPage bounds one page's memory; no real page comes near it.
const maxGlyphsPerPage = 4 << 20

// xobject runs a form XObject. Image XObjects hold no text.
func (x *interp) xobject(res types.Dict, name string, depth int) error {
	xobjs := x.obj.dictEntry(res, "XObject")
	ref, ok := xobjs[name]
	if !ok {
		return nil
	}
	sd, num := x.obj.stream(ref)
	if sd == nil || x.obj.nameEntry(sd.Dict, "Subtype") != "Form" {
		return nil
	}
	if depth >= x.lim.MaxDepth {
		x.warn("form XObject /%s nested deeper than %d: skipped", name, x.lim.MaxDepth)
		return nil
	}
	if num > 0 {
		if x.forms[num] {
			x.warn("form XObject /%s draws itself: cycle broken", name)
			return nil
		}
		x.forms[num] = true
		defer delete(x.forms, num)
	}
	data, w, err := x.dec.decode(sd, num)
	if err != nil {
		return err
	}
	if w != "" {
		x.warn("form /%s: %s", name, w)
	}
	formRes := x.obj.dictEntry(sd.Dict, "Resources")
	if formRes == nil {
		formRes = res
	}
	m := x.obj.matrixOf(x.obj.get(sd.Dict, "Matrix"), identity).mul(x.gs.ctm)
	if !m.finite() {
		return nil
	}
	// The form inherits the current state and draws into the same page.
	gs := x.gs
	gs.ctm = m
	return x.run(data, formRes, gs, depth+1)
}
