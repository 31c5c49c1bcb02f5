package textnorm

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// TeX and other typesetters without accented glyphs draw an accented letter
// as two glyphs, a spacing accent and the letter (a dotless i or j under an
// accent), overlapping: extractors that read glyphs one by one store
// "na¨ıve" and "Fac¸ade", poppler composes them by position ("naı̈ve"),
// MuPDF and people write "naïve". Rule (quote/v2, Typography): a spacing
// accent next to a letter becomes the combining accent on that letter, a
// dotless i or j carrying a combining accent becomes i or j, and the result
// is NFC. The text holds no positions, so the letter is chosen by these
// rules, in order:
//
//  1. a dotless i or j next to the accent (TeX draws ¨ı, some producers ı¨);
//  2. the one neighbour with which the accent composes to a precomposed
//     letter (ˆ after the e of "Ageˆncia" composes with e, not with n);
//  3. for an accent below (cedilla, ogonek) the letter before it, for an
//     accent above the letter after it (TeX's \accent draws the accent
//     first; its cedilla comes after the letter);
//  4. the only letter next to it.
//
// An accent with no letter beside it, or with a space between them, is
// kept as it is.

// spacingAccent returns the combining accent that a spacing accent stands
// for, or 0. The table is poppler's (TextOutputDev's combiningTable) with
// the ogonek added.
func spacingAccent(r rune) rune {
	switch r {
	case 0x0060:
		return 0x0300 // grave
	case 0x00A8:
		return 0x0308 // dieresis
	case 0x00AF:
		return 0x0304 // macron
	case 0x00B4:
		return 0x0301 // acute
	case 0x00B8:
		return 0x0327 // cedilla
	case 0x02C6:
		return 0x0302 // circumflex
	case 0x02C7:
		return 0x030C // caron
	case 0x02D8:
		return 0x0306 // breve
	case 0x02D9:
		return 0x0307 // dot above
	case 0x02DA:
		return 0x030A // ring above
	case 0x02DB:
		return 0x0328 // ogonek
	case 0x02DC:
		return 0x0303 // tilde
	case 0x02DD:
		return 0x030B // double acute
	}
	return 0
}

// accentBelow reports the combining accents drawn under their letter, which
// follow it in TeX's output.
func accentBelow(m rune) bool { return m == 0x0327 || m == 0x0328 }

// dotless maps a dotless i or j to the letter it is under an accent.
func dotless(r rune) rune {
	switch r {
	case 0x0131:
		return 'i'
	case 0x0237:
		return 'j'
	}
	return 0
}

// precomposes reports whether letter and combining accent m compose to one
// precomposed code point.
func precomposes(letter, m rune) bool {
	if d := dotless(letter); d != 0 {
		letter = d
	}
	s := norm.NFC.String(string(letter) + string(m))
	return utf8.RuneCountInString(s) == 1
}

// composeAccents applies the accent rule to the normalized text (out and its
// maps), before the final NFC pass. A composed letter maps to the raw span
// of the letter, its marks and its accents together, and is charged
// Typography. Spacing accents and combining marks side by side form a run;
// each accent of a run chooses between the letters at its two ends, and the
// choices never cross (once one accent takes the letter after the run, the
// rest do too); a combining mark goes with the accent before it. So one pass
// leaves no spacing accent beside a letter: the rule is idempotent.
func (b *builder) composeAccents() {
	rs := []rune(string(b.out))
	n := len(rs)
	if n != len(b.lev) {
		return // cannot happen: one map entry per code point
	}
	units := accentUnits(rs, accentOwners(rs))
	if len(units) == 0 {
		return
	}
	out := make([]byte, 0, len(b.out))
	nrs := make([]int32, 0, n)
	nre := make([]int32, 0, n)
	nlev := make([]uint8, 0, n)
	u := 0
	for i := 0; i < n; {
		if u >= len(units) || i < units[u].from {
			out = utf8.AppendRune(out, rs[i])
			nrs, nre, nlev = append(nrs, b.rs[i]), append(nre, b.re[i]), append(nlev, b.lev[i])
			i++
			continue
		}
		un := units[u]
		u++
		own := Typography
		for k := un.from; k < un.to; k++ {
			own = max(own, ownOf(b.lev[k]))
			if k > un.from {
				own = max(own, gapOf(b.lev[k]))
			}
		}
		first := true
		for _, c := range un.composed(rs) {
			out = utf8.AppendRune(out, c)
			nrs, nre = append(nrs, b.rs[un.from]), append(nre, b.re[un.to-1])
			l := uint8(own)
			if first {
				l |= b.lev[un.from] &^ ownMask
				first = false
			}
			nlev = append(nlev, l)
		}
		i = un.to
	}
	b.out, b.rs, b.re, b.lev = out, nrs, nre, nlev
	b.modified, b.nonASCII = true, true
}

// isMark reports a combining mark (Mn) of the combining blocks.
func isMark(r rune) bool { return r >= 0x300 && unicode.Is(unicode.Mn, r) }

// accentOwners returns, for each code point of rs, the letter a run's
// accent or mark goes to, or -1. Spacing accents and combining marks side
// by side form a run; each accent of a run chooses between the letters at
// its two ends, the choices never cross, and a combining mark goes with
// the accent before it.
func accentOwners(rs []rune) []int {
	n := len(rs)
	owner := make([]int, n)
	for i := range owner {
		owner[i] = -1
	}
	for i := 0; i < n; {
		if spacingAccent(rs[i]) == 0 && !isMark(rs[i]) {
			i++
			continue
		}
		a, accents := i, false
		for i < n && (spacingAccent(rs[i]) != 0 || isMark(rs[i])) {
			accents = accents || spacingAccent(rs[i]) != 0
			i++
		}
		l, r := a-1, i
		if l >= 0 && !unicode.IsLetter(rs[l]) {
			l = -1
		}
		if r >= n || !unicode.IsLetter(rs[r]) {
			r = -1
		}
		if !accents || (l < 0 && r < 0) {
			continue
		}
		right, cur := false, l
		for j := a; j < i; j++ {
			if m := spacingAccent(rs[j]); m != 0 {
				t := chooseLetter(rs, l, r, m)
				if right || t == r {
					t, right = r, true
				}
				cur = t
			}
			owner[j] = cur
		}
	}
	return owner
}

// accentUnit is a letter (at letter) with the accents and marks it takes,
// rs[from:to].
type accentUnit struct{ from, letter, to int }

// accentUnits returns the units to compose, in order: a letter with what
// it takes; a dotless i or j with marks above.
func accentUnits(rs []rune, owner []int) []accentUnit {
	n := len(rs)
	var units []accentUnit
	for k := 0; k < n; k++ {
		if !unicode.IsLetter(rs[k]) {
			continue
		}
		from, to := k, k+1
		for from > 0 && owner[from-1] == k {
			from--
		}
		owned := from < k
		for to < n && (owner[to] == k || isMark(rs[to]) && owner[to] < 0) {
			owned = owned || owner[to] == k
			to++
		}
		if !owned && (dotless(rs[k]) == 0 || !above(rs, k+1, to)) {
			continue
		}
		units = append(units, accentUnit{from, k, to})
	}
	return units
}

// composed is the unit's letter with its accents as combining marks, in
// NFC: a dotless i or j under an accent above is the letter with its dot.
func (un accentUnit) composed(rs []rune) string {
	base := rs[un.letter]
	if d := dotless(base); d != 0 && above(rs, un.from, un.to) {
		base = d
	}
	seq := []rune{base}
	for k := un.from; k < un.to; k++ {
		if k == un.letter {
			continue
		}
		if m := spacingAccent(rs[k]); m != 0 {
			seq = append(seq, m)
		} else {
			seq = append(seq, rs[k])
		}
	}
	return norm.NFC.String(string(seq))
}

// above reports whether rs[from:to] holds a spacing accent or a combining
// mark drawn above its letter (not below it).
func above(rs []rune, from, to int) bool {
	for _, r := range rs[from:to] {
		if m := spacingAccent(r); m != 0 {
			r = m
		}
		switch norm.NFC.PropertiesString(string(r)).CCC() {
		case 202, 214, 218, 220, 222, 233: // attached below, below
			continue
		}
		if r >= 0x300 {
			return true
		}
	}
	return false
}

// chooseLetter picks the letter at l or r (-1 when not a letter) for the
// combining accent m, by the rules above.
func chooseLetter(rs []rune, l, r int, m rune) int {
	switch {
	case l < 0:
		return r
	case r < 0:
		return l
	case dotless(rs[r]) != 0:
		return r
	case dotless(rs[l]) != 0:
		return l
	}
	pl, pr := precomposes(rs[l], m), precomposes(rs[r], m)
	switch {
	case pl && !pr:
		return l
	case pr && !pl:
		return r
	case accentBelow(m):
		return l
	}
	return r
}
