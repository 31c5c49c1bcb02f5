package citations

import (
	"unicode"
	"unicode/utf8"

	"github.com/citecheck/citecheck/textnorm"
)

// The characters that carry meaning, which the punctuation and
// non_ascii_dropped levels never let differ (docs/locating.md states the
// same rules):
//
//   - anywhere: a math symbol (Unicode Sm: + < = > ± × ÷ ≤ ≥ ∈ ⇒, and a
//     dash whose raw character is the minus sign U+2212), a currency sign
//     (Sc), % ‰ ‱ ° ℃ ℉ § ¶ №, a prime (′ ″, which the quote profile
//     folds to ' and "), and U+FFFD, a glyph nobody could read;
//   - between two digits, where one character and spaces stand there at
//     most: every character, spaces included (a decimal or thousands
//     separator: "1.5", "1,000" and "1 000" are not "15" and "1000"),
//     but for a space beside a separator both sides have ("231– 3195");
//   - next to a number: a dash attached to it, or apart from it by spaces
//     only unless it is an em dash or a bar or "--" (a table's nil is no
//     minus sign); an opening parenthesis attached before it and a closing
//     one after it (an accounting negative); a decimal point or comma
//     attached before it (".5");
//   - a combining mark that negates (U+0338: "̸=" is ≠) or sits on no
//     letter;
//   - a digit or any other number character (², ½), which is a word
//     character and never dropped, a letter of a word of at most
//     maxUnitLen letters after a number (its unit: "5 μm" is not "5 m"),
//     and a letter of a word attached to a number after it (an index:
//     "ε2" is not "2").

// maxUnitLen is the longest word after a number that is read as its unit.
const maxUnitLen = 4

// ptext is a normalized text read code point by code point, with the raw
// text behind each code point at hand.
type ptext struct {
	t  *textnorm.Text
	rs []rune
	// signs marks, in an alternative text (altsymbols.go), the code points
	// where the page text has a character that carries meaning anywhere
	// (signAnywhere): "!" where pdfminer reads "→" by its code is the
	// arrow, and carries its meaning; nil elsewhere.
	signs []bool
}

func newPtext(t *textnorm.Text) *ptext { return &ptext{t: t, rs: []rune(t.String())} }

// isWordChar is a letter, digit, mark or other number character: what the
// two levels compare one for one.
func isWordChar(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
	}
	return isWordRune(r) || unicode.IsNumber(r)
}

// rawRune is the first raw code point behind normalized code point i.
func (p *ptext) rawRune(i int) rune {
	r, _ := utf8.DecodeRuneInString(p.t.RawOf(i))
	return r
}

// nonASCII reports whether an ASCII-only pipeline loses code point i:
// it is not ASCII, or nothing of its raw text is (the letters of a
// ligature, a space that was a no-break space).
func (p *ptext) nonASCII(i int) bool {
	if p.rs[i] >= utf8.RuneSelf {
		return true
	}
	raw := p.t.RawOf(i)
	for k := 0; k < len(raw); k++ {
		if raw[k] < utf8.RuneSelf {
			return false
		}
	}
	return raw != ""
}

// residue is the ASCII letter an ASCII-only pipeline keeps of word
// character i, which is not ASCII, where the page stores it apart from its
// accent (TeX's "¨u", a decomposed "u" and its accent): removing the
// stored text's non-ASCII characters leaves "u". A precomposed "ü" leaves
// nothing: reading it "u", as NFKD does, would drop an accent, which
// distinguishes words (schön, schon). 0 when there is none, or it carries
// meaning.
//
// A combining mark has none: its raw text may hold the letter it sits on
// ("˜X" read "X" and U+0303), which the letter itself already is.
func (p *ptext) residue(i int) rune {
	r := p.rs[i]
	if r < utf8.RuneSelf || !isWordChar(r) || unicode.IsMark(r) || p.significantWord(i) {
		return 0
	}
	for _, c := range p.t.RawOf(i) {
		if c < utf8.RuneSelf && isWordChar(c) {
			return c
		}
	}
	return 0
}

// signAnywhere reports the characters that carry meaning wherever they
// stand.
func (p *ptext) signAnywhere(i int) bool {
	if p.signs != nil && p.signs[i] {
		return true
	}
	switch r := p.rs[i]; r {
	case '\'', '"':
		raw := p.rawRune(i)
		return raw == 0x2032 || raw == 0x2033 || raw == 0x2034
	case '-':
		return unicode.Is(unicode.Sm, p.rawRune(i))
	default:
		return signRune(r)
	}
}

// unitSign reports the signs that, attached after a number, are its unit:
// a currency, %, ‰, ‱, °, ℃, ℉. (A math symbol after it, "6=" or "5<",
// starts what follows.)
func unitSign(r rune) bool {
	switch r {
	case '%', 0x2030, 0x2031, 0xB0, 0x2103, 0x2109:
		return true
	}
	return unicode.Is(unicode.Sc, r)
}

// signRune reports the code points that carry meaning wherever they stand
// by themselves, whatever raw text stands behind them.
func signRune(r rune) bool {
	switch r {
	case '%', 0x2030, 0x2031, 0xB0, 0x2103, 0x2109, 0xA7, 0xB6, 0x2116, unmappedRune:
		return true
	}
	return r > ' ' && unicode.In(r, unicode.Sm, unicode.Sc)
}

// wordNear returns the nearest word character from i in direction dir
// (-1 or 1), -1 when none, and whether no space lies between them.
func (p *ptext) wordNear(i, dir int) (int, bool) {
	attached := true
	for k := i + dir; k >= 0 && k < len(p.rs); k += dir {
		switch r := p.rs[k]; {
		case isWordChar(r):
			return k, attached
		case r == ' ':
			attached = false
		}
	}
	return -1, false
}

// onlySpaces reports whether nothing but spaces lies between i and k.
func (p *ptext) onlySpaces(i, k int) bool {
	a, b := min(i, k)+1, max(i, k)
	for j := a; j < b; j++ {
		if p.rs[j] != ' ' {
			return false
		}
	}
	return true
}

// separator reports whether what stands between two digits at l and r
// may be a number's separator: one character, spaces around it or not
// ("1.5", "1 000", "2019 – 2020"), not a number's end and the next one's
// start ("77. [88").
func (p *ptext) separator(l, r int) bool {
	other, spaces := 0, 0
	for k := l + 1; k < r; k++ {
		if p.rs[k] == ' ' {
			spaces++
		} else {
			other++
		}
	}
	return other <= 1 && spaces <= 2
}

// wideDash reports a dash that reads as a dash, not a sign: an em dash or
// a bar, or one of a run of hyphens ("--").
func (p *ptext) wideDash(i int) bool {
	if raw := p.rawRune(i); raw == 0x2014 || raw == 0x2015 {
		return true
	}
	return i > 0 && p.rs[i-1] == '-' || i+1 < len(p.rs) && p.rs[i+1] == '-'
}

// significant reports whether code point i, not a word character, carries
// meaning (the rules above): a difference there is never relaxed.
func (p *ptext) significant(i int) bool {
	if p.signAnywhere(i) {
		return true
	}
	l, la := p.wordNear(i, -1)
	r, ra := p.wordNear(i, 1)
	ld, rd := l >= 0 && isDigitRune(p.rs[l]), r >= 0 && isDigitRune(p.rs[r])
	switch {
	case ld && rd && p.separator(l, r):
		return true
	case !ld && !rd:
		return false
	}
	switch p.rs[i] {
	case '-':
		attached := ld && la || rd && ra
		spaced := ld && p.onlySpaces(l, i) || rd && p.onlySpaces(i, r)
		return attached || spaced && !p.wideDash(i)
	case '(', '.', ',':
		return rd && ra
	case ')':
		return ld && la
	}
	return false
}

// significantWord reports whether word character i may never be dropped:
// a number character, a combining mark that negates or sits on no letter
// ("̸=" reads ≠), a letter of a short word after a number (a unit), or of
// a word attached to a number after it (a name with an index, "ε2").
func (p *ptext) significantWord(i int) bool {
	if unicode.IsNumber(p.rs[i]) {
		return true
	}
	if unicode.IsMark(p.rs[i]) && (negationMark(p.rs[i]) || i == 0 || !unicode.IsLetter(p.rs[i-1])) {
		return true // a mark on a symbol or a space: "̸=" is ≠
	}
	s, e := i, i+1
	for s > 0 && isWordChar(p.rs[s-1]) && !unicode.IsNumber(p.rs[s-1]) {
		s--
	}
	for e < len(p.rs) && isWordChar(p.rs[e]) && !unicode.IsNumber(p.rs[e]) {
		e++
	}
	if e < len(p.rs) && unicode.IsNumber(p.rs[e]) {
		return true // attached to the number after it: a name with an index ("ε2")
	}
	k := s - 1
	for k >= 0 && p.rs[k] == ' ' {
		k--
	}
	return e-s <= maxUnitLen && k >= 0 && (unicode.IsNumber(p.rs[k]) || p.signAnywhere(k))
}

// negationMark reports the combining overlays that negate a symbol.
func negationMark(r rune) bool { return r == 0x0337 || r == 0x0338 || r == 0x20D2 || r == 0x20E5 }

// droppable reports whether an ASCII-only pipeline may have dropped code
// point i without changing what the text says.
func (p *ptext) droppable(i int) bool {
	if !p.nonASCII(i) {
		return false
	}
	if isWordChar(p.rs[i]) {
		return !p.significantWord(i)
	}
	return !p.significant(i)
}
