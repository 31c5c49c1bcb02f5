package cmap

import "fmt"

// tokKind is the kind of a CMap (PostScript) token.
type tokKind uint8

const (
	tEOF        tokKind = iota
	tHex                // <...>: b holds the decoded bytes
	tString             // (...): content not kept
	tName               // /name: b holds the name without the slash
	tInt                // integer: n holds the value
	tReal               // real number: value not kept
	tKeyword            // any other run of regular characters: b holds it
	tArrayOpen          // [
	tArrayClose         // ]
	tDictOpen           // <<
	tDictClose          // >>
	tProcOpen           // {
	tProcClose          // }
)

var kindNames = [...]string{
	tEOF: "end of data", tHex: "hex string", tString: "string", tName: "name",
	tInt: "integer", tReal: "real", tKeyword: "keyword", tArrayOpen: "[",
	tArrayClose: "]", tDictOpen: "<<", tDictClose: ">>", tProcOpen: "{", tProcClose: "}",
}

// token is one lexical token. b aliases either the input (names, keywords)
// or the lexer's scratch buffer (hex strings): it is valid until the next
// call to lexer.next.
type token struct {
	kind tokKind
	bad  bool // malformed or over a length limit; its value is unusable
	b    []byte
	n    int64
	pos  int // byte offset of the token in the input
}

func (t token) String() string {
	switch t.kind {
	case tName:
		return fmt.Sprintf("name /%.40s", t.b)
	case tKeyword:
		return fmt.Sprintf("keyword %.40q", t.b)
	case tInt:
		return fmt.Sprintf("integer %d", t.n)
	case tHex:
		if t.bad {
			return "malformed hex string"
		}
		return fmt.Sprintf("hex string <%.16X>", t.b)
	}
	return kindNames[t.kind]
}

// Token limits. A token over a limit is consumed whole (the lexer always
// advances) and marked bad.
const (
	maxHexBytes  = 256 // decoded bytes in a hex string
	maxNameBytes = 256 // bytes in a name or keyword
	maxIntDigits = 18  // digits in an integer (fits int64)
)

type lexer struct {
	data    []byte
	pos     int
	scratch [maxHexBytes]byte
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}

func isDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

func hexVal(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// next returns the next token. Every call either returns tEOF or consumes at
// least one byte, so a loop over next always ends.
func (l *lexer) next() token {
	d := l.data
	for l.pos < len(d) {
		c := d[l.pos]
		if isSpace(c) {
			l.pos++
			continue
		}
		if c == '%' {
			for l.pos < len(d) && d[l.pos] != '\n' && d[l.pos] != '\r' {
				l.pos++
			}
			continue
		}
		break
	}
	if l.pos >= len(d) {
		return token{kind: tEOF, pos: len(d)}
	}
	start := l.pos
	c := d[l.pos]
	l.pos++
	switch c {
	case '[':
		return token{kind: tArrayOpen, pos: start}
	case ']':
		return token{kind: tArrayClose, pos: start}
	case '{':
		return token{kind: tProcOpen, pos: start}
	case '}':
		return token{kind: tProcClose, pos: start}
	case '(':
		l.skipString()
		return token{kind: tString, pos: start}
	case ')':
		// A stray close paren: report it as a keyword so the parser can
		// warn and move on.
		return token{kind: tKeyword, b: d[start:l.pos], pos: start}
	case '<':
		if l.pos < len(d) && d[l.pos] == '<' {
			l.pos++
			return token{kind: tDictOpen, pos: start}
		}
		return l.hex(start)
	case '>':
		if l.pos < len(d) && d[l.pos] == '>' {
			l.pos++
			return token{kind: tDictClose, pos: start}
		}
		return token{kind: tKeyword, b: d[start:l.pos], pos: start}
	case '/':
		for l.pos < len(d) && !isSpace(d[l.pos]) && !isDelim(d[l.pos]) {
			l.pos++
		}
		name := d[start+1 : l.pos]
		return token{kind: tName, b: name, bad: len(name) > maxNameBytes, pos: start}
	}
	for l.pos < len(d) && !isSpace(d[l.pos]) && !isDelim(d[l.pos]) {
		l.pos++
	}
	word := d[start:l.pos]
	if n, ok := parseInt(word); ok {
		return token{kind: tInt, n: n, pos: start}
	}
	if isReal(word) {
		return token{kind: tReal, pos: start}
	}
	return token{kind: tKeyword, b: word, bad: len(word) > maxNameBytes, pos: start}
}

// skipString consumes a literal string after its '(' : balanced parentheses,
// backslash escapes. An unterminated string runs to the end of the data.
func (l *lexer) skipString() {
	d := l.data
	depth := 1
	for l.pos < len(d) {
		c := d[l.pos]
		l.pos++
		switch c {
		case '\\':
			if l.pos < len(d) {
				l.pos++
			}
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return
			}
		}
	}
}

// hex lexes a hex string after its '<'. White space between digits is
// ignored; an odd final digit is followed by an implied 0 (PDF 32000-1
// §7.3.4.3). A character that is neither a hex digit nor white space ends
// the token, unconsumed, and marks it bad, so that a stray '<' cannot
// swallow the rest of the data.
func (l *lexer) hex(start int) token {
	d := l.data
	t := token{kind: tHex, pos: start}
	n := 0 // digits seen
	var cur byte
	for {
		if l.pos >= len(d) {
			t.bad = true // unterminated
			break
		}
		c := d[l.pos]
		if c == '>' {
			l.pos++
			break
		}
		if isSpace(c) {
			l.pos++
			continue
		}
		v, ok := hexVal(c)
		if !ok {
			t.bad = true
			break
		}
		l.pos++
		if n%2 == 0 {
			cur = v << 4
		} else {
			cur |= v
			if i := n / 2; i < len(l.scratch) {
				l.scratch[i] = cur
			}
		}
		n++
	}
	if n%2 == 1 {
		if i := n / 2; i < len(l.scratch) {
			l.scratch[i] = cur
		}
		n++
	}
	nb := n / 2
	if nb > len(l.scratch) {
		t.bad = true
		nb = len(l.scratch)
	}
	t.b = l.scratch[:nb]
	return t
}

func parseInt(w []byte) (int64, bool) {
	i := 0
	neg := false
	if len(w) > 0 && (w[0] == '+' || w[0] == '-') {
		neg = w[0] == '-'
		i++
	}
	if i == len(w) || len(w)-i > maxIntDigits {
		return 0, false
	}
	var v int64
	for ; i < len(w); i++ {
		c := w[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

func isReal(w []byte) bool {
	i := 0
	if len(w) > 0 && (w[0] == '+' || w[0] == '-') {
		i++
	}
	digits, dots := 0, 0
	for ; i < len(w); i++ {
		switch c := w[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.':
			dots++
		default:
			return false
		}
	}
	return digits > 0 && dots == 1
}
