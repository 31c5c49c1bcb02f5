package citations

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/citecheck/citecheck/textnorm"
)

// Spacing accents after their letter. The quote profile composes a
// spacing accent between two letters that both take it with the letter
// after it, as TeX draws an accent above before its letter ("na¨ıve",
// textnorm's accents.go). Some producers draw the letter first: the
// Federal Register stores "Aviac¸a˜o" for "Aviação", which the profile
// reads "Aviaçaõ". A quote holding a letter with an accent above followed
// by a letter that takes the same accent ("ão") is therefore also looked
// up with the accent moved onto the next letter ("aõ"), at the normalized
// levels, and such a match counts only where the page's raw text has a
// spacing accent there: a page that prints "aõ" itself does not hold "ão".
// It is charged Typography, the level of the profile's accent rule.

// accentsAbove are the combining accents of textnorm's spacing accents
// that are drawn above their letter.
var accentsAbove = map[rune]bool{
	0x0300: true, 0x0301: true, 0x0302: true, 0x0303: true, 0x0304: true, 0x0306: true,
	0x0307: true, 0x0308: true, 0x030A: true, 0x030B: true, 0x030C: true,
}

// accentShifted returns the quote's normalized text with every accent
// above a letter moved onto the next letter where that one takes it too,
// normalized again, or nil when no accent moves.
func (ix *Index) accentShifted(qt *textnorm.Text) *textnorm.Text {
	if asciiText(qt.String()) {
		return nil // no accent: most quotes
	}
	rs := []rune(qt.String())
	moved := false
	for i := 0; i+1 < len(rs); i++ {
		if rs[i] < 0xC0 {
			continue // below the first letter with an accent, À
		}
		d := []rune(norm.NFD.String(string(rs[i])))
		if len(d) != 2 || !accentsAbove[d[1]] || !unicode.IsLetter(rs[i+1]) {
			continue
		}
		next := []rune(norm.NFC.String(string(rs[i+1]) + string(d[1])))
		if len(next) != 1 {
			continue
		}
		rs[i], rs[i+1] = d[0], next[0]
		moved = true
		i++
	}
	if !moved {
		return nil
	}
	return ix.profile.Normalize(string(rs))
}

// spacingAccentIn reports whether s holds one of the spacing accents the
// profile composes.
func spacingAccentIn(s string) bool {
	return strings.ContainsAny(s, "`\u00a8\u00af\u00b4\u00b8\u02c6\u02c7\u02d8\u02d9\u02da\u02db\u02dc\u02dd")
}

// accentAfterLocs keeps the locations whose page text has a spacing accent
// in its raw text, charged at least Typography.
func (ix *Index) accentAfterLocs(locs []loc) []loc {
	out := locs[:0]
	for _, l := range locs {
		ok := false
		for _, p := range l.parts {
			t := ix.text(p.page)
			a, b := t.RawSpan(p.from, p.to)
			ok = ok || spacingAccentIn(t.RawSlice(a, b))
		}
		if ok {
			l.level = max(l.level, Typography)
			out = append(out, l)
		}
	}
	return out
}
