package fidelity

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A Variant is how a pipeline or a person changes a quote on its way to a
// citation: the window as the locator receives it. Only windows a variant
// changes are measured under it.
type Variant struct {
	Name  string
	Apply func(string) string
	// Drops is true for a variant that only drops characters, which may
	// drop one that carries meaning (MeaningDropped); the others write a
	// dash or hyphen otherwise, which the locator compares as a dash or a
	// word break, never as a sign.
	Drops bool
}

// Variants are the changes bench-fidelity measures beside the windows as
// copied: non-ASCII characters dropped, as text.encode("ascii", "ignore")
// drops them; a hyphen between letters written as a space; an em or en
// dash written as "--".
var Variants = []Variant{
	{"ascii", DropNonASCII, true},
	{"hyphen_space", HyphenAsSpace, false},
	{"dash_ascii", DashAsHyphens, false},
}

// DropNonASCII removes every code point above U+007F.
func DropNonASCII(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= utf8.RuneSelf {
			return -1
		}
		return r
	}, s)
}

func isHyphen(r rune) bool { return r == '-' || r == 0x2010 || r == 0x2011 }

// HyphenAsSpace writes every hyphen that stands between two letters as a
// space ("first-quarter" becomes "first quarter").
func HyphenAsSpace(s string) string {
	rs := []rune(s)
	for i := 1; i+1 < len(rs); i++ {
		if isHyphen(rs[i]) && unicode.IsLetter(rs[i-1]) && unicode.IsLetter(rs[i+1]) {
			rs[i] = ' '
		}
	}
	return string(rs)
}

// DashAsHyphens writes every em and en dash as "--".
func DashAsHyphens(s string) string {
	return strings.NewReplacer("\u2014", "--", "\u2013", "--").Replace(s)
}

// MeaningDropped reports whether turning w into v (a variant of it, which
// only drops characters) dropped, inside what v keeps (not at
// its edges, which only shortens it), a character that carries meaning: a
// math symbol (a sign, a comparison), a currency sign, a number character
// other than a decimal digit (², ½), a degree, per-cent or per-mille sign,
// a prime, U+FFFD (an unknown glyph); a dash next to a number (a minus
// sign: attached to it, or apart from it by spaces but for an em dash);
// one character that stood between two digits, spaces around it or not
// (a decimal or thousands separator); a letter of a word of at most four letters after a number
// (a unit: "5 μm" read "5 m") or of a word attached to a digit ("ε2").
// Such a variant no longer says what the page says: the locator must not
// find it.
func MeaningDropped(w, v string) bool {
	if w == v {
		return false
	}
	rs := []rune(w)
	vs := []rune(v)
	kept := make([]bool, len(rs))
	j := 0
	for i, r := range rs {
		if j < len(vs) && vs[j] == r {
			kept[i] = true
			j++
		}
	}
	first, last := -1, -1
	for i, k := range kept {
		if k && !unicode.IsSpace(rs[i]) {
			last = i
			if first < 0 {
				first = i
			}
		}
	}
	for i, r := range rs {
		if kept[i] || (i < first || i > last) && !attachedEdge(rs, kept, i, first, last) {
			continue
		}
		if meaningRune(r) || negationMark(rs, i) || betweenDigits(rs, i) || signDash(rs, i) || unitLetter(rs, i) {
			return true
		}
	}
	return false
}

// attachedEdge reports whether rs[i], outside the kept text first..last,
// is attached to it (no space between): what the locator compares at a
// passage's edges, since a dropped "−" before "4" or "″" before "(t)"
// changes what the quote's first word says.
func attachedEdge(rs []rune, kept []bool, i, first, last int) bool {
	if first < 0 {
		return false
	}
	lo, hi := i+1, first
	if i > last {
		lo, hi = last+1, i
	}
	for k := lo; k < hi; k++ {
		if kept[k] || unicode.IsSpace(rs[k]) {
			return false
		}
	}
	return !unicode.IsSpace(rs[i])
}

// negationMark reports a combining mark that negates a symbol or sits on
// no letter ("̸=" reads ≠): the locator never drops one.
func negationMark(rs []rune, i int) bool {
	if !unicode.IsMark(rs[i]) {
		return false
	}
	switch rs[i] {
	case 0x0337, 0x0338, 0x20D2, 0x20E5:
		return true
	}
	return i == 0 || !unicode.IsLetter(rs[i-1])
}

// DropMeaningless removes the code points above U+007F that carry no
// meaning (MeaningDropped's rules): a text so changed holds what an
// ASCII-only pipeline may honestly cite of it. A variant that dropped a
// minus sign is no fabrication where another passage of the document
// reads without it ("1:\n4", a figure's tick beside the text).
func DropMeaningless(s string) string {
	rs := []rune(s)
	out := make([]rune, 0, len(rs))
	for i, r := range rs {
		if r < utf8.RuneSelf || meaningRune(r) || betweenDigits(rs, i) || signDash(rs, i) || unitLetter(rs, i) {
			out = append(out, r)
		}
	}
	return string(out)
}

func meaningRune(r rune) bool {
	switch r {
	case '%', 0x2030, 0x2031, 0xB0, 0x2103, 0x2109, 0x2032, 0x2033, 0x2034, utf8.RuneError, 0xA7, 0xB6, 0x2116:
		return true
	}
	if unicode.IsDigit(r) {
		return false
	}
	return unicode.In(r, unicode.Sm, unicode.Sc, unicode.No, unicode.Nl)
}

// betweenDigits reports whether rs[i] lies inside a gap between two
// decimal digits that may be a number's separator: one character, spaces
// around it or not.
func betweenDigits(rs []rune, i int) bool {
	l, r := i-1, i+1
	for l >= 0 && !unicode.IsDigit(rs[l]) && !unicode.IsLetter(rs[l]) {
		l--
	}
	for r < len(rs) && !unicode.IsDigit(rs[r]) && !unicode.IsLetter(rs[r]) {
		r++
	}
	if l < 0 || r >= len(rs) || !unicode.IsDigit(rs[l]) || !unicode.IsDigit(rs[r]) {
		return false
	}
	other, spaces := 0, 0
	for _, c := range rs[l+1 : r] {
		if unicode.IsSpace(c) {
			spaces++
		} else {
			other++
		}
	}
	return other <= 1 && spaces <= 2
}

// signDash reports whether rs[i] is a dash next to a digit: attached to
// it, or apart from it by spaces only and not an em dash or a bar.
func signDash(rs []rune, i int) bool {
	if !unicode.Is(unicode.Pd, rs[i]) {
		return false
	}
	for _, dir := range []int{-1, 1} {
		spaced := false
		k := i + dir
		for k >= 0 && k < len(rs) && unicode.IsSpace(rs[k]) {
			spaced = true
			k += dir
		}
		if k >= 0 && k < len(rs) && unicode.IsDigit(rs[k]) && (!spaced || rs[i] != 0x2014 && rs[i] != 0x2015) {
			return true
		}
	}
	return false
}

// unitLetter reports whether rs[i] is a letter of a word of at most four
// letters that follows a digit, directly or after spaces, or of a word
// attached to a digit after it ("ε2").
func unitLetter(rs []rune, i int) bool {
	if !unicode.IsLetter(rs[i]) {
		return false
	}
	s, e := i, i+1
	for s > 0 && unicode.IsLetter(rs[s-1]) {
		s--
	}
	for e < len(rs) && unicode.IsLetter(rs[e]) {
		e++
	}
	if e < len(rs) && unicode.IsDigit(rs[e]) {
		return true
	}
	k := s - 1
	for k >= 0 && unicode.IsSpace(rs[k]) {
		k--
	}
	return e-s <= 4 && k >= 0 && (unicode.IsDigit(rs[k]) || meaningRune(rs[k]))
}
