package pdftext

import (
	"fmt"
	"github.com/citecheck/citecheck/pdftext/internal/fontenc"
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

	keepCopies bool // Options.KeepCopies

	fonts map[int]*font // by object number

	// Per page.
	content  []byte // the page's content streams, joined
	glyphs   []glyph
	scratch  layoutScratch
	warnings []string
	warned   map[string]bool
	forms    map[int]bool // forms being run, to break cycles
	// marked is the stack of open marked-content sequences; an entry with
	// actual set replaces the glyphs drawn inside it by its ActualText.
	marked []markedContent

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
	// The glyph buffer serves every page: layout copies what it keeps.
	x.glyphs, x.warnings, x.warned, x.forms, x.marked = x.glyphs[:0], nil, nil, map[int]bool{}, nil
	contents := x.obj.get(p.dict, "Contents")
	var streams []types.Object
	if a, ok := contents.(types.Array); ok {
		streams = a
	} else if c, ok := p.dict["Contents"]; ok {
		streams = []types.Object{c}
	}
	// The page's streams form one content stream: a token may span two.
	// Its buffer serves every page; nothing read from it outlives the page.
	data := x.content[:0]
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
	x.content = data
	err := x.run(data, p.resources, gstate{ctm: identity, hscale: 1}, 0)
	if err == nil {
		err = x.annotations(p)
	}
	return x.glyphs, x.warnings, err
}

// Annotation flags (PDF 32000-1 §12.5.3) that keep an annotation off the
// page as displayed.
const (
	annotHidden = 1 << 1
	annotNoView = 1 << 5
)

// annotations draws the normal appearance of each visible annotation after
// the page content, as viewers and pdftotext do: text in a FreeText note or
// a filled form field is on the page a reader sees.
func (x *interp) annotations(p pageInfo) error {
	o := x.obj
	for _, ref := range o.arrayEntry(p.dict, "Annots") {
		a := o.dict(ref)
		if a == nil || o.nameEntry(a, "Subtype") == "Popup" {
			continue
		}
		if flags := int(o.numberEntry(a, "F", 0)); flags&(annotHidden|annotNoView) != 0 {
			continue
		}
		apRef := o.get(o.dictEntry(a, "AP"), "N")
		if sd, _ := o.stream(apRef); sd == nil {
			// A dictionary of appearance states: the one /AS names.
			states := o.dict(apRef)
			as, _ := o.name(o.get(a, "AS"))
			if states == nil || as == "" {
				continue
			}
			apRef = states[as]
		}
		sd, num := o.stream(apRef)
		if sd == nil {
			continue
		}
		rect := o.array(o.get(a, "Rect"))
		if len(rect) != 4 {
			continue
		}
		var r [4]float64
		for i := range r {
			r[i], _ = o.number(rect[i])
		}
		if err := x.appearance(sd, num, r); err != nil {
			return err
		}
	}
	return nil
}

// appearance runs an annotation's appearance stream: its BBox, transformed
// by its Matrix, is mapped onto the annotation's Rect (§12.5.5).
func (x *interp) appearance(sd *types.StreamDict, num int, rect [4]float64) error {
	o := x.obj
	m := o.matrixOf(o.get(sd.Dict, "Matrix"), identity)
	bbox := o.array(o.get(sd.Dict, "BBox"))
	if len(bbox) != 4 {
		return nil
	}
	var b [4]float64
	for i := range b {
		b[i], _ = o.number(bbox[i])
	}
	// The transformed box's bounds.
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, c := range [][2]float64{{b[0], b[1]}, {b[2], b[1]}, {b[0], b[3]}, {b[2], b[3]}} {
		px, py := m.apply(c[0], c[1])
		minX, minY, maxX, maxY = math.Min(minX, px), math.Min(minY, py), math.Max(maxX, px), math.Max(maxY, py)
	}
	w, h := maxX-minX, maxY-minY
	if w <= 0 || h <= 0 {
		return nil
	}
	rx0, ry0 := math.Min(rect[0], rect[2]), math.Min(rect[1], rect[3])
	sx, sy := math.Abs(rect[2]-rect[0])/w, math.Abs(rect[3]-rect[1])/h
	a := matrix{sx, 0, 0, sy, rx0 - float64(minX*sx), ry0 - float64(minY*sy)}
	ctm := m.mul(a)
	if !ctm.finite() {
		return nil
	}
	// An appearance starts from the default graphics state, not from
	// whatever the page content left.
	saved := x.gs
	x.gs = gstate{hscale: 1}
	defer func() { x.gs = saved }()
	return x.runForm(sd, num, ctm, nil, 1)
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
		l.release()
	}
}

// nums returns the last n (at most 6) operands as numbers, in an array so
// that an operator's operands cost no allocation.
func nums(args []operand, n int) ([6]float64, bool) {
	var out [6]float64
	if len(args) < n {
		return out, false
	}
	for i, a := range args[len(args)-n:] {
		if a.kind != kNumber || math.IsNaN(a.num) || math.IsInf(a.num, 0) {
			return out, false
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
		x.concat(args)
	case "BMC":
		x.marked = append(x.marked, markedContent{})
	case "BDC":
		x.beginMarked(args, res)
	case "EMC":
		x.endMarked()
	case "BT":
		x.tm, x.tlm = identity, identity
	case "Tc":
		setNum(&gs.charSpace, args)
	case "Tw":
		setNum(&gs.wordSpace, args)
	case "Tz":
		if v, ok := num1(args); ok {
			gs.hscale = v / 100
		}
	case "TL":
		setNum(&gs.leading, args)
	case "Ts":
		setNum(&gs.rise, args)
	case "Tf":
		x.setFont(args, res)
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
		x.setTextMatrix(args)
	case "T*":
		x.moveLine(0, -gs.leading)
	case "Tj":
		x.showLast(args)
	case "'":
		x.moveLine(0, -gs.leading)
		x.showLast(args)
	case "\"":
		x.showSpaced(args)
	case "TJ":
		x.showArray(args)
	case "BI":
		x.inlineImage(l)
	case "Do":
		if len(args) > 0 && args[len(args)-1].kind == kName {
			return x.xobject(res, string(args[len(args)-1].bytes), depth)
		}
	}
	return nil
}

// setNum sets *dst to the last operand, when it is a number.
func setNum(dst *float64, args []operand) {
	if v, ok := num1(args); ok {
		*dst = v
	}
}

// concat runs cm: the matrix of the operands, when finite, premultiplies
// the CTM.
func (x *interp) concat(args []operand) {
	if v, ok := nums(args, 6); ok {
		m := matrix{v[0], v[1], v[2], v[3], v[4], v[5]}.mul(x.gs.ctm)
		if m.finite() {
			x.gs.ctm = m
		}
	}
}

// setFont runs Tf: the font named in the resources, and its size.
func (x *interp) setFont(args []operand, res types.Dict) {
	if len(args) >= 2 && args[len(args)-2].kind == kName {
		if v, ok := num1(args); ok {
			x.gs.fontSize = v
		}
		x.gs.font = x.font(res, string(args[len(args)-2].bytes))
	}
}

// setTextMatrix runs Tm: the text and line matrices, when finite.
func (x *interp) setTextMatrix(args []operand) {
	if v, ok := nums(args, 6); ok {
		m := matrix{v[0], v[1], v[2], v[3], v[4], v[5]}
		if m.finite() {
			x.tm, x.tlm = m, m
		}
	}
}

// showLast shows the last operand, when it is a string (Tj, ').
func (x *interp) showLast(args []operand) {
	if len(args) > 0 && args[len(args)-1].kind == kString {
		x.show(args[len(args)-1].bytes)
	}
}

// showSpaced runs ": word and character spacing, a new line, a string.
func (x *interp) showSpaced(args []operand) {
	if len(args) >= 3 && args[len(args)-1].kind == kString {
		if v, ok := nums(args[:len(args)-1], 2); ok {
			x.gs.wordSpace, x.gs.charSpace = v[0], v[1]
		}
		x.moveLine(0, -x.gs.leading)
		x.show(args[len(args)-1].bytes)
	}
}

// showArray runs TJ: strings shown, numbers moving the next glyph.
func (x *interp) showArray(args []operand) {
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
}

// inlineImage runs BI: it reads the image's dictionary, up to ID, and
// skips its data, which holds no text.
func (x *interp) inlineImage(l *lexer) {
	dict := map[string]operand{}
	var key []byte
	for {
		tok, v, op := l.next()
		if tok == tEOF {
			return
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
}

// markedContent is one open BMC/BDC sequence.
type markedContent struct {
	actual     bool
	text       string
	firstGlyph int
}

// maxMarkedDepth bounds the marked-content stack of a hostile stream.
const maxMarkedDepth = 256

// beginMarked opens a marked-content sequence; one whose properties carry
// /ActualText (inline, or through the resources' /Properties) will stand for
// the glyphs drawn inside it (PDF 32000-1 §14.9.4).
func (x *interp) beginMarked(args []operand, res types.Dict) {
	if len(x.marked) >= maxMarkedDepth {
		x.warn("marked content nested deeper than %d", maxMarkedDepth)
		return
	}
	mc := markedContent{firstGlyph: len(x.glyphs)}
	if len(args) > 0 {
		switch props := args[len(args)-1]; props.kind {
		case kDict:
			if v, ok := props.dict["ActualText"]; ok && v.kind == kString {
				mc.actual, mc.text = true, fontenc.DecodeTextString(v.bytes)
			}
		case kName:
			d := x.obj.dict(x.obj.dictEntry(res, "Properties")[string(props.bytes)])
			if b, ok := x.obj.bytesOf(x.obj.get(d, "ActualText")); ok {
				mc.actual, mc.text = true, fontenc.DecodeTextString(b)
			}
		}
	}
	// Inside an ActualText span, an inner one changes nothing.
	for _, outer := range x.marked {
		if outer.actual {
			mc.actual = false
		}
	}
	x.marked = append(x.marked, mc)
}

// endMarked closes a sequence; an ActualText one replaces its glyphs by one
// glyph spanning them, holding the actual text.
func (x *interp) endMarked() {
	if len(x.marked) == 0 {
		return
	}
	mc := x.marked[len(x.marked)-1]
	x.marked = x.marked[:len(x.marked)-1]
	if !mc.actual || mc.firstGlyph > len(x.glyphs) {
		return
	}
	drawn := x.glyphs[mc.firstGlyph:]
	if len(drawn) == 0 {
		return
	}
	g := drawn[0]
	last := drawn[len(drawn)-1]
	g.ex, g.ey = last.ex, last.ey
	g.text, g.alias = sanitize(mc.text), codeAlias{}
	x.glyphs = append(x.glyphs[:mc.firstGlyph], g)
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
			ty = float64(w0*gs.fontSize) + space
			if isBlank(g.text) {
				adv = ty
			}
		} else {
			adv = w0 * gs.fontSize * gs.hscale
			tx = (float64(w0*gs.fontSize) + space) * gs.hscale
			if isBlank(g.text) {
				adv = tx
			}
		}
		x.emit(g.text, g.alias, m, adv, f.vertical)
		x.tm = matrix{1, 0, 0, 1, tx, ty}.mul(x.tm)
	}
}

// emit records a glyph whose text-space origin is (0, rise) under m and
// whose extent along the writing direction is adv text-space units.
func (x *interp) emit(text string, alias codeAlias, m matrix, adv float64, vertical bool) {
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
	size := hypot(m[2], m[3]) * math.Abs(gs.fontSize)
	if n := hypot(dx, dy); n > 0 {
		dx, dy = dx/n, dy/n
	} else {
		dx, dy = 1, 0
	}
	// A negative font size turns the glyphs half a turn (a negative Tz
	// mirrors them): they advance against the text matrix's axis, and the
	// text reads along the advance, as every reference extractor reads it.
	if against := gs.fontSize < 0; against != (!vertical && gs.hscale < 0) {
		dx, dy = -dx, -dy
	}
	if len(x.glyphs) >= maxGlyphsPerPage {
		x.warn("more than %d glyphs on the page; the rest are dropped", maxGlyphsPerPage)
		return
	}
	x.glyphs = append(x.glyphs, glyph{text: sanitize(text), alias: alias, ox: ox, oy: oy, ex: ex, ey: ey, dx: dx, dy: dy, size: size})
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
	m := x.obj.matrixOf(x.obj.get(sd.Dict, "Matrix"), identity).mul(x.gs.ctm)
	if !m.finite() {
		return nil
	}
	return x.runForm(sd, num, m, res, depth+1)
}

// runForm runs a form stream under ctm, inheriting the current state and
// drawing into the same page; a form without resources uses res.
func (x *interp) runForm(sd *types.StreamDict, num int, ctm matrix, res types.Dict, depth int) error {
	data, w, err := x.dec.decode(sd, num)
	if err != nil {
		return err
	}
	if w != "" {
		x.warn("form: %s", w)
	}
	formRes := x.obj.dictEntry(sd.Dict, "Resources")
	if formRes == nil {
		formRes = res
	}
	gs := x.gs
	gs.ctm = ctm
	return x.run(data, formRes, gs, depth)
}
