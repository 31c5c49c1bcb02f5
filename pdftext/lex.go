package pdftext

import (
	"bytes"
	"strconv"
)

// kind is the type of a content-stream operand.
type kind uint8

const (
	kNull kind = iota
	kBool
	kNumber
	kString
	kName
	kArray
	kDict
)

// operand is one content-stream operand. Strings and names alias the
// lexer's buffers only until the next operator, so the interpreter copies
// what it keeps.
type operand struct {
	kind  kind
	num   float64
	bytes []byte // string or name
	arr   []operand
	dict  map[string]operand
}

// lexer splits a content stream into operands and operators. It never fails:
// a byte it cannot read is skipped, so one bad token loses as little as
// possible, and every loop advances through the input.
type lexer struct {
	data []byte
	pos  int
	// depth bounds array and dictionary nesting.
	depth int
	// arena holds the decoded strings, and ops the array elements, of the
	// operands read since release: slices of them, capped at their length,
	// so that a string or array costs no allocation of its own. Slices
	// handed out stay valid when the arena grows (they keep the old array).
	arena []byte
	ops   []operand
	// elems holds the elements of the arrays being read, innermost last;
	// each array gets a slice of ops of its exact length when it ends.
	elems []operand
}

// release lets the arenas be written again: the operands read so far are
// no longer used. The interpreter calls it after each operator; a lexer
// whose operands are kept (a trailer, an object) never does.
func (l *lexer) release() {
	l.arena, l.ops = l.arena[:0], l.ops[:0]
}

// arenaBytes returns the arena's bytes from start, nil for none.
func (l *lexer) arenaBytes(start int) []byte {
	if len(l.arena) == start {
		return nil
	}
	return l.arena[start:len(l.arena):len(l.arena)]
}

const maxOperandDepth = 32

func isWhite(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}

func isDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

func (l *lexer) skipSpace() {
	for l.pos < len(l.data) {
		c := l.data[l.pos]
		if isWhite(c) {
			l.pos++
			continue
		}
		if c == '%' {
			for l.pos < len(l.data) && l.data[l.pos] != '\n' && l.data[l.pos] != '\r' {
				l.pos++
			}
			continue
		}
		return
	}
}

// token kinds returned by next.
type tokKind uint8

const (
	tEOF tokKind = iota
	tOperand
	tOperator
	tArrayEnd
	tDictEnd
)

// next returns the next token. For tOperator, op holds the keyword.
func (l *lexer) next() (tok tokKind, v operand, op []byte) {
	l.skipSpace()
	if l.pos >= len(l.data) {
		return tEOF, v, nil
	}
	c := l.data[l.pos]
	switch {
	case c == '/':
		l.pos++
		return tOperand, operand{kind: kName, bytes: l.name()}, nil
	case c == '(':
		l.pos++
		return tOperand, operand{kind: kString, bytes: l.literal()}, nil
	case c == '<':
		if l.pos+1 < len(l.data) && l.data[l.pos+1] == '<' {
			l.pos += 2
			return tOperand, l.dict(), nil
		}
		l.pos++
		return tOperand, operand{kind: kString, bytes: l.hex()}, nil
	case c == '>':
		l.pos++
		if l.pos < len(l.data) && l.data[l.pos] == '>' {
			l.pos++
		}
		return tDictEnd, v, nil
	case c == '[':
		l.pos++
		return tOperand, l.array(), nil
	case c == ']':
		l.pos++
		return tArrayEnd, v, nil
	case c == '{' || c == '}' || c == ')':
		l.pos++ // PostScript braces and stray parentheses carry no text
		return l.next()
	case c == '+' || c == '-' || c == '.' || (c >= '0' && c <= '9'):
		if n, ok := l.number(); ok {
			return tOperand, operand{kind: kNumber, num: n}, nil
		}
	}
	start := l.pos
	for l.pos < len(l.data) && !isWhite(l.data[l.pos]) && !isDelim(l.data[l.pos]) {
		l.pos++
	}
	if l.pos == start { // a delimiter handled nowhere above
		l.pos++
		return l.next()
	}
	word := l.data[start:l.pos]
	switch string(word) {
	case "true":
		return tOperand, operand{kind: kBool, num: 1}, nil
	case "false":
		return tOperand, operand{kind: kBool}, nil
	case "null":
		return tOperand, operand{kind: kNull}, nil
	}
	return tOperator, v, word
}

// number reads a PDF number; malformed forms such as "--5" or "1.2.3" read
// as much as makes sense, as viewers do.
func (l *lexer) number() (float64, bool) {
	start := l.pos
	neg := false
	for l.pos < len(l.data) && (l.data[l.pos] == '+' || l.data[l.pos] == '-') {
		neg = neg != (l.data[l.pos] == '-')
		l.pos++
	}
	digits := l.pos
	dot := false
	for l.pos < len(l.data) {
		c := l.data[l.pos]
		if c >= '0' && c <= '9' {
			l.pos++
		} else if c == '.' && !dot {
			dot = true
			l.pos++
		} else {
			break
		}
	}
	s := l.data[digits:l.pos]
	if len(s) == 0 || (len(s) == 1 && s[0] == '.') {
		if l.pos < len(l.data) && !isWhite(l.data[l.pos]) && !isDelim(l.data[l.pos]) {
			l.pos = start // a keyword that starts like a number
			return 0, false
		}
		return 0, true
	}
	// Skip trailing garbage glued to a number ("1.2.3"), as viewers do.
	for l.pos < len(l.data) && (l.data[l.pos] == '.' || (l.data[l.pos] >= '0' && l.data[l.pos] <= '9')) {
		l.pos++
	}
	f, ok := shortDecimal(s)
	if !ok {
		var err error
		if f, err = strconv.ParseFloat(string(s), 64); err != nil {
			f = 0
		}
	}
	if neg {
		f = -f
	}
	return f, true
}

// exactPow10 holds the powers of ten a float64 represents exactly.
var exactPow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// shortDecimal reads digits with at most one '.', as content streams write
// their numbers, when its digits make an integer below 2^53 and it has at
// most 22 decimals: then both are exact float64s and their quotient, which
// IEEE 754 rounds correctly, is what strconv.ParseFloat returns (its own
// exact path), without its general parser. Otherwise it returns false.
func shortDecimal(s []byte) (float64, bool) {
	if len(s) > 19 {
		return 0, false
	}
	var mant uint64
	decimals := -1
	for i, c := range s {
		if c == '.' {
			decimals = len(s) - 1 - i
			continue
		}
		mant = mant*10 + uint64(c-'0')
	}
	if mant >= 1<<53 {
		return 0, false
	}
	f := float64(mant)
	if decimals > 0 {
		f /= exactPow10[decimals]
	}
	return f, true
}

func (l *lexer) name() []byte {
	start := l.pos
	for l.pos < len(l.data) && !isWhite(l.data[l.pos]) && !isDelim(l.data[l.pos]) {
		l.pos++
	}
	raw := l.data[start:l.pos]
	if bytes.IndexByte(raw, '#') < 0 {
		return raw
	}
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		if raw[i] == '#' && i+2 < len(raw) {
			if h, ok := unhex(raw[i+1], raw[i+2]); ok {
				out = append(out, h)
				i += 2
				continue
			}
		}
		out = append(out, raw[i])
	}
	return out
}

func unhexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func unhex(a, b byte) (byte, bool) {
	x, ok1 := unhexDigit(a)
	y, ok2 := unhexDigit(b)
	return x<<4 | y, ok1 && ok2
}

// literal reads a (string) after its opening parenthesis.
func (l *lexer) literal() []byte {
	start := len(l.arena)
	out := l.arena
	depth := 1
	for l.pos < len(l.data) {
		c := l.data[l.pos]
		l.pos++
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				l.arena = out
				return l.arenaBytes(start)
			}
		case '\\':
			if l.pos >= len(l.data) {
				continue
			}
			e := l.data[l.pos]
			l.pos++
			switch e {
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case '\r':
				if l.pos < len(l.data) && l.data[l.pos] == '\n' {
					l.pos++
				}
				continue
			case '\n':
				continue
			default:
				if e >= '0' && e <= '7' {
					v := int(e - '0')
					for k := 0; k < 2 && l.pos < len(l.data) && l.data[l.pos] >= '0' && l.data[l.pos] <= '7'; k++ {
						v = v*8 + int(l.data[l.pos]-'0')
						l.pos++
					}
					c = byte(v)
				} else {
					c = e
				}
			}
		}
		out = append(out, c)
	}
	l.arena = out
	return l.arenaBytes(start)
}

// hex reads a <hex string> after its opening bracket. An odd final digit is
// taken as followed by 0, as the specification says.
func (l *lexer) hex() []byte {
	start := len(l.arena)
	out := l.arena
	var hi byte
	half := false
	for l.pos < len(l.data) {
		c := l.data[l.pos]
		l.pos++
		if c == '>' {
			break
		}
		d, ok := unhexDigit(c)
		if !ok {
			continue
		}
		if half {
			out = append(out, hi<<4|d)
		} else {
			hi = d
		}
		half = !half
	}
	if half {
		out = append(out, hi<<4)
	}
	l.arena = out
	return l.arenaBytes(start)
}

func (l *lexer) array() operand {
	v := operand{kind: kArray}
	l.depth++
	defer func() { l.depth-- }()
	if l.depth > maxOperandDepth {
		l.skipTo(']')
		return v
	}
	mark := len(l.elems)
	for {
		tok, o, _ := l.next()
		switch tok {
		case tOperand:
			l.elems = append(l.elems, o)
		case tOperator:
			// An operator inside an array is malformed; keep reading so
			// that the array's strings are not lost.
		case tArrayEnd, tEOF:
			if len(l.elems) > mark {
				start := len(l.ops)
				l.ops = append(l.ops, l.elems[mark:]...)
				v.arr = l.ops[start:len(l.ops):len(l.ops)]
				clear(l.elems[mark:])
				l.elems = l.elems[:mark]
			}
			return v
		}
	}
}

func (l *lexer) dict() operand {
	v := operand{kind: kDict, dict: map[string]operand{}}
	l.depth++
	defer func() { l.depth-- }()
	var key []byte
	for {
		if l.depth > maxOperandDepth {
			l.skipTo('>')
			return v
		}
		tok, o, _ := l.next()
		switch tok {
		case tOperand:
			if key == nil {
				if o.kind == kName {
					key = o.bytes
				}
				continue
			}
			v.dict[string(key)] = o
			key = nil
		case tDictEnd, tEOF:
			return v
		}
	}
}

// skipTo advances past the next occurrence of c.
func (l *lexer) skipTo(c byte) {
	if i := bytes.IndexByte(l.data[l.pos:], c); i >= 0 {
		l.pos += i + 1
	} else {
		l.pos = len(l.data)
	}
}

// skipInlineImage advances past the data of an inline image, whose
// dictionary has been read, to just after its EI operator. The data is
// binary and may contain "EI", so an EI is accepted only when followed by
// white space or the end and when what follows lexes as content (an
// operator or operand), as poppler and pdf.js do.
func (l *lexer) skipInlineImage(dict map[string]operand) {
	// "ID" is followed by a single white-space byte before the data.
	if l.pos < len(l.data) && isWhite(l.data[l.pos]) {
		l.pos++
	}
	if n, ok := inlineImageLength(dict); ok && l.pos+n <= len(l.data) {
		end := l.pos + n
		rest := l.data[end:]
		i := bytes.Index(rest, []byte("EI"))
		if i >= 0 && len(bytes.TrimSpace(rest[:i])) == 0 {
			l.pos = end + i + 2
			return
		}
	}
	for {
		i := bytes.Index(l.data[l.pos:], []byte("EI"))
		if i < 0 {
			l.pos = len(l.data)
			return
		}
		at := l.pos + i
		l.pos = at + 2
		if at > 0 && !isWhite(l.data[at-1]) {
			continue
		}
		if l.pos < len(l.data) && !isWhite(l.data[l.pos]) {
			continue
		}
		if plausibleContentAfter(l.data[l.pos:]) {
			return
		}
	}
}

// inlineImageLength returns the byte length of an inline image's data when
// it is computable: uncompressed data of known size.
func inlineImageLength(dict map[string]operand) (int, bool) {
	get := func(long, short string) (operand, bool) {
		if v, ok := dict[long]; ok {
			return v, true
		}
		v, ok := dict[short]
		return v, ok
	}
	if f, ok := get("Filter", "F"); ok && !(f.kind == kArray && len(f.arr) == 0) {
		return 0, false
	}
	w, ok1 := get("Width", "W")
	h, ok2 := get("Height", "H")
	if !ok1 || !ok2 || w.kind != kNumber || h.kind != kNumber || w.num <= 0 || h.num <= 0 || w.num > 1e5 || h.num > 1e5 {
		return 0, false
	}
	bpc := 8.0
	if b, ok := get("BitsPerComponent", "BPC"); ok && b.kind == kNumber {
		bpc = b.num
	}
	comps := 1.0
	if m, ok := get("ImageMask", "IM"); ok && m.kind == kBool && m.num == 1 {
		bpc = 1
	} else if cs, ok := get("ColorSpace", "CS"); ok && cs.kind == kName {
		switch string(cs.bytes) {
		case "DeviceRGB", "RGB", "CalRGB", "Lab":
			comps = 3
		case "DeviceCMYK", "CMYK":
			comps = 4
		case "DeviceGray", "G", "CalGray":
			comps = 1
		default:
			return 0, false // indexed or named spaces: size unknown here
		}
	}
	rowBytes := (int(w.num)*int(comps)*int(bpc) + 7) / 8
	return rowBytes * int(h.num), true
}

// plausibleContentAfter reports whether data begins like content-stream
// text rather than binary image data.
func plausibleContentAfter(data []byte) bool {
	n := min(len(data), 32)
	for _, c := range data[:n] {
		if c < 0x20 && !isWhite(c) || c >= 0x7F {
			return false
		}
	}
	return true
}
