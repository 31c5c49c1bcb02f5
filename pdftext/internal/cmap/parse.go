package cmap

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/citecheck/citecheck/pdftext/internal/fontenc"
)

// Limits on what Parse accepts. Input beyond MaxInput is refused; the other
// limits clip or skip, with a warning, and parsing goes on.
const (
	// MaxInput is the largest CMap program Parse reads, in bytes.
	MaxInput = 16 << 20
	// MaxMappings bounds the codes that all mappings of one CMap define
	// together (bfchar, bfrange, cidchar, cidrange, notdefrange).
	MaxMappings = 1 << 20
	// MaxRange bounds the codes of one range; a larger range is clipped
	// to its first MaxRange codes.
	MaxRange = 1 << 16
	// MaxText bounds the bytes of UTF-8 text that bf mappings hold.
	MaxText = 16 << 20
	// maxWarnings bounds the warnings kept.
	maxWarnings = 100
)

// ErrTooLarge is returned for input over MaxInput.
var ErrTooLarge = errors.New("cmap: input too large")

// ErrNotCMap is returned when the input holds no CMap construct at all.
var ErrNotCMap = errors.New("cmap: no CMap content (no begincmap, codespace, mapping or usecmap)")

// def is one mapping definition during parsing: codes lo..hi (keys of one
// length) to val (incrementing or constant), in definition order.
type def struct {
	lo, hi uint64
	val    uint32
}

type parser struct {
	lx      lexer
	peek    token
	hasPeek bool

	c         *CMap
	arena     []byte
	offs      []uint32
	uniDefs   []def
	cidDefs   []def
	ndDefs    []def
	mappings  int
	sawCMap   bool
	nwarn     int
	textFull  bool
	mapsFull  bool
	lenCounts [5]int // source code lengths seen in mappings
	csGiven   bool
	tmp       []byte
}

// Parse reads a CMap program: a ToUnicode CMap or an embedded encoding CMap
// (PDF 32000-1:2008 §9.7.5, §9.10.3; Adobe Technical Note #5014).
//
// It is tolerant: it reads the operators it knows wherever they appear and
// ignores everything else (PostScript around them, comments, garbage
// between sections). A malformed entry is skipped and a malformed or
// unterminated section ends where the next section or endcmap begins; both
// are reported by Warnings, and the rest is kept. Parse fails only for input
// over MaxInput (ErrTooLarge) or input with no CMap construct at all
// (ErrNotCMap).
func Parse(data []byte) (*CMap, error) {
	if len(data) > MaxInput {
		return nil, ErrTooLarge
	}
	p := &parser{lx: lexer{data: data}, c: &CMap{}, offs: []uint32{0}}
	p.run()
	if !p.sawCMap {
		return nil, ErrNotCMap
	}
	return p.finish(), nil
}

// warnf records a warning about the input at byte offset pos; pos < 0 is
// a warning about the whole CMap.
func (p *parser) warnf(pos int, format string, args ...any) {
	p.nwarn++
	switch {
	case p.nwarn < maxWarnings:
		msg := fmt.Sprintf(format, args...)
		if pos >= 0 {
			msg = fmt.Sprintf("offset %d: %s", pos, msg)
		}
		p.c.warnings = append(p.c.warnings, msg)
	case p.nwarn == maxWarnings:
		p.c.warnings = append(p.c.warnings, "further warnings suppressed")
	}
}

func (p *parser) next() token {
	if p.hasPeek {
		p.hasPeek = false
		return p.peek
	}
	return p.lx.next()
}

func (p *parser) unread(t token) {
	p.peek, p.hasPeek = t, true
}

func (p *parser) run() {
	// The two tokens before the current one, for "/Key value def" and
	// "/Name usecmap". Only names and integers are kept; names alias the
	// input, so no copies are made.
	var prev1, prev2 token
	for {
		t := p.next()
		if t.kind == tEOF {
			break
		}
		if t.kind == tKeyword && !t.bad {
			switch string(t.b) {
			case "begincmap", "endcmap":
				p.sawCMap = true
			case "begincodespacerange":
				p.sawCMap = true
				p.codespaceSection()
			case "beginbfchar":
				p.sawCMap = true
				p.bfcharSection()
			case "beginbfrange":
				p.sawCMap = true
				p.bfrangeSection()
			case "begincidchar":
				p.sawCMap = true
				p.cidcharSection()
			case "begincidrange":
				p.sawCMap = true
				p.cidrangeSection(false)
			case "beginnotdefrange":
				p.sawCMap = true
				p.cidrangeSection(true)
			case "usecmap":
				if prev1.kind == tName && !prev1.bad {
					p.sawCMap = true
					if p.c.useCMap != "" {
						p.warnf(t.pos, "second usecmap /%s ignored", prev1.b)
					} else {
						p.c.useCMap = decodeName(prev1.b)
					}
				} else {
					p.warnf(t.pos, "usecmap without a name")
				}
			case "def":
				p.def(prev2, prev1)
			}
		}
		prev2, prev1 = prev1, t
		if t.kind == tHex {
			prev1 = token{kind: tHex} // its bytes do not outlive the next token
		}
	}
}

// def handles "/WMode n def" and "/CMapName /name def".
func (p *parser) def(key, val token) {
	if key.kind != tName || key.bad {
		return
	}
	switch string(key.b) {
	case "WMode":
		if val.kind == tInt && (val.n == 0 || val.n == 1) {
			p.c.wmode, p.c.wmodeOK = int(val.n), true
		} else {
			p.warnf(val.pos, "/WMode %v ignored: not 0 or 1", val)
		}
	case "CMapName":
		if val.kind == tName && !val.bad {
			p.c.name = decodeName(val.b)
		}
	}
}

// decodeName resolves #xx escapes in a name (PDF 1.2 and later).
func decodeName(b []byte) string {
	if bytes.IndexByte(b, '#') < 0 {
		return string(b)
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '#' && i+2 < len(b) {
			h, ok1 := hexVal(b[i+1])
			l, ok2 := hexVal(b[i+2])
			if ok1 && ok2 {
				out = append(out, h<<4|l)
				i += 2
				continue
			}
		}
		out = append(out, b[i])
	}
	return string(out)
}

func isSectionKeyword(b []byte) bool {
	switch string(b) {
	case "begincodespacerange", "beginbfchar", "beginbfrange", "begincidchar",
		"begincidrange", "beginnotdefrange", "endcmap", "usecmap",
		"endcodespacerange", "endbfchar", "endbfrange", "endcidchar",
		"endcidrange", "endnotdefrange":
		return true
	}
	return false
}

// atEnd reports whether t ends the section whose end keyword is end. Another
// section keyword or the end of data also ends it, with a warning; a section
// keyword is pushed back for the main loop.
func (p *parser) atEnd(t token, end string) bool {
	switch t.kind {
	case tEOF:
		p.warnf(t.pos, "missing %s", end)
		return true
	case tKeyword:
		if string(t.b) == end {
			return true
		}
		if isSectionKeyword(t.b) {
			p.warnf(t.pos, "missing %s before %s", end, t.b)
			p.unread(t)
			return true
		}
	}
	return false
}

// srcCode reads a source code (1-4 bytes) from a hex token.
func (p *parser) srcCode(t token, what string) (n int, v uint32, ok bool) {
	switch {
	case t.kind != tHex:
		p.warnf(t.pos, "%s: expected a hex string, found %v", what, t)
	case t.bad:
		p.warnf(t.pos, "%s: malformed hex string", what)
	case len(t.b) == 0 || len(t.b) > 4:
		p.warnf(t.pos, "%s: code of %d bytes, want 1 to 4", what, len(t.b))
	default:
		return len(t.b), beValue(t.b), true
	}
	return 0, 0, false
}

func (p *parser) codespaceSection() {
	for {
		t := p.next()
		if p.atEnd(t, "endcodespacerange") {
			return
		}
		if t.kind != tHex {
			p.warnf(t.pos, "codespace: unexpected %v", t)
			continue
		}
		var lo [4]byte
		loN, loOK := len(t.b), !t.bad && len(t.b) >= 1 && len(t.b) <= 4
		copy(lo[4-min(loN, 4):], t.b)
		h := p.next()
		if p.atEnd(h, "endcodespacerange") {
			p.warnf(t.pos, "codespace: range without an end")
			return
		}
		if h.kind != tHex || h.bad || len(h.b) < 1 || len(h.b) > 4 || !loOK {
			p.warnf(t.pos, "codespace: malformed range skipped")
			continue
		}
		n := len(h.b)
		r := csRange{n: uint8(n)}
		copy(r.hi[:], h.b)
		if loN != n {
			// Seen in the wild: <00> <FFFF>. Read lo as a number of
			// hi's length, as other readers do.
			p.warnf(t.pos, "codespace: bounds of %d and %d bytes; using %d-byte codes", loN, n, n)
			if loN > n && !allZero(lo[:4-n]) {
				continue
			}
		}
		copy(r.lo[:], lo[4-n:])
		if bytes.Compare(r.lo[:n], r.hi[:n]) > 0 {
			p.warnf(t.pos, "codespace: range with low above high skipped")
			continue
		}
		for i := 0; i < n; i++ {
			if r.lo[i] > r.hi[i] {
				p.warnf(t.pos, "codespace: bounds not ordered byte by byte; read as numbers")
				r.numeric = true
				break
			}
		}
		if !p.c.cs.add(r) {
			p.warnf(t.pos, "codespace: more than %d ranges; rest skipped", maxCodespaceRanges)
			continue
		}
		p.csGiven = true
	}
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// budget returns how many of n codes may still be mapped, warning once
// when the limit cuts.
func (p *parser) budget(pos, n int) int {
	left := MaxMappings - p.mappings
	if n > left {
		if !p.mapsFull {
			p.warnf(pos, "more than %d mappings; the rest are skipped", MaxMappings)
			p.mapsFull = true
		}
		n = left
	}
	return max(n, 0)
}

// addEntry appends one bf text entry and returns its index, or false when
// the text limit is reached.
func (p *parser) addEntry(pos int, text []byte) (uint32, bool) {
	if len(p.arena)+len(text) > MaxText {
		if !p.textFull {
			p.warnf(pos, "more than %d bytes of mapped text; the rest is skipped", MaxText)
			p.textFull = true
		}
		return 0, false
	}
	p.arena = append(p.arena, text...)
	p.offs = append(p.offs, uint32(len(p.arena)))
	return uint32(len(p.offs) - 2), true
}

// addUniDef records codes lo..lo+count-1 -> entries first..first+count-1,
// extending the previous definition when it continues it.
func (p *parser) addUniDef(n int, lo uint32, count int, first uint32) {
	k := makeKey(n, lo)
	if l := len(p.uniDefs); l > 0 {
		d := &p.uniDefs[l-1]
		if d.hi+1 == k && d.lo>>32 == k>>32 && d.val+uint32(d.hi-d.lo)+1 == first {
			d.hi += uint64(count)
			p.mappings += count
			p.lenCounts[n] += count
			return
		}
	}
	p.uniDefs = append(p.uniDefs, def{lo: k, hi: k + uint64(count) - 1, val: first})
	p.mappings += count
	p.lenCounts[n] += count
}

// dstText decodes a bf destination token to UTF-8 in p.tmp: a hex string is
// UTF-16BE, a name is a glyph name (old files). ok is false for anything
// else, with a warning.
func (p *parser) dstText(t token, what string) ([]byte, bool) {
	switch {
	case t.kind == tHex && !t.bad && len(t.b) > 0:
		p.tmp = appendUTF16(p.tmp[:0], t.b)
		return p.tmp, true
	case t.kind == tHex && len(t.b) == 0 && !t.bad:
		p.warnf(t.pos, "%s: empty destination", what)
	case t.kind == tName && !t.bad:
		s, ok := fontenc.GlyphUnicode(decodeName(t.b), false)
		if ok {
			p.tmp = append(p.tmp[:0], s...)
			return p.tmp, true
		}
		p.warnf(t.pos, "%s: glyph name /%s has no Unicode value", what, t.b)
	default:
		p.warnf(t.pos, "%s: bad destination %v", what, t)
	}
	return nil, false
}

func (p *parser) bfcharSection() {
	for {
		t := p.next()
		if p.atEnd(t, "endbfchar") {
			return
		}
		if t.kind != tHex {
			p.warnf(t.pos, "bfchar: unexpected %v", t)
			continue
		}
		n, v, ok := p.srcCode(t, "bfchar")
		d := p.next()
		if p.atEnd(d, "endbfchar") {
			p.warnf(t.pos, "bfchar: code without destination")
			return
		}
		if !ok {
			continue
		}
		text, ok := p.dstText(d, "bfchar")
		if !ok || p.budget(t.pos, 1) == 0 {
			continue
		}
		if e, ok := p.addEntry(t.pos, text); ok {
			p.addUniDef(n, v, 1, e)
		}
	}
}

var zeros [maxHexBytes]byte

// stable returns t with its bytes copied into buf, since a hex token's bytes
// alias the lexer's scratch buffer and the next token overwrites them. A
// string of more than 4 bytes keeps only its length (all srcCode needs to
// reject it).
func stable(t token, buf *[4]byte) token {
	if t.kind != tHex {
		return t
	}
	if len(t.b) <= 4 {
		t.b = buf[:copy(buf[:], t.b)]
	} else {
		t.b = zeros[:len(t.b)]
	}
	return t
}

// srcRange reads the low and high codes of a range; on success count is
// the number of codes, clipped to MaxRange.
func (p *parser) srcRange(lo, hi token, what string) (n int, v uint32, count int, ok bool) {
	n, v, ok1 := p.srcCode(lo, what)
	hn, hv, ok2 := p.srcCode(hi, what)
	switch {
	case !ok1 || !ok2:
		return 0, 0, 0, false
	case hn != n:
		p.warnf(lo.pos, "%s: range bounds of %d and %d bytes skipped", what, n, hn)
		return 0, 0, 0, false
	case hv < v:
		p.warnf(lo.pos, "%s: range with low above high skipped", what)
		return 0, 0, 0, false
	}
	c := uint64(hv) - uint64(v) + 1
	if c > MaxRange {
		p.warnf(lo.pos, "%s: range of %d codes clipped to %d", what, c, MaxRange)
		c = MaxRange
	}
	return n, v, int(c), true
}

func (p *parser) bfrangeSection() {
	for {
		t := p.next()
		if p.atEnd(t, "endbfrange") {
			return
		}
		if t.kind != tHex {
			p.warnf(t.pos, "bfrange: unexpected %v", t)
			continue
		}
		var loBuf, hiBuf [4]byte
		lo := stable(t, &loBuf)
		hi := p.next()
		if p.atEnd(hi, "endbfrange") {
			p.warnf(t.pos, "bfrange: incomplete entry")
			return
		}
		hi = stable(hi, &hiBuf)
		d := p.next()
		if p.atEnd(d, "endbfrange") {
			p.warnf(t.pos, "bfrange: incomplete entry")
			return
		}
		n, v, count, ok := p.srcRange(lo, hi, "bfrange")
		switch d.kind {
		case tArrayOpen:
			p.bfrangeArray(d, ok, n, v, count)
		case tHex:
			if !ok {
				continue
			}
			if d.bad || len(d.b) == 0 {
				p.warnf(d.pos, "bfrange: bad destination %v", d)
				continue
			}
			p.bfrangeIncrement(t.pos, n, v, count, d.b)
		case tName:
			if !ok {
				continue
			}
			// A glyph name names one character; only a one-code range
			// can use it.
			if count != 1 {
				p.warnf(d.pos, "bfrange: name destination for a range of %d codes skipped", count)
				continue
			}
			text, ok := p.dstText(d, "bfrange")
			if ok && p.budget(t.pos, 1) > 0 {
				if e, ok := p.addEntry(t.pos, text); ok {
					p.addUniDef(n, v, 1, e)
				}
			}
		default:
			p.warnf(d.pos, "bfrange: bad destination %v", d)
		}
	}
}

// bfrangeIncrement maps count codes from v to dst, dst+1, ...: the last
// character of dst increments. The spec increments the last byte only;
// this increments the last UTF-16 code unit as a 16-bit number (carrying
// into the byte before, as writers of ranges such as <0000> <01FF> <0000>
// expect), or the last code point when dst ends in a surrogate pair. The
// range stops at U+FFFF (or U+10FFFF).
func (p *parser) bfrangeIncrement(pos, n int, v uint32, count int, dst []byte) {
	units := utf16Units(dst)
	var last rune
	var prefix []rune
	limit := rune(0xFFFF)
	if l := len(units); l >= 2 && isHigh(units[l-2]) && isLow(units[l-1]) {
		last = (rune(units[l-2])-0xD800)<<10 | (rune(units[l-1]) - 0xDC00) + 0x10000
		units = units[:l-2]
		limit = utf8.MaxRune
	} else {
		last = rune(units[l-1])
		units = units[:l-1]
	}
	prefix = decodeUnits(prefix, units)
	var pre []byte
	for _, r := range prefix {
		pre = utf8.AppendRune(pre, r)
	}
	if over := int64(last) + int64(count) - 1 - int64(limit); over > 0 {
		p.warnf(pos, "bfrange: destination passes U+%04X; range cut by %d codes", limit, over)
		count -= int(over)
	}
	count = p.budget(pos, count)
	first := uint32(len(p.offs) - 1)
	done := 0
	for k := 0; k < count; k++ {
		r := last + rune(k)
		if 0xD800 <= r && r <= 0xDFFF {
			r = utf8.RuneError
		}
		p.tmp = utf8.AppendRune(append(p.tmp[:0], pre...), r)
		if _, ok := p.addEntry(pos, p.tmp); !ok {
			break
		}
		done++
	}
	if done > 0 {
		p.addUniDef(n, v, done, first)
	}
}

// bfrangeArray reads "[ dst1 dst2 ... ]" after its '[': one destination per
// code. ok says whether the range itself was valid; the array is consumed
// either way.
func (p *parser) bfrangeArray(open token, ok bool, n int, v uint32, count int) {
	i := 0
	extra := 0
	for {
		t := p.next()
		switch t.kind {
		case tArrayClose:
			if ok && i < count {
				p.warnf(open.pos, "bfrange: array has %d destinations for %d codes", i, count)
			}
			if extra > 0 {
				p.warnf(open.pos, "bfrange: %d destinations beyond the range ignored", extra)
			}
			return
		case tEOF:
			p.warnf(t.pos, "bfrange: unterminated array")
			return
		case tKeyword:
			if isSectionKeyword(t.b) {
				p.warnf(t.pos, "bfrange: unterminated array")
				p.unread(t)
				return
			}
		case tArrayOpen:
			p.warnf(t.pos, "bfrange: nested array skipped")
			p.skipArray()
			i++
			continue
		}
		if !ok {
			continue
		}
		if i >= count {
			extra++
			continue
		}
		code := v + uint32(i)
		i++
		text, tok := p.dstText(t, "bfrange array")
		if !tok || p.budget(t.pos, 1) == 0 {
			continue
		}
		if e, eok := p.addEntry(t.pos, text); eok {
			p.addUniDef(n, code, 1, e)
		}
	}
}

// skipArray consumes tokens up to the ']' that closes an array whose '['
// was just read, counting nesting; it stops at a section keyword or EOF.
func (p *parser) skipArray() {
	depth := 1
	for depth > 0 {
		t := p.next()
		switch t.kind {
		case tEOF:
			return
		case tArrayOpen:
			depth++
		case tArrayClose:
			depth--
		case tKeyword:
			if isSectionKeyword(t.b) {
				p.unread(t)
				return
			}
		}
	}
}

func (p *parser) cidcharSection() {
	for {
		t := p.next()
		if p.atEnd(t, "endcidchar") {
			return
		}
		if t.kind != tHex {
			p.warnf(t.pos, "cidchar: unexpected %v", t)
			continue
		}
		n, v, ok := p.srcCode(t, "cidchar")
		d := p.next()
		if p.atEnd(d, "endcidchar") {
			p.warnf(t.pos, "cidchar: code without CID")
			return
		}
		if !ok {
			continue
		}
		if d.kind != tInt || d.n < 0 || d.n > 0xFFFFFFFF {
			p.warnf(d.pos, "cidchar: bad CID %v", d)
			continue
		}
		if p.budget(t.pos, 1) == 0 {
			continue
		}
		k := makeKey(n, v)
		p.cidDefs = append(p.cidDefs, def{lo: k, hi: k, val: uint32(d.n)})
		p.mappings++
		p.lenCounts[n]++
	}
}

// cidrangeSection reads begincidrange (CIDs increment) or beginnotdefrange
// (one CID for the whole range) entries: <lo> <hi> cid.
func (p *parser) cidrangeSection(notdef bool) {
	what, end := "cidrange", "endcidrange"
	if notdef {
		what, end = "notdefrange", "endnotdefrange"
	}
	for {
		t := p.next()
		if p.atEnd(t, end) {
			return
		}
		if t.kind != tHex {
			p.warnf(t.pos, "%s: unexpected %v", what, t)
			continue
		}
		var loBuf, hiBuf [4]byte
		lo := stable(t, &loBuf)
		hi := p.next()
		if p.atEnd(hi, end) {
			p.warnf(t.pos, "%s: incomplete entry", what)
			return
		}
		hi = stable(hi, &hiBuf)
		d := p.next()
		if p.atEnd(d, end) {
			p.warnf(t.pos, "%s: incomplete entry", what)
			return
		}
		n, v, count, ok := p.srcRange(lo, hi, what)
		if !ok {
			continue
		}
		if d.kind != tInt || d.n < 0 || d.n > 0xFFFFFFFF {
			p.warnf(d.pos, "%s: bad CID %v", what, d)
			continue
		}
		if !notdef && d.n+int64(count)-1 > 0xFFFFFFFF {
			count = int(0xFFFFFFFF - d.n + 1)
		}
		count = p.budget(t.pos, count)
		if count == 0 {
			continue
		}
		k := makeKey(n, v)
		dd := def{lo: k, hi: k + uint64(count) - 1, val: uint32(d.n)}
		if notdef {
			p.ndDefs = append(p.ndDefs, dd)
		} else {
			p.cidDefs = append(p.cidDefs, dd)
		}
		p.mappings += count
		p.lenCounts[n] += count
	}
}

// finish resolves overlapping definitions (the later one wins, as each
// mapping operator assigns in turn) and builds the lookup tables.
func (p *parser) finish() *CMap {
	c := p.c
	c.text = string(p.arena)
	c.offs = p.offs
	c.uni = paint(p.uniDefs, true)
	c.cid = paint(p.cidDefs, true)
	c.notdef = paint(p.ndDefs, false)
	if !p.csGiven {
		// No codespace: use codes of the most common source length among
		// the mappings (the shorter on a tie), 1 byte if there are none.
		best := 1
		for n := 2; n <= 4; n++ {
			if p.lenCounts[n] > p.lenCounts[best] {
				best = n
			}
		}
		c.cs.ranges = []csRange{fullRange(best)}
		c.cs.inferred = true
		p.warnf(-1, "no codespace ranges; assuming %d-byte codes", best)
	}
	c.cs.build()
	if c.NumUnicodeMappings() == 0 && c.NumCIDMappings() == 0 && len(c.notdef) == 0 && c.useCMap == "" {
		p.warnf(-1, "no mappings")
	}
	return c
}

// appendUTF16 appends UTF-16BE text as UTF-8. Surrogate pairs become one
// code point, lone surrogates U+FFFD. An odd byte count is read as if a zero
// byte came first: <41> is U+0041, as writers of such strings mean.
func appendUTF16(dst []byte, b []byte) []byte {
	var buf [maxHexBytes/2 + 1]uint16
	u := utf16UnitsInto(buf[:0], b)
	var rs [maxHexBytes/2 + 1]rune
	for _, r := range decodeUnits(rs[:0], u) {
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

func utf16Units(b []byte) []uint16 {
	return utf16UnitsInto(make([]uint16, 0, len(b)/2+1), b)
}

func utf16UnitsInto(u []uint16, b []byte) []uint16 {
	if len(b)%2 == 1 {
		u = append(u, uint16(b[0]))
		b = b[1:]
	}
	for i := 0; i+1 < len(b); i += 2 {
		u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
	}
	return u
}

func isHigh(u uint16) bool { return 0xD800 <= u && u <= 0xDBFF }
func isLow(u uint16) bool  { return 0xDC00 <= u && u <= 0xDFFF }

func decodeUnits(dst []rune, u []uint16) []rune {
	for i := 0; i < len(u); i++ {
		switch {
		case isHigh(u[i]) && i+1 < len(u) && isLow(u[i+1]):
			dst = append(dst, (rune(u[i])-0xD800)<<10|(rune(u[i+1])-0xDC00)+0x10000)
			i++
		case isHigh(u[i]) || isLow(u[i]):
			dst = append(dst, utf8.RuneError)
		default:
			dst = append(dst, rune(u[i]))
		}
	}
	return dst
}
