package strictjson

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/citecheck/citecheck/internal/inputerr"
	"golang.org/x/text/cases"
)

// Sentinel causes; every *Error wraps exactly one, and so does every
// *inputerr.Error a reader of the module makes of a JSON fault: the one
// set of JSON faults, inside the one kind of input fault.
var (
	ErrSyntax       = errors.New("invalid JSON")
	ErrInvalidUTF8  = errors.New("invalid UTF-8")
	ErrDuplicateKey = errors.New("duplicate key")
	ErrTooLarge     = errors.New("input exceeds the size limit")
	ErrTooDeep      = errors.New("nesting exceeds the depth limit")
	ErrUnknownField = errors.New("unknown field")
	ErrType         = errors.New("wrong type")
	ErrMissing      = errors.New("missing required field")
	ErrValue        = errors.New("invalid value")
)

// Kind is the JSON type of a Value.
type Kind uint8

// The JSON types.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"null", "boolean", "number", "string", "array", "object"}

func (k Kind) String() string { return kindNames[k] }

// Value is one parsed JSON value and where it starts.
type Value struct {
	Kind    Kind
	Offset  int      // byte offset of the value's first byte
	End     int      // byte offset just after the value
	Str     string   // String: the decoded text; Number: the literal as written
	Bool    bool     // Bool
	Members []Member // Object, in input order
	Elems   []*Value // Array
}

// Member is one key and value of an object.
type Member struct {
	Key       string
	KeyOffset int // byte offset of the key's opening quote
	Value     *Value
}

// Get returns the member named key exactly, or nil.
func (v *Value) Get(key string) *Member {
	for i := range v.Members {
		if v.Members[i].Key == key {
			return &v.Members[i]
		}
	}
	return nil
}

// Limits bounds what Parse and EachLine accept.
type Limits struct {
	MaxBytes int // the whole input; 0: no limit
	MaxDepth int // Parse: 0 is DefaultMaxDepth
	MaxLine  int // EachLine: one line's bytes, without its ending
}

// DefaultMaxDepth is the nesting limit when Limits.MaxDepth is 0: far above
// any real reference (which nests five deep) and far below what would
// exhaust a goroutine stack.
const DefaultMaxDepth = 64

// Error is a fault at a position of an input.
type Error struct {
	File   string
	Line   int // 1-based
	Col    int // 1-based, in code points
	Offset int // byte offset
	Path   string
	Err    error
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d:%d: ", e.File, e.Line, e.Col)
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Is makes every fault at a position an input fault (inputerr.ErrInput).
func (e *Error) Is(target error) bool { return target == inputerr.ErrInput }

// Position returns the 1-based line and code-point column of byte offset off
// in data. An offset inside a multi-byte character counts that character.
func Position(data []byte, off int) (line, col int) {
	if off > len(data) {
		off = len(data)
	}
	if off < 0 {
		off = 0
	}
	line, start := 1, 0
	for i := 0; i < off; i++ {
		if data[i] == '\n' {
			line++
			start = i + 1
		}
	}
	return line, utf8.RuneCount(data[start:off]) + 1
}

// NewError builds an *Error at byte offset off of data.
func NewError(file string, data []byte, off int, path string, err error) *Error {
	line, col := Position(data, off)
	return &Error{File: file, Line: line, Col: col, Offset: off, Path: path, Err: err}
}

// Parse parses data, the whole content of file, as one strict JSON value.
func Parse(data []byte, file string, lim Limits) (*Value, error) {
	if lim.MaxBytes > 0 && len(data) > lim.MaxBytes {
		return nil, NewError(file, data, 0, "", fmt.Errorf("%w: %d bytes, the limit is %d", ErrTooLarge, len(data), lim.MaxBytes))
	}
	if !utf8.Valid(data) {
		off := inputerr.InvalidUTF8(data)
		return nil, NewError(file, data, off, "", fmt.Errorf("%w: byte 0x%02x", ErrInvalidUTF8, data[off]))
	}
	p := &parser{data: data, file: file, maxDepth: lim.MaxDepth, fold: cases.Fold()}
	if p.maxDepth <= 0 {
		p.maxDepth = DefaultMaxDepth
	}
	if len(data) >= 3 && string(data[:3]) == "\uFEFF" {
		p.pos = 3
	}
	p.skipSpace()
	if p.pos == len(data) {
		return nil, p.errAt(p.pos, "", fmt.Errorf("%w: empty input", ErrSyntax))
	}
	v, err := p.value("", 0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(data) {
		return nil, p.errAt(p.pos, "", fmt.Errorf("%w: data after the top-level value", ErrSyntax))
	}
	return v, nil
}

type parser struct {
	data     []byte
	file     string
	pos      int
	maxDepth int
	fold     cases.Caser
}

func (p *parser) errAt(off int, path string, err error) error {
	return NewError(p.file, p.data, off, path, err)
}

func (p *parser) syntax(path, format string, args ...any) error {
	return p.errAt(p.pos, path, fmt.Errorf("%w: %s", ErrSyntax, fmt.Sprintf(format, args...)))
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// found describes the byte at the current position for an error message.
func (p *parser) found() string {
	if p.pos >= len(p.data) {
		return "end of input"
	}
	r, _ := utf8.DecodeRune(p.data[p.pos:])
	return strconv.QuoteRune(r)
}

func (p *parser) value(path string, depth int) (*Value, error) {
	if depth >= p.maxDepth {
		return nil, p.errAt(p.pos, path, fmt.Errorf("%w (%d)", ErrTooDeep, p.maxDepth))
	}
	if p.pos >= len(p.data) {
		return nil, p.syntax(path, "unexpected end of input, expected a value")
	}
	start := p.pos
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(path, depth)
	case c == '[':
		return p.array(path, depth)
	case c == '"':
		s, err := p.str(path)
		if err != nil {
			return nil, err
		}
		return &Value{Kind: String, Offset: start, End: p.pos, Str: s}, nil
	case c == '-' || c >= '0' && c <= '9':
		lit, err := p.number(path)
		if err != nil {
			return nil, err
		}
		return &Value{Kind: Number, Offset: start, End: p.pos, Str: lit}, nil
	default:
		for _, w := range []struct {
			lit string
			v   Value
		}{{"true", Value{Kind: Bool, Bool: true}}, {"false", Value{Kind: Bool}}, {"null", Value{Kind: Null}}} {
			if strings.HasPrefix(string(p.data[p.pos:min(len(p.data), p.pos+5)]), w.lit) {
				p.pos += len(w.lit)
				v := w.v
				v.Offset, v.End = start, p.pos
				return &v, nil
			}
		}
		return nil, p.syntax(path, "unexpected %s, expected a value", p.found())
	}
}

// foldKey folds a key's case for the case-variant check: lower case for
// ASCII (what Unicode folding gives there), full case folding otherwise.
func foldKey(fold cases.Caser, key string) string {
	for i := 0; i < len(key); i++ {
		if key[i] >= utf8.RuneSelf {
			return fold.String(key)
		}
	}
	return strings.ToLower(key)
}

func (p *parser) object(path string, depth int) (*Value, error) {
	v := &Value{Kind: Object, Offset: p.pos}
	p.pos++                     // {
	seen := map[string]string{} // folded key -> key as written
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		v.End = p.pos
		return v, nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.syntax(path, "unexpected %s, expected a key string", p.found())
		}
		keyOff := p.pos
		key, err := p.str(path)
		if err != nil {
			return nil, err
		}
		child := JoinKey(path, key)
		f := foldKey(p.fold, key)
		if prev, dup := seen[f]; dup {
			if prev == key {
				return nil, p.errAt(keyOff, child, fmt.Errorf("%w %q", ErrDuplicateKey, key))
			}
			return nil, p.errAt(keyOff, child, fmt.Errorf("%w: %q differs from %q only in case", ErrDuplicateKey, key, prev))
		}
		seen[f] = key
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.syntax(child, "unexpected %s, expected ':' after the key", p.found())
		}
		p.pos++
		p.skipSpace()
		val, err := p.value(child, depth+1)
		if err != nil {
			return nil, err
		}
		v.Members = append(v.Members, Member{Key: key, KeyOffset: keyOff, Value: val})
		p.skipSpace()
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.data) && p.data[p.pos] == '}' {
			p.pos++
			v.End = p.pos
			return v, nil
		}
		return nil, p.syntax(path, "unexpected %s, expected ',' or '}'", p.found())
	}
}

func (p *parser) array(path string, depth int) (*Value, error) {
	v := &Value{Kind: Array, Offset: p.pos}
	p.pos++ // [
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		v.End = p.pos
		return v, nil
	}
	for {
		p.skipSpace()
		elem, err := p.value(JoinIndex(path, len(v.Elems)), depth+1)
		if err != nil {
			return nil, err
		}
		v.Elems = append(v.Elems, elem)
		p.skipSpace()
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.data) && p.data[p.pos] == ']' {
			p.pos++
			v.End = p.pos
			return v, nil
		}
		return nil, p.syntax(path, "unexpected %s, expected ',' or ']'", p.found())
	}
}

// str reads a string literal at p.pos (on its opening quote).
func (p *parser) str(path string) (string, error) {
	p.pos++ // "
	// Fast path: no escape, no control character, valid UTF-8 up to the
	// closing quote (most strings); the loop below handles the rest.
	if end := bytes.IndexByte(p.data[p.pos:], '"'); end >= 0 {
		seg := p.data[p.pos : p.pos+end]
		plain := bytes.IndexByte(seg, '\\') < 0 && utf8.Valid(seg)
		for i := 0; plain && i < len(seg); i++ {
			plain = seg[i] >= 0x20
		}
		if plain {
			p.pos += end + 1
			return string(seg), nil
		}
	}
	var b strings.Builder
	for {
		if p.pos >= len(p.data) {
			return "", p.syntax(path, "unterminated string")
		}
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			return b.String(), nil
		case c < 0x20:
			return "", p.syntax(path, "control character U+%04X in a string (write it as an escape)", c)
		case c == '\\':
			if p.pos+1 >= len(p.data) {
				return "", p.syntax(path, "unterminated string")
			}
			esc := p.data[p.pos+1]
			switch esc {
			case '"', '\\', '/':
				b.WriteByte(esc)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r, n, err := p.unicodeEscape(path)
				if err != nil {
					return "", err
				}
				b.WriteRune(r)
				p.pos += n
				continue
			default:
				return "", p.syntax(path, "invalid escape \\%c", esc)
			}
			p.pos += 2
		default:
			r, size := utf8.DecodeRune(p.data[p.pos:])
			b.WriteRune(r)
			p.pos += size
		}
	}
}

// unicodeEscape reads \uXXXX (and a following low surrogate when the first
// is a high one) at p.pos; it returns the rune and the bytes consumed.
func (p *parser) unicodeEscape(path string) (rune, int, error) {
	hex4 := func(at int) (rune, bool) {
		if at+6 > len(p.data) || p.data[at] != '\\' || p.data[at+1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(p.data[at+2:at+6]), 16, 32)
		return rune(v), err == nil
	}
	r, ok := hex4(p.pos)
	if !ok {
		return 0, 0, p.syntax(path, "invalid \\u escape")
	}
	switch {
	case r >= 0xDC00 && r <= 0xDFFF:
		return 0, 0, p.syntax(path, "lone low surrogate \\u%04X", r)
	case r >= 0xD800 && r <= 0xDBFF:
		lo, ok := hex4(p.pos + 6)
		if !ok || lo < 0xDC00 || lo > 0xDFFF {
			return 0, 0, p.syntax(path, "lone high surrogate \\u%04X", r)
		}
		return 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00), 12, nil
	}
	return r, 6, nil
}

// number reads a number literal by the RFC 8259 grammar and returns it.
func (p *parser) number(path string) (string, error) {
	start := p.pos
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.data[p.pos] == '-' {
		p.pos++
	}
	if p.pos < len(p.data) && p.data[p.pos] == '0' {
		p.pos++
	} else if digits() == 0 {
		return "", p.syntax(path, "invalid number")
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return "", p.syntax(path, "invalid number: no digit after '.'")
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return "", p.syntax(path, "invalid number: no digit in the exponent")
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] >= '0' && p.data[p.pos] <= '9') {
		return "", p.syntax(path, "invalid number: leading zero")
	}
	return string(p.data[start:p.pos]), nil
}

// JoinKey appends an object key to a path: "a.b", or "b" at the root. Keys
// that are not plain identifiers are quoted: a["odd key"].
func JoinKey(path, key string) string {
	plain := key != ""
	for _, r := range key {
		if !(r == '_' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			plain = false
			break
		}
	}
	if !plain {
		return path + "[" + strconv.Quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// JoinIndex appends an array index to a path: "a[3]".
func JoinIndex(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}
