package fontenc

import (
	"strconv"
	"unicode"
)

// NumberedNames reads glyph names that spell a number, as some Type 3 fonts
// and converters name their glyphs: "G41" (hex, three characters), "g0041"
// (hex, five), and "C65", "c65", "C101" (decimal, three or four
// characters). An encoding in which one such C or c name is not decimal
// ("C4b") numbers all of its C and c names in hex. pdf.js reads these names
// the same way (fonts.js, _simpleFontToUnicode); poppler has a like rule.
// The AGL and the TeX list are asked first: a name they know ("G" or
// "Cdot") is never read as a number.
type NumberedNames struct{ hexC bool }

// NewNumberedNames decides, from the whole encoding, how its C and c names
// count.
func NewNumberedNames(enc *Encoding) NumberedNames {
	var n NumberedNames
	for _, name := range enc {
		if (len(name) == 3 || len(name) == 4) && (name[0] == 'C' || name[0] == 'c') {
			if _, err := strconv.ParseUint(name[1:], 10, 32); err != nil {
				if _, err := strconv.ParseUint(name[1:], 16, 32); err == nil {
					n.hexC = true
				}
			}
		}
	}
	return n
}

// Unicode returns the text of glyph name at code. The number is the
// glyph's code point, except that one in 0x80..0x9F (a C1 control) that is
// the glyph's own code is read through WinAnsi, the likelier intent ("C96"
// at code 150 is an en dash). It reports false for a name that spells no
// number, or a number that is no printable character.
func (n NumberedNames) Unicode(name string, code int) (string, bool) {
	var digits string
	base := 10
	switch {
	case len(name) == 3 && name[0] == 'G':
		digits, base = name[1:], 16
	case len(name) == 5 && name[0] == 'g':
		digits, base = name[1:], 16
	case (len(name) == 3 || len(name) == 4) && (name[0] == 'C' || name[0] == 'c'):
		digits = name[1:]
		if n.hexC {
			base = 16
		}
	default:
		return "", false
	}
	v, err := strconv.ParseUint(digits, base, 32)
	if err != nil {
		return "", false
	}
	r := rune(v)
	if 0x80 <= r && r <= 0x9F && int(r) == code {
		if g := winAnsiEncoding[code]; g != "" {
			return GlyphUnicode(g, false)
		}
	}
	if r == 0 || r > unicode.MaxRune || !unicode.IsPrint(r) && !unicode.IsSpace(r) {
		return "", false
	}
	return string(r), true
}
