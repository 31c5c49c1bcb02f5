package textnorm

import (
	"strings"
	"unicode/utf8"
)

// Alignment is the result of Align.
type Alignment struct {
	End      int   // page position after the last matched code point
	QuoteEnd int   // quote position after the last matched code point
	Level    Level // least relaxed level the matched part needed
}

func isHyphenRune(r rune) bool { return r == '-' || r == 0x2010 }

// lineBreaks are the code points that break a line (rule 4).
const lineBreaks = "\n\v\f\r\u0085\u2028\u2029"

// Align compares the quote's normalized code points [qFrom, qTo) with the
// page's from position at on, code point by code point, and stops at the
// first disagreement or at the end of either range. Both texts must come
// from the same profile.
//
// Beyond equal code points it accepts only line-end hyphenation read either
// way: a quote "-", "- " or " - " (pypdf's "oth -\ners") where the page has
// an optional hyphen (OptionalHyphenAt), a quote " " where the page has an
// optional space
// (OptionalSpaceAt), and a page "-" where the quote has an optional hyphen.
// Such a step is taken only inside the match and only when the code point
// after it agrees, so it never starts a match; it ends one only when the
// quote's last code point is a hyphen and the page has an optional hyphen
// there (a quote copied up to a line-end hyphen, "our dynamic com-"): the
// match then ends inside the page's joined word, at Hyphenation.
//
// The level charged for a pair of equal code points is Exact when the raw
// text behind them (and behind anything removed just before them) is
// identical, else the larger of the two sides' levels there: a quote with the
// same curly quotes as the page is Exact, one with straight quotes is
// Typography.
func Align(page *Text, at int, quote *Text, qFrom, qTo int) Alignment {
	page.checkRange(at, at)
	quote.checkRange(qFrom, qTo)
	i, j := at, qFrom
	bi, bj := page.ByteOffset(at), quote.ByteOffset(qFrom)
	np := page.Len()
	lvl := Exact
	for j < qTo && i < np {
		// Fast path: equal ASCII bytes whose levels are zero on both sides
		// (nothing relaxed behind them) cost no rune decoding.
		if pb, qb := page.s[bi], quote.s[bj]; pb == qb && pb < utf8.RuneSelf && page.lev[i]|quote.lev[j] == 0 {
			i, j, bi, bj = i+1, j+1, bi+1, bj+1
			continue
		}
		pc, pw := page.runeAt(bi)
		qc, qw := quote.runeAt(bj)
		if pc == qc {
			lvl = max(lvl, unitLevel(page, i, quote, j, i > at && j > qFrom))
			i, j, bi, bj = i+1, j+1, bi+pw, bj+qw
			continue
		}
		if i == at || j == qFrom {
			break
		}
		// The quote ends with the hyphen of a word the page hyphenated at
		// a line end ("our dynamic com-"): its last code point stands for
		// the optional hyphen, and the match ends inside the joined word.
		if j == qTo-1 && qTo == quote.Len() && isHyphenRune(qc) && page.OptionalHyphenAt(i) {
			j++ // the byte offset is not read past the loop
			lvl = max(lvl, Hyphenation)
			break
		}
		// Quote "-", "- " or, as pypdf writes a line-end hyphen, " - "
		// for the page's optional hyphen.
		if page.OptionalHyphenAt(i) && (isHyphenRune(qc) || qc == ' ' && j+1 < qTo && quote.s[bj+1] == '-') {
			j2, b2 := j+1, bj+qw
			if qc == ' ' {
				j2, b2 = j2+1, b2+1
			}
			if j2 < qTo && quote.s[b2] == ' ' {
				j2, b2 = j2+1, b2+1
			}
			if j2 < qTo {
				if c, _ := quote.runeAt(b2); c == pc {
					j, bj = j2, b2
					lvl = max(lvl, Hyphenation)
					continue
				}
			}
		}
		// Quote " " for the page's optional space after a dash.
		if page.OptionalSpaceAt(i) && qc == ' ' && j+1 < qTo {
			if c, _ := quote.runeAt(bj + 1); c == pc {
				j, bj = j+1, bj+1
				lvl = max(lvl, Hyphenation)
				continue
			}
		}
		// Page "-" for the quote's optional hyphen.
		if quote.OptionalHyphenAt(j) && isHyphenRune(pc) && i+1 < np {
			if c, _ := page.runeAt(bi + pw); c == qc {
				i, bi = i+1, bi+pw
				lvl = max(lvl, Hyphenation)
				continue
			}
		}
		break
	}
	return Alignment{End: i, QuoteEnd: j, Level: lvl}
}

// unitLevel charges one pair of equal normalized code points.
func unitLevel(p *Text, i int, q *Text, j int, inner bool) Level {
	// Fast path: an Exact code point is its raw text, and a zero gap level
	// means nothing was removed before it (checkInvariants holds both).
	pl, ql := p.lev[i], q.lev[j]
	if !inner {
		pl, ql = pl&ownMask, ql&ownMask
	}
	if pl == 0 && ql == 0 {
		return Exact
	}
	l := Exact
	if p.rawOwn(i) != q.rawOwn(j) {
		l = max(ownOf(p.lev[i]), ownOf(q.lev[j]))
	}
	if inner && p.rawGap(i) != q.rawGap(j) {
		l = max(l, gapOf(p.lev[i]), gapOf(q.lev[j]))
	}
	return l
}

// Match reports whether the whole quote matches the page from position at,
// with the end of the match in the page and the level it needed. An empty
// quote never matches.
func Match(page *Text, at int, quote *Text) (end int, level Level, ok bool) {
	a := Align(page, at, quote, 0, quote.Len())
	if quote.Len() == 0 || a.QuoteEnd != quote.Len() {
		return a.End, a.Level, false
	}
	return a.End, a.Level, true
}

// choice is one place in a text with the spellings Align treats alike there.
type choice struct {
	from, to int // byte range in the text replaced by alts[k]
	alts     []string
}

// Variants returns the spellings of t's normalized text that Align equates
// with a page at line-end hyphenation, to look up in a substring index
// before verifying each hit with Align (a hit alone proves nothing: a
// variant without a hyphen also finds pages that never had one). The first
// variant is t.String(). Each place contributes its alternatives:
//
//   - "x-y" (letters): also "xy", for a page's optional hyphen;
//   - a final "x-" (after a letter): also "x", for a quote that ends at a
//     page's line-end hyphen;
//   - "x- y" (letters): also "xy" and "x-y";
//   - "x - y" (letters) whose second space stands for a line break, as
//     pypdf writes a line-end hyphen: also "xy" and "x-y";
//   - "a- b" after any non-space a, not letters on both sides: also "a-b";
//   - an optional hyphen of t between x and y: also "x-y".
//
// At most limit variants are returned (at least one), in a fixed order;
// truncated reports that more exist.
func (t *Text) Variants(limit int) (vs []string, truncated bool) {
	limit = max(limit, 1)
	var cs []choice
	var prev, prev2 rune = -1, -1
	for bi, k := 0, 0; bi < len(t.s); k++ {
		r, w := t.runeAt(bi)
		if t.OptionalHyphenAt(k) {
			cs = append(cs, choice{bi, bi, []string{"", "-"}})
		}
		switch {
		case isHyphenRune(r) && prev == ' ' && isLetterOrMark(prev2) && t.RawBreakAt(k+1, lineBreaks):
			if n2, _ := t.peek(bi + w + 1); isLetter(n2) && bi+w < len(t.s) && t.s[bi+w] == ' ' {
				cs = append(cs, choice{bi - 1, bi + w + 1, []string{t.s[bi-1 : bi+w+1], "", t.s[bi : bi+w]}})
			}
		case isHyphenRune(r) && k > 0 && isLetterOrMark(prev):
			next, nw := t.peek(bi + w)
			switch {
			case next < 0:
				// A final "x-": the quote may end at a line-end hyphen.
				cs = append(cs, choice{bi, bi + w, []string{t.s[bi : bi+w], ""}})
			case isLetter(next):
				cs = append(cs, choice{bi, bi + w, []string{t.s[bi : bi+w], ""}})
			case next == ' ':
				if n2, _ := t.peek(bi + w + nw); isLetter(n2) {
					cs = append(cs, choice{bi, bi + w + 1, []string{t.s[bi : bi+w+1], "", t.s[bi : bi+w]}})
				}
			}
		case r == ' ' && k >= 2 && isDash(prev) && prev2 != ' ':
			next, _ := t.peek(bi + w)
			if next >= 0 && next != ' ' && !(isLetterOrMark(prev2) && isHyphenRune(prev) && isLetter(next)) {
				cs = append(cs, choice{bi, bi + 1, []string{" ", ""}})
			}
		}
		prev2, prev = prev, r
		bi += w
	}
	if len(cs) == 0 {
		return []string{t.s}, false // most quotes: the text itself, not a copy
	}
	total := 1
	for _, c := range cs {
		if total > limit {
			break
		}
		total *= len(c.alts)
	}
	if total > limit {
		truncated = true
		total = limit
	}
	pick := make([]int, len(cs))
	var sb strings.Builder
	for range total {
		sb.Reset()
		last := 0
		for n, c := range cs {
			sb.WriteString(t.s[last:c.from])
			sb.WriteString(c.alts[pick[n]])
			last = c.to
		}
		sb.WriteString(t.s[last:])
		vs = append(vs, sb.String())
		// Odometer, last place fastest.
		for n := len(cs) - 1; n >= 0; n-- {
			pick[n]++
			if pick[n] < len(cs[n].alts) {
				break
			}
			pick[n] = 0
		}
	}
	return vs, truncated
}

// peek decodes the code point at byte b, or -1 at the end.
func (t *Text) peek(b int) (rune, int) {
	if b >= len(t.s) {
		return -1, 0
	}
	if c := t.s[b]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(t.s[b:])
}
