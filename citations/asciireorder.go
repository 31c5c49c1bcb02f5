package citations

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/citecheck/citecheck/textnorm"
)

// Reordered ASCII copies. A quote copied from an extractor that reads a
// page's lines in another order (the reordered level) and then passed
// through an ASCII-only pipeline needs both at once: pdfminer's
// "DCTEncode\nThe\nﬁlter compresses" becomes "DCTEncode\nThe\n lter
// compresses". Once every other level found nothing, an ASCII quote of
// several lines is looked up by the reordered level's rules in the named
// document's pages read as an ASCII-only copy of them: the characters
// non_ascii_dropped may drop left out (an accent stored apart from its
// letter leaving the letter; a ligature's letters left out, as a copy of
// the stored text loses them, or kept, as a copy of an extractor that
// printed them), every other character kept, so that a sign, a unit or a
// separator the quote lacks still keeps it from matching. Candidate pages
// are those whose ASCII skeleton (asciiscan.go) holds every line's; a
// match is reported at reordered, on the page text, never a pass.

// findReorderedASCII looks an ASCII quote of several lines up so.
func (ix *Index) findReorderedASCII(qt *textnorm.Text, doc int) []loc {
	if doc < 0 || !asciiText(qt.Raw()) {
		return nil
	}
	units, lines := quoteUnits(qt)
	if !lines || len(units) < 2 {
		return nil
	}
	qs := qt.String()
	skels := make([]string, len(units))
	for k, u := range units {
		skels[k] = asciiWord(qs[u.from:u.to])
	}
	ad := ix.asciiDoc(doc)
	cands, listed := ix.skeletonPages(doc, longest(skels))
	var locs []loc
	tried := 0
	for _, sg := range ad.segs {
		if sg.target < 0 || int(sg.target) >= len(ix.pages) || tried == maxReorderPages {
			continue // a reading order or an alternative: the page itself is read
		}
		if sg.skel && listed && !cands.has(sg.target) {
			continue // its skeleton, its ASCII skeleton, lacks the longest line's
		}
		if !holdsAll(ix.segText(ad, sg), skels) {
			continue
		}
		tried++
		p := int(sg.target)
		rd := ix.asciiReading(p, sg.stored)
		if !holdsAll(rd.t.String(), unitStrings(qs, units)) {
			continue
		}
		if l, ok := ix.reorderOnText(qt, units, true, p, rd.t); ok {
			if l, ok = rd.onPage(l); ok {
				locs = append(locs, l)
			}
		}
	}
	ix.sortLocs(locs)
	return ix.dedupLocs(locs)
}

// longest returns the longest of ss.
func longest(ss []string) string {
	var l string
	for _, s := range ss {
		if len(s) > len(l) {
			l = s
		}
	}
	return l
}

// skeletonPages lists the pages of document doc whose skeleton holds pat,
// looked up in the skeleton index; listed is false where it cannot list
// them (pat empty, or more hits than maxHits).
func (ix *Index) skeletonPages(doc int, pat string) (pages smallSet[int32], listed bool) {
	if pat == "" || !asciiShortcut {
		return pages, false
	}
	sc := ix.within(doc)
	for s := sc.textFrom; s < sc.textTo; s++ {
		hs, capped := ix.shards[s].sk.hits(ix, bytesOf(pat))
		if capped {
			return pages, false
		}
		for _, h := range hs {
			pages.add(h.target)
		}
	}
	return pages, true
}

// asciiWord is s's ASCII letters and digits: a line's ASCII skeleton.
func asciiWord(s string) string {
	return strings.Map(func(r rune) rune {
		if r < utf8.RuneSelf && isWordChar(r) {
			return r
		}
		return -1
	}, s)
}

func holdsAll(s string, subs []string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}

func unitStrings(qs string, units []unit) []string {
	out := make([]string, len(units))
	for k, u := range units {
		out[k] = qs[u.from:u.to]
	}
	return out
}

// asciiReading is a page read as an ASCII-only copy of it: t, normalized
// from a text whose code point k is the page's normalized code point
// pos[k] (raw offsets, as textnorm counts them, are code points).
type asciiReading struct {
	t    *textnorm.Text
	pos  []int32
	page int
	pt   *ptext // the page text
}

// asciiReading reads page p as an ASCII-only copy of it; with stored, a
// character stored as one non-ASCII code point loses its letters too (a
// ligature), as asciiSkeleton reads it.
func (ix *Index) asciiReading(p int, stored bool) *asciiReading {
	pt := newPtext(ix.text(p))
	var b strings.Builder
	pos := make([]int32, 0, len(pt.rs))
	put := func(r rune, i int) {
		b.WriteRune(r)
		pos = append(pos, int32(i))
	}
	for i, r := range pt.rs {
		switch {
		case r == ' ' && pt.t.RawBreakAt(i, lineBreaks):
			put('\n', i)
		case r < utf8.RuneSelf && !(stored && pt.nonASCII(i)):
			put(r, i)
		case pt.residue(i) != 0:
			put(pt.residue(i), i)
		case !pt.droppable(i):
			put(r, i)
		}
	}
	return &asciiReading{t: ix.profile.Normalize(b.String()), pos: pos, page: p, pt: pt}
}

// pieceOK reports whether page range from..to may be a piece of an ASCII
// copy: it holds a letter or a digit (a line of symbols alone, "=" left
// of a dropped "∼", could be any), and no character that carries meaning
// stands before or after it on its line with only spaces between, as one
// the copy dropped would ("⇒ X \ K" copied " X \ K"), since the pieces
// are matched apart.
func (rd *asciiReading) pieceOK(from, to int) bool {
	p := rd.pt
	if !slices.ContainsFunc(p.rs[from:to], isWordChar) {
		return false
	}
	for _, dir := range []int{-1, 1} {
		k := from - 1
		if dir > 0 {
			k = to
		}
		for k >= 0 && k < len(p.rs) && p.rs[k] == ' ' && !p.t.RawBreakAt(k, lineBreaks) {
			k += dir
		}
		if k >= 0 && k < len(p.rs) && !isWordChar(p.rs[k]) && p.rs[k] != ' ' && p.significant(k) {
			return false
		}
	}
	return true
}

// gapsOK reports whether no two pieces, in page order, have between them
// nothing but spaces and characters of which one carries meaning: the
// quote would then hold the text around a sign it dropped ("∼" on the
// line above "=").
func (rd *asciiReading) gapsOK(parts []part) bool {
	ps := slices.Clone(parts)
	slices.SortFunc(ps, func(a, b part) int { return a.from - b.from })
	p := rd.pt
	for k := 1; k < len(ps); k++ {
		a, b := ps[k-1].to, ps[k].from
		if a >= b || slices.ContainsFunc(p.rs[a:b], isWordChar) {
			continue
		}
		for i := a; i < b; i++ {
			if p.rs[i] != ' ' && p.significant(i) {
				return false
			}
		}
	}
	return true
}

// onPage turns a location on the reading into one on the page text.
func (rd *asciiReading) onPage(l loc) (loc, bool) {
	out := loc{doc: l.doc, level: l.level}
	for _, pt := range l.parts {
		ra, rb := rd.t.RawSpan(pt.from, pt.to)
		if ra >= rb || rb > len(rd.pos) {
			return loc{}, false
		}
		from, to := int(rd.pos[ra]), int(rd.pos[rb-1])+1
		// Characters the copy dropped at a piece's ends are part of it
		// ("ﬁlter" read "lter"), as alignASCII widens a match.
		for from > 0 && rd.pt.rs[from-1] != ' ' && rd.pt.droppable(from-1) {
			from--
		}
		for to < len(rd.pt.rs) && rd.pt.rs[to] != ' ' && rd.pt.droppable(to) {
			to++
		}
		if !rd.pieceOK(from, to) {
			return loc{}, false
		}
		out.parts = append(out.parts, part{page: rd.page, from: from, to: to})
	}
	return out, rd.gapsOK(out.parts)
}
