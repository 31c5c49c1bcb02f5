package citations

import (
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/citecheck/citecheck/textnorm"
)

// The reordered level (Reordered). Extractors disagree on the order of
// lines and columns, so a quote copied from another extractor's text may
// hold a page's lines in another order than the stored text. The quote is
// then cut into units, consecutive units are grouped into pieces, and each
// piece must be found on one page, between word boundaries, no two pieces
// overlapping, all within MaxReorderSpan code points (or four times the
// quote's length) of each other. Pieces cover the whole quote, so every
// word and every digit of it is on the page as written; what the level
// relaxes is only the order.
//
//   - A quote with line breaks is cut at them: its units are its lines,
//     as the extractor it was copied from emitted them. A line holding a
//     digit is never a piece on its own: it must be found glued to a
//     neighbouring line, as in the quote: a number's line matched
//     anywhere let 7.5% of changed digits through (docs/benchmarks.md).
//   - A quote's first or last line that is a bare page number may be
//     placed on the stored page's first or last line when that line is the
//     same number (pageNumberEdges): extractors put the number at the top
//     or the bottom as they please. It is the only number ever placed on
//     its own, and only at the page's edge.
//   - A quote on one line is cut into words. Each piece holds at least
//     MinPieceWords words and MinPieceLen code points, so the level never
//     becomes a bag of words; no cut touches a word holding a digit, so a
//     number is matched with the words on both sides of it; and each cut
//     must fall at a line break of the stored page, where reading order can
//     differ.
//
// At least two pieces are needed: one piece would be a plain match.
//
// A piece of lines may be short ("state.") and lie anywhere on the page:
// requiring a one-word line to be a whole stored line caught few more
// changed quotes and lost many genuine ones, which would then be called
// fabricated, while a changed quote found this way is unresolved
// (reordered), never a pass. The counts behind both rules are in
// docs/benchmarks.md (bench-fidelity).
const (
	MinPieceWords  = 3
	MinPieceLen    = 15
	MaxReorderSpan = 1500
)

// maxReorderPages bounds the candidate pages tried in the named document,
// and again in the others; maxReorderSearches the substring searches on one
// page.
const (
	maxReorderPages    = 8
	maxReorderSearches = 400
)

type unit struct{ from, to int } // byte offsets in the normalized quote

// quoteUnits cuts the normalized quote into its lines (spaces that stand
// for a raw line break), or into words when it has a single line.
func quoteUnits(qt *textnorm.Text) (units []unit, lines bool) {
	qs := qt.String()
	n := strings.Count(qs, " ")
	spaces := make([]int, 0, n) // byte offsets of spaces
	cps := make([]int, 0, n)    // their code point offsets
	cp := 0
	for i, r := range qs {
		if r == ' ' {
			spaces = append(spaces, i)
			cps = append(cps, cp)
		}
		cp++
	}
	var cut []int
	for k, b := range spaces {
		if rawBreakAt(qt, cps[k]) {
			cut = append(cut, b)
		}
	}
	if len(cut) == 0 {
		cut = spaces
	} else {
		lines = true
	}
	start := 0
	units = make([]unit, 0, len(cut)+1)
	for _, b := range cut {
		units = append(units, unit{start, b})
		start = b + 1
	}
	units = append(units, unit{start, len(qs)})
	return units, lines
}

var lineBreaks = "\n\r\f\v\u0085\u2028\u2029"

// rawBreakAt reports whether normalized position i holds a space that
// stands for raw white space containing a line break.
func rawBreakAt(t *textnorm.Text, i int) bool { return t.RawBreakAt(i, lineBreaks) }

func lineStartAt(t *textnorm.Text, n int) bool { return n == 0 || rawBreakAt(t, n-1) }
func lineEndAt(t *textnorm.Text, n int) bool   { return n == t.Len() || rawBreakAt(t, n) }

func hasDigit(s string) bool {
	for _, r := range s {
		if isDigitRune(r) {
			return true
		}
	}
	return false
}

// findReordered tries the reordered level on candidate pages, in the
// named document first, then elsewhere when wanted. In line mode those are
// the pages holding every line of the quote, among those where the index
// finds its rarest line; in word mode the pages holding its first
// admissible piece.
func (ix *Index) findReordered(qt *textnorm.Text, doc int, elsewhere bool) []loc {
	qs := qt.String()
	units, lines := quoteUnits(qt)
	var pages map[int]bool
	if lines {
		if len(units) < 2 {
			return nil
		}
		// The rarest line's pages, kept when their text holds every other
		// line. Counts stop at rareHits (the longest line wins among lines
		// that common), so that choosing costs no large allocations.
		// Each distinct line once: a quote may repeat one line thousands of
		// times (a model stuck in a loop), and a repeat changes neither
		// the rarest line nor which pages hold them all.
		var distinct []string
		seen := map[string]bool{}
		for _, u := range units {
			if s := qs[u.from:u.to]; !seen[s] {
				seen[s] = true
				distinct = append(distinct, s)
			}
		}
		rarest, best := "", -1
		for _, s := range distinct {
			n := ix.hitCount(s, rareHits)
			if n == 0 {
				return nil // no page holds this line
			}
			if best < 0 || n < best || n == best && len(s) > len(rarest) {
				rarest, best = s, n
			}
		}
		pages = ix.pagesHolding(rarest)
		for p := range pages {
			text := ix.normString(p)
			for _, s := range distinct {
				if !strings.Contains(text, s) {
					delete(pages, p)
					break
				}
			}
		}
	} else {
		if len(units) < 2*MinPieceWords {
			return nil
		}
		k := MinPieceWords
		for k < len(units) && utf8.RuneCountInString(qs[:units[k-1].to]) < MinPieceLen {
			k++
		}
		pages = ix.pagesHolding(qs[:units[k-1].to])
	}
	var mine, others []int
	for p := range pages {
		if ix.pages[p].doc == doc {
			mine = append(mine, p)
		} else if elsewhere {
			others = append(others, p)
		}
	}
	sort.Ints(mine)
	sort.Ints(others)
	var locs []loc
	try := func(ps []int) {
		for i, p := range ps {
			if i == maxReorderPages {
				return
			}
			if l, ok := ix.reorderOnPage(qt, units, lines, p); ok {
				locs = append(locs, l)
			} else if lines {
				locs = append(locs, ix.runsOnPage(qt, units, p)...)
			}
		}
	}
	try(mine)
	if len(locs) == 0 {
		try(others)
	}
	ix.sortLocs(locs)
	return locs
}

// rareHits caps the count hitCount makes when choosing a quote's rarest
// line.
const rareHits = 64

// hitCount counts the occurrences of s in the index, up to limit per shard.
func (ix *Index) hitCount(s string, limit int) int {
	n, b := 0, bytesOf(s)
	for shi := range ix.shards {
		n += ix.shards[shi].sa.Count(b, limit)
	}
	return n
}

// pagesHolding returns the pages where the index finds s, from at most
// maxHits occurrences per shard.
func (ix *Index) pagesHolding(s string) map[int]bool {
	pages := map[int]bool{}
	for shi := range ix.shards {
		sh := &ix.shards[shi]
		for _, h := range sh.sa.Lookup(bytesOf(s), maxHits) {
			if si := sh.segAt(h); si >= 0 {
				pages[int(sh.segs[si].page)] = true
			}
		}
	}
	return pages
}

// findOnPage returns the byte offsets in page text t of the occurrences of
// sub that start and end at word boundaries of the page (and at its line
// boundaries when asked); only the first when first is set.
func findOnPage(t *textnorm.Text, sub string, atLineStart, atLineEnd, first bool) []int {
	page := t.String()
	var out []int
	qf, _ := utf8.DecodeRuneInString(sub)
	ql, _ := utf8.DecodeLastRuneInString(sub)
	for off := 0; ; {
		i := strings.Index(page[off:], sub)
		if i < 0 {
			return out
		}
		b := off + i
		off = b + 1
		if b > 0 {
			p, _ := utf8.DecodeLastRuneInString(page[:b])
			if isWordRune(p) && isWordRune(qf) || boundDigit(p, qf) {
				continue
			}
		}
		e := b + len(sub)
		if e < len(page) {
			n, _ := utf8.DecodeRuneInString(page[e:])
			if isWordRune(n) && isWordRune(ql) || boundDigit(ql, n) {
				continue
			}
		}
		if atLineStart && !lineStartAt(t, t.CodePoint(b)) {
			continue
		}
		if atLineEnd && !lineEndAt(t, t.CodePoint(b)+utf8.RuneCountInString(sub)) {
			continue
		}
		out = append(out, b)
		if first {
			return out
		}
	}
}

// boundDigit: a decimal point, separator or sign between a piece's edge and
// a digit of the page would cut a number.
func boundDigit(a, b rune) bool {
	return (isDigitRune(a) && (b == '.' || b == ',')) || ((a == '.' || a == ',' || a == '-' || a == '+') && isDigitRune(b))
}

// reorderOnPage groups the units into as few pieces as the rules allow,
// each found on page p, and places them.
func (ix *Index) reorderOnPage(qt *textnorm.Text, units []unit, lines bool, p int) (loc, bool) {
	return ix.reorderOnText(qt, units, lines, p, ix.text(p))
}

// reorderOnText is reorderOnPage on t, page p's text or a reading of it:
// the location's parts are t's code points.
func (ix *Index) reorderOnText(qt *textnorm.Text, units []unit, lines bool, p int, t *textnorm.Text) (loc, bool) {
	qs := qt.String()
	page := t.String()
	// Cheap rejection: a word the page does not hold at all (the common
	// case of a changed word) can be in no piece.
	if !holdsEveryWord(qs, page) {
		return loc{}, false
	}
	body := units    // the units to cut into pieces
	var edges []part // quote lines placed as the page's number
	if lines {
		body, edges = pageNumberEdges(qs, units, t, p)
		if len(body) == 0 {
			return loc{}, false
		}
	}
	if changedOnPage(qs, body, page, len(edges) > 0) {
		return loc{}, false
	}
	s := pieceSearch{qs: qs, units: body, t: t, page: page, lines: lines, budget: maxReorderSearches}
	pieces, ok := s.fewest()
	if !ok || len(pieces)+len(edges) < 2 {
		return loc{}, false
	}
	l, span, ok := s.place(pieces, edges, ix.pages[p].doc, p)
	if !ok || span > max(MaxReorderSpan, 4*qt.Len()) {
		return loc{}, false
	}
	sort.Slice(l.parts, func(a, b int) bool { return l.parts[a].from < l.parts[b].from })
	return l, true
}

// holdsEveryWord reports whether every word of the quote is somewhere on
// the page.
func holdsEveryWord(qs, page string) bool {
	for _, w := range strings.Split(qs, " ") {
		if !strings.Contains(page, w) {
			return false
		}
	}
	return true
}

// changedOnPage reports whether the page holds the quote's body with one
// word changed (nearMiss). The check runs without the page-number lines,
// which the page holds at its other edge; with them (edges), a quote whose
// edge number differs from a number the page holds at that place is a
// changed number, not a page number ("language. 7 9 Baz" cited as "4 9
// Baz" on page 4).
func changedOnPage(qs string, body []unit, page string, edges bool) bool {
	if nearMiss(qs[body[0].from:body[len(body)-1].to], page) {
		return true
	}
	if edges {
		if pw, ok := nearMissWord(qs, page); ok && hasDigit(pw) {
			return true
		}
	}
	return false
}

// pieceSearch cuts a quote's units into pieces found on one page.
type pieceSearch struct {
	qs    string
	units []unit
	t     *textnorm.Text
	page  string
	// lines: the units are lines. Otherwise they are words, and a cut
	// must fall at a line break of the stored page.
	lines bool
	// budget is the page searches left: it bounds the work on long
	// quotes with many short units; past it the level gives up (the quote
	// stays not found).
	budget int
}

// text is units i to j-1 of the quote.
func (s *pieceSearch) text(i, j int) string { return s.qs[s.units[i].from:s.units[j-1].to] }

// found reports whether units i to j-1 are on the page, spending one search.
func (s *pieceSearch) found(i, j int, endAligned bool) bool {
	s.budget--
	return s.budget >= 0 && len(findOnPage(s.t, s.text(i, j), !s.lines && i > 0, endAligned, true)) > 0
}

// canCut reports whether a piece may start or end before unit i: between
// lines always, between words only when neither holds a digit.
func (s *pieceSearch) canCut(i int) bool {
	if s.lines || i == 0 || i == len(s.units) {
		return true
	}
	return !hasDigit(s.qs[s.units[i-1].from:s.units[i-1].to]) && !hasDigit(s.qs[s.units[i].from:s.units[i].to])
}

// allowed reports whether units i to j-1 may be one piece: lines with
// their digits glued to a neighbour as in the quote, or enough words.
func (s *pieceSearch) allowed(i, j int) bool {
	if s.lines {
		return digitsGlued(s.qs, s.units, i, j)
	}
	piece := s.text(i, j)
	return strings.Count(piece, " ")+1 >= MinPieceWords && utf8.RuneCountInString(piece) >= MinPieceLen
}

// longest returns the end of the longest piece from unit i that the page
// holds, unit i alone being found: being found is monotone in the end.
func (s *pieceSearch) longest(i int) int {
	lo, hi := i+1, len(s.units)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if s.found(i, mid, false) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// fewest returns the fewest pieces that cover the units, as unit ranges
// in quote order (a shortest path over the cut points), or false when
// there is none or the search budget ran out.
func (s *pieceSearch) fewest() ([][2]int, bool) {
	n := len(s.units)
	const unreached = 1 << 30
	count := make([]int, n+1) // count[j]: fewest pieces covering units[:j]
	start := make([]int, n+1) // start[j]: where the last of them starts
	for j := range count {
		count[j] = unreached
	}
	count[0] = 0
	for i := 0; i < n; i++ {
		if count[i] == unreached || !s.canCut(i) || !s.found(i, i+1, false) {
			continue
		}
		for j := s.longest(i); j > i; j-- {
			if count[i]+1 >= count[j] || !s.canCut(j) || !s.allowed(i, j) {
				continue
			}
			if !s.lines && j < n && !s.found(i, j, true) {
				continue
			}
			count[j], start[j] = count[i]+1, i
		}
	}
	if count[n] == unreached || s.budget < 0 {
		return nil, false
	}
	pieces := make([][2]int, count[n])
	for j, k := n, count[n]-1; j > 0; j, k = start[j], k-1 {
		pieces[k] = [2]int{start[j], j}
	}
	return pieces, true
}

// place puts the edges and then each piece, in quote order, at the first
// place on page p (of document doc) that overlaps nothing placed before.
// It returns the location and the span of the pieces in code points, or
// false when a piece has no free place.
func (s *pieceSearch) place(pieces [][2]int, edges []part, doc, p int) (loc, int, bool) {
	l := loc{doc: doc, level: Reordered}
	var taken [][2]int // byte ranges of the page
	for _, e := range edges {
		// Not in the span: the page's edge is as far from the text as
		// the page is long.
		taken = append(taken, [2]int{s.t.ByteOffset(e.from), s.t.ByteOffset(e.to)})
		l.parts = append(l.parts, e)
	}
	first, last := len(s.page), 0 // byte range of the pieces
	n := len(s.units)
	for _, pc := range pieces {
		i, j := pc[0], pc[1]
		sub := s.text(i, j)
		b, ok := s.firstFree(sub, !s.lines && i > 0, !s.lines && j < n, taken)
		if !ok {
			return loc{}, 0, false
		}
		e := b + len(sub)
		taken = append(taken, [2]int{b, e})
		first, last = min(first, b), max(last, e)
		cp := s.t.CodePoint(b)
		l.parts = append(l.parts, part{p, cp, cp + utf8.RuneCountInString(sub)})
	}
	return l, utf8.RuneCountInString(s.page[first:max(first, last)]), true
}

// firstFree returns the byte offset of the first place of sub on the page
// that overlaps no taken range.
func (s *pieceSearch) firstFree(sub string, atLineStart, atLineEnd bool, taken [][2]int) (int, bool) {
	for _, b := range findOnPage(s.t, sub, atLineStart, atLineEnd, false) {
		e := b + len(sub)
		if !slices.ContainsFunc(taken, func(u [2]int) bool { return b < u[1] && u[0] < e }) {
			return b, true
		}
	}
	return 0, false
}

// nearMiss reports whether the page holds the quote's words in order with
// exactly one word different: the signature of a quote with one word or
// number changed, which no reordering may excuse. Each page position where
// the quote's first or second word starts is tried as an anchor.
func nearMiss(qs, page string) bool {
	_, ok := nearMissWord(qs, page)
	return ok
}

// nearMissWord is nearMiss that also returns the page's word where the
// first near miss differs.
func nearMissWord(qs, page string) (string, bool) {
	qw := strings.Split(qs, " ")
	pw := strings.Split(page, " ")
	n := len(qw)
	if n < 2 || len(pw) < n {
		return "", false
	}
	for start := 0; start+n <= len(pw); start++ {
		if pw[start] != qw[0] && pw[start+1] != qw[1] {
			continue
		}
		diff, at := 0, -1
		for k := 0; k < n && diff <= 1; k++ {
			if pw[start+k] != qw[k] {
				diff++
				at = start + k
			}
		}
		if diff == 1 {
			return pw[at], true
		}
	}
	return "", false
}

// digitsGlued is the line-mode rule for numbers: a line holding a digit is
// inside its piece, with lines of the quote on both sides of it (a side
// may be the quote's own start or end), and the piece's other lines hold at
// least MinPieceWords words and MinPieceLen code points. A number is thus
// only ever found together with the text around it in the quote.
func digitsGlued(qs string, units []unit, i, j int) bool {
	ctxWords, ctxLen, digits := 0, 0, false
	for u := i; u < j; u++ {
		s := qs[units[u].from:units[u].to]
		if !hasDigit(s) {
			ctxWords += strings.Count(s, " ") + 1
			ctxLen += utf8.RuneCountInString(s)
			continue
		}
		digits = true
		if (u == i && i > 0) || (u == j-1 && j < len(units)) {
			return false
		}
	}
	return !digits || (ctxWords >= MinPieceWords && ctxLen >= MinPieceLen)
}

// pageNumberEdges takes off the quote's first and last lines when they are
// a bare page number (digits or a roman numeral) that stands alone as the
// stored page's first or last line, and returns the remaining units and
// the parts where those numbers lie. Extractors put a page's number at the
// top or the bottom of its text as they please, so a quote copied across
// it holds the number at one edge while the stored text holds it at the
// other. Only the page's own edge lines qualify: a changed number (the
// quote's "6" on the page numbered 5) is never taken off, and must then be
// found glued to its neighbours like any other number.
func pageNumberEdges(qs string, units []unit, t *textnorm.Text, p int) ([]unit, []part) {
	if len(units) < 2 {
		return units, nil
	}
	first, last := edgeLine(t, true), edgeLine(t, false)
	var edges []part
	take := func(u unit) bool {
		s := qs[u.from:u.to]
		if !pageNumber(s) {
			return false
		}
		for _, e := range [][2]int{first, last} {
			if e[1] > e[0] && t.Slice(e[0], e[1]) == s && !placed(edges, e) {
				edges = append(edges, part{p, e[0], e[1]})
				return true
			}
		}
		return false
	}
	if take(units[0]) {
		units = units[1:]
	}
	if len(units) > 0 && take(units[len(units)-1]) {
		units = units[:len(units)-1]
	}
	return units, edges
}

func placed(parts []part, e [2]int) bool {
	for _, q := range parts {
		if q.from == e[0] && q.to == e[1] {
			return true
		}
	}
	return false
}

// edgeLine returns the code point range of the stored page's first or
// last line, without its surrounding spaces.
func edgeLine(t *textnorm.Text, first bool) [2]int {
	n := t.Len()
	if first {
		a := 0
		for a < n && t.Slice(a, a+1) == " " {
			a++
		}
		b := a
		for b < n && !rawBreakAt(t, b) {
			b++
		}
		for b > a && t.Slice(b-1, b) == " " {
			b--
		}
		return [2]int{a, b}
	}

	b := n
	for b > 0 && t.Slice(b-1, b) == " " {
		b--
	}
	a := b
	for a > 0 && !rawBreakAt(t, a-1) {
		a--
	}
	for a < b && t.Slice(a, a+1) == " " {
		a++
	}
	return [2]int{a, b}
}

// pageNumber reports a bare page number: ASCII digits, or a lower- or
// upper-case roman numeral.
func pageNumber(s string) bool {
	if s == "" || len(s) > 8 {
		return false
	}
	digits, roman := true, true
	for _, r := range s {
		digits = digits && r >= '0' && r <= '9'
		roman = roman && strings.ContainsRune("ivxlcIVXLC", r)
	}
	return digits || roman
}
