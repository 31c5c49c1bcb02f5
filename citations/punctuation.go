package citations

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/citecheck/citecheck/textnorm"
)

// The punctuation and non_ascii_dropped levels, the last of the ladder.
//
// punctuation: the quote and the page passage hold the same word
// characters (isWordChar) in the same order and differ only in what
// stands between them: punctuation, symbols and spaces. A hyphen written
// as a space or dropped between letters ("first quarter" for
// "first-quarter"), a dash written as "--", quotation marks and
// apostrophes dropped or changed, bullets and other symbols dropped. Two
// rules keep it from being more:
//
//   - a word break stays a word break: where one side has nothing between
//     two letters and the other a space, the words were joined, which is
//     joined_words, never this level (punctuation between them, "first-
//     quarter", is no word break either way);
//   - a character that carries meaning (symbols.go: a sign, a comparison,
//     a currency, a unit, a separator between digits) is never dropped,
//     added or changed, and a run of dashes counts as one dash.
//
// non_ascii_dropped: the quote holds no non-ASCII character and is the
// page passage with its non-ASCII characters removed (what an ASCII-only
// pipeline, text.encode("ascii", "ignore"), keeps: curly quotes, dashes,
// bullets, ®, ™, no-break spaces, accented letters and ligatures gone),
// spaces then collapsed; an accented letter the page stores apart from its
// accent keeps its letter (TeX's "f¨ur" leaves "fur"), and a ligature may
// be read as its letters; never a character that carries meaning.
//
// At both levels the match starts and ends on the page's word boundaries,
// and what the quote and the page hold attached to its first and last word
// character (a sign before a number, a per-cent sign after it) must carry
// the same meaning. The quote's skeleton must be at least SymbolMinLen code
// points long.
//
// A quote that matches a passage but for characters that carry meaning is
// not found; Result.Changed names the characters and the passage.

// SymbolMinLen is the fewest letters and digits a quote needs to be looked
// up at the punctuation and non_ascii_dropped levels: shorter strings of
// letters recur by chance. It is ShortQuoteLen, not joined_words' 20,
// since these levels keep the words apart.
const SymbolMinLen = ShortQuoteLen

// skelMatch is a verified candidate: where on the target text, the
// meaning-carrying differences that kept it from matching (none for a
// match), and whether it joins or splits words (then it is joined_words).
type skelMatch struct {
	from, to int
	diffs    []symDiff
	joined   bool
}

// symDiff is one difference at a character that carries meaning: what the
// page has and what the quote has there ("" for nothing).
type symDiff struct{ page, quote string }

// target is a text a skeleton hit lands in: a page text or a reading
// order, normalized, read code point by code point.
type target struct {
	p    *ptext
	skel string  // its skeleton, made on first use
	idx  []int32 // the normalized position of each of the skeleton's code points
}

func (tg *target) skeleton() (string, []int32) {
	if tg.idx == nil {
		tg.skel, tg.idx = skeleton(tg.p)
	}
	return tg.skel, tg.idx
}

// symbolFinds is what findSymbols works on and finds for a quote cited in
// doc.
type symbolFinds struct {
	doc     int
	q       *ptext
	qidx    []int32 // the quote's skeleton positions
	targets map[int32]*target
	seen    smallSet[symbolKey]
	// For an ASCII quote: where the whole skeleton was found, those of
	// them in the named document, and whether a shard had too many hits
	// to list (asciipure.go).
	whole       smallSet[skelHit]
	wholeInDoc  []skelHit
	wholeCapped bool
	// asciiCopy: the quote's raw text is ASCII, as an ASCII-only pipeline
	// leaves it (a no-break space or "ﬁ" it normalizes to ASCII is not).
	asciiCopy bool

	punct, ascii, joined []loc
	codes                []loc // in alternative texts, at either level (altsymbols.go)
	near                 *symbolNearMiss
}

// symbolKey is a passage tried at a level.
type symbolKey struct {
	target int32
	start  int
	level  Level
}

// findSymbols looks the quote's skeleton up in the skeleton indexes and
// verifies each hit at the punctuation level (or, where words are joined
// or split as well, joined_words: a quote of textnorm.JoinedMinLen code
// points or more whose punctuation and spaces both differ); for an ASCII
// quote, it looks up pieces of the skeleton (asciiSeeds) and verifies the
// passages they imply at the non_ascii_dropped level. It returns the
// locations at each level and the first passage that matched but for
// characters that carry meaning (a near miss), in the named document if
// there is one.
func (ix *Index) findSymbols(qt *textnorm.Text, doc int, sc scope) *symbolFinds {
	q := newPtext(qt)
	qs, qidx := skeleton(q)
	if len(qidx) < SymbolMinLen {
		return &symbolFinds{}
	}
	ascii := asciiText(qt.Raw())
	f := &symbolFinds{doc: doc, q: q, qidx: qidx, targets: map[int32]*target{}, asciiCopy: ascii}
	f.wholeCapped = ix.eachSkelHit(bytesOf(qs), sc, func(h skelHit) {
		if ascii {
			f.whole.add(h)
			if ix.targetDoc(h.target) == doc {
				f.wholeInDoc = append(f.wholeInDoc, h)
			}
		}
		ix.tryPunct(f, h)
	}) || !asciiShortcut
	ix.scanAltPunct(f, qs)
	if ascii {
		for _, sd := range asciiSeeds(len(qs)) {
			ix.eachShardHit(bytesOf(qs[sd:sd+asciiSeedLen]), sc, func(h skelHit, capped bool) { ix.tryASCII(f, h, sd, capped) })
		}
		ix.scanASCII(f, qs)
	}
	ix.findNamesASCII(f, sc)
	for _, ls := range []*[]loc{&f.punct, &f.ascii, &f.joined, &f.codes} {
		ix.sortLocs(*ls)
		*ls = ix.dedupLocs(*ls)
	}
	return f
}

// eachSkelHit calls try with every hit of pat in the skeletons of the page
// texts and reading orders of scope sc, and reports whether a shard had
// more than maxHits, which are left out.
func (ix *Index) eachSkelHit(pat []byte, sc scope, try func(skelHit)) (capped bool) {
	return ix.eachShardHit(pat, sc, func(h skelHit, _ bool) { try(h) })
}

// eachShardHit is eachSkelHit telling try, with each hit, whether its
// shard's hits were capped.
func (ix *Index) eachShardHit(pat []byte, sc scope, try func(h skelHit, shardCapped bool)) (capped bool) {
	for s := sc.textFrom; s < sc.textTo; s++ {
		hs, c := ix.shards[s].sk.hits(ix, pat)
		for _, h := range hs {
			try(h, c)
		}
		capped = capped || c
	}
	if ix.orders != nil {
		for s := sc.orderFrom; s < sc.orderTo; s++ {
			hs, c := ix.orders.shards[s].sk.hits(ix, pat)
			for _, h := range hs {
				try(h, c)
			}
			capped = capped || c
		}
	}
	return capped
}

// asciiSeedLen is the length of the pieces of an ASCII quote's skeleton
// looked up for the non_ascii_dropped level, and asciiSeedMax how many.
const (
	asciiSeedLen = 10
	asciiSeedMax = 6
)

// asciiSeeds returns where the pieces looked up start in a skeleton of n
// code points: its start, its end and evenly between, so that one of them
// likely holds none of the letters the quote lost (an ASCII-only pipeline
// drops "ä" and "ﬁ" where the page keeps them; German text loses one every
// few words).
func asciiSeeds(n int) []int {
	var out []int
	for k := range asciiSeedMax {
		at := k * (n - asciiSeedLen) / (asciiSeedMax - 1)
		if at >= 0 && at+asciiSeedLen <= n && !slices.Contains(out, at) {
			out = append(out, at)
		}
	}
	return out
}

// hitAt converts a skeleton hit to its target and code point offset.
func (ix *Index) hitAt(f *symbolFinds, h skelHit) (*target, int, bool) {
	tg := ix.skelTarget(f.targets, h.target)
	if tg == nil {
		return nil, 0, false
	}
	s, _ := tg.skeleton()
	if h.off >= len(s) {
		return nil, 0, false
	}
	return tg, utf8.RuneCountInString(s[:h.off]), true
}

// tryPunct verifies a hit of the whole skeleton at the punctuation level.
func (ix *Index) tryPunct(f *symbolFinds, h skelHit) {
	tg, a, ok := ix.hitAt(f, h)
	if !ok {
		return
	}
	_, idx := tg.skeleton()
	if a+len(f.qidx) > len(idx) || !f.seen.add(symbolKey{h.target, int(idx[a]), Punctuation}) {
		return
	}
	if m, ok := alignPunct(tg.p, idx[a:a+len(f.qidx)], f.q, f.qidx); ok && !m.joined {
		ix.addSymbolLoc(f, h.target, tg, m, Punctuation)
	} else if ok && len(f.qidx) >= textnorm.JoinedMinLen {
		ix.addSymbolLoc(f, h.target, tg, m, JoinedWords)
	}
}

// tryASCII verifies the passages a hit of the piece at quote skeleton
// offset sd implies at the non_ascii_dropped level: the page may hold
// letters the quote lost before the piece, up to half as many as the
// quote holds there, plus a few. pieceCapped: the piece's hits in h's
// shard were capped, so the hit at the whole skeleton's start may be
// among those left out, and a later one may be the only way there: the
// shortcut is not taken.
func (ix *Index) tryASCII(f *symbolFinds, h skelHit, sd int, pieceCapped bool) {
	if !f.wholeCapped && !pieceCapped && ix.wholeOnly(f, h, sd, len(f.qidx)) && !f.whole.has(skelHit{h.target, h.off - sd}) {
		return // no passage to find here (asciipure.go)
	}
	tg, a, ok := ix.hitAt(f, h)
	if !ok {
		return
	}
	_, idx := tg.skeleton()
	first := f.q.rs[f.qidx[0]]
	for e := 0; e <= sd/2+4 && a-sd-e >= 0; e++ {
		start := int(idx[a-sd-e])
		if tg.p.rs[start] != first && tg.p.residue(start) != first {
			continue
		}
		ix.verifyASCII(f, h.target, tg, start)
	}
}

// verifyASCII verifies the passage of target t whose first word character
// is at normalized position start at the non_ascii_dropped level (or, where
// words are joined or split as well, joined_words), once per passage.
func (ix *Index) verifyASCII(f *symbolFinds, t int32, tg *target, start int) {
	if !f.seen.add(symbolKey{t, start, NonASCIIDropped}) {
		return
	}
	if m, ok := alignASCII(tg.p, start, f.q, f.qidx); ok && !m.joined {
		ix.addSymbolLoc(f, t, tg, m, NonASCIIDropped)
	} else if ok && len(f.qidx) >= textnorm.JoinedMinLen {
		ix.addSymbolLoc(f, t, tg, m, JoinedWords)
	}
}

// dedupLocs drops a location that overlaps one kept before it in its
// document (a page text and a reading order finding one place; two pieces
// of a quote's skeleton implying one passage), keeping the page text's.
func (ix *Index) dedupLocs(ls []loc) []loc {
	var out []loc
	for _, l := range ls {
		k := slices.IndexFunc(out, func(o loc) bool { return o.doc == l.doc && overlaps(o.parts, l.parts) })
		switch {
		case k < 0:
			out = append(out, l)
		case out[k].order != "" && l.order == "":
			out[k] = l
		}
	}
	return out
}

// overlaps reports whether two locations share a code point of a page.
func overlaps(a, b []part) bool {
	for _, x := range a {
		for _, y := range b {
			if x.page == y.page && x.from < y.to && y.from < x.to {
				return true
			}
		}
	}
	return false
}

// maxTargets bounds the targets one quote keeps normalized: a quote whose
// pieces hit many pages of a large corpus (a changed quote, found nowhere,
// at --scale 100 held some 6 GB of them) drops them all and normalizes
// again those hit anew. The map only saves work: what is found does not
// depend on it (a variable for the tests).
var maxTargets = 1024

// skelTarget returns the text behind a skeleton's target, normalized.
func (ix *Index) skelTarget(targets map[int32]*target, t int32) *target {
	if tg := targets[t]; tg != nil {
		return tg
	}
	if len(targets) >= maxTargets {
		clear(targets)
	}
	var tn *textnorm.Text
	k, alt := ix.altOf(t)
	switch {
	case t >= 0 && int(t) < len(ix.pages):
		tn = ix.text(int(t))
	case alt:
		tn, _ = ix.altForms(k)
	case t < 0 && ix.orders != nil && int(-1-t) < len(ix.orders.pages):
		op := &ix.orders.pages[-1-t]
		ix.blocks.string(op.raw)
		tn = ix.profile.Normalize(op.raw)
	default:
		return nil
	}
	tg := &target{p: newPtext(tn)}
	if alt {
		tg.p.signs = ix.altSigns(k, tg.p)
	}
	targets[t] = tg
	return tg
}

// symbolNearMiss is a passage a quote matches but for characters that carry
// meaning.
type symbolNearMiss struct {
	l     loc
	diffs []symDiff
}

// addSymbolLoc turns a verified candidate into a location on the page
// text: a match is added to the level's locations, a near miss kept when
// none is yet (one in the named document replaces one elsewhere).
func (ix *Index) addSymbolLoc(f *symbolFinds, t int32, tg *target, m skelMatch, lvl Level) {
	var l loc
	var ok bool
	k, alt := ix.altOf(t)
	switch {
	case alt:
		l, ok = ix.altLoc(k, m.from, m.to)
		ok = ok && ix.partEdgesOK(l)
	case t >= 0:
		l, ok = loc{doc: ix.pages[t].doc, parts: []part{{int(t), m.from, m.to}}, level: lvl}, true
	default:
		l, ok = ix.orderLoc(&ix.orders.pages[-1-t], tg.p.t, m.from, m.to, lvl)
		ok = ok && ix.partEdgesOK(l)
	}
	if !ok {
		return
	}
	switch {
	case len(m.diffs) == 0 && (alt || lvl == GlyphCodes):
		f.codes = append(f.codes, l)
	case alt:
		// A near miss is named on the page text, whose characters the
		// note quotes: an alternative's reading ("!" for "→") would
		// misname them.
	case len(m.diffs) == 0 && lvl == Punctuation:
		f.punct = append(f.punct, l)
	case len(m.diffs) == 0 && lvl == JoinedWords:
		f.joined = append(f.joined, l)
	case len(m.diffs) == 0:
		f.ascii = append(f.ascii, l)
	case f.near == nil || f.near.l.doc != f.doc && l.doc == f.doc:
		f.near = &symbolNearMiss{l: l, diffs: m.diffs}
	}
}

// partEdgesOK reports whether no character that carries meaning is
// attached to a piece of a location found in a reading order, where the
// page text has it: a reading order may set "−" apart from the "4" the
// page text prints it with.
func (ix *Index) partEdgesOK(l loc) bool {
	for _, pt := range l.parts {
		p := newPtext(ix.text(pt.page))
		a, _ := p.reach(pt.from, -1, 0)
		b, _ := p.reach(pt.to, 1, 0)
		if meaning(p, a, pt.from) != "" || meaning(p, pt.to, b) != "" {
			return false
		}
	}
	return true
}

// canonGap is a gap between two word characters as compared: runs of
// dashes read as one dash.
func canonGap(rs []rune) string {
	var b strings.Builder
	for i, r := range rs {
		if r == '-' && i > 0 && rs[i-1] == '-' {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// meaning returns the characters of p[from:to] that carry meaning, as
// compared (a run of dashes as one dash).
func meaning(p *ptext, from, to int) string {
	var b strings.Builder
	for k := from; k < to; k++ {
		if p.significant(k) && !(p.rs[k] == '-' && k > from && p.rs[k-1] == '-') {
			b.WriteRune(p.rs[k])
		}
	}
	return b.String()
}

func hasSpace(rs []rune) bool { return slices.Contains(rs, ' ') }

func notSpace(r rune) bool { return r != ' ' }

// dashAttached says which of the gap's ends is a dash attached to a digit
// (the word character a before it, b after it): where two gaps hold the
// same characters but for spaces, a dash attached to a number on one side
// and apart from it on the other differs in meaning ("-4,100" is a minus,
// "— 4,100" a table's nil and a number).
// Between two digits a dash is a separator however spaced ("231– 3195"),
// compared as such. A line break in the raw text is a space, though the
// normalized text joins a line's last dash to the next line ("—\n120").
func dashAttached(p *ptext, a, b int) [2]bool {
	if isDigitRune(p.rs[a]) && isDigitRune(p.rs[b]) || b-a < 2 {
		return [2]bool{}
	}
	return [2]bool{p.rs[a+1] == '-' && p.attachedDigit(a + 1)[0], p.rs[b-1] == '-' && p.attachedDigit(b - 1)[1]}
}

// attachedDigit reports whether code point i has a digit attached before
// it and after it: next to it, with no raw white space between.
func (p *ptext) attachedDigit(i int) [2]bool {
	return [2]bool{
		i > 0 && isDigitRune(p.rs[i-1]) && !rawApart(p.t, i-1),
		i+1 < len(p.rs) && isDigitRune(p.rs[i+1]) && !rawApart(p.t, i),
	}
}

// rawApart reports whether raw white space lies between normalized code
// points i and i+1.
func rawApart(t *textnorm.Text, i int) bool {
	rs, re := t.RawSpan(i, i+2)
	return strings.ContainsFunc(t.RawSlice(rs, re), unicode.IsSpace)
}

// nonSpace is rs without its spaces.
func nonSpace(rs []rune) []rune {
	return slices.DeleteFunc(slices.Clone(rs), func(r rune) bool { return r == ' ' })
}

// alignPunct verifies a punctuation-level candidate: the page's word
// characters at pw hold the quote's at qw (the skeletons matched), so only
// the gaps between them, and what is attached to the first and the last,
// are compared. ok is false when the candidate is no match at all; a
// match that differs only in characters that carry meaning has diffs.
func alignPunct(p *ptext, pw []int32, q *ptext, qw []int32) (skelMatch, bool) {
	m := skelMatch{from: int(pw[0]), to: int(pw[len(pw)-1]) + 1}
	first, last := m.from, m.to-1
	// Punctuation of the quote's own outside its first and last word
	// character differs from the page's, or an earlier level had found it.
	relaxed := slices.ContainsFunc(q.rs[:qw[0]], notSpace) || slices.ContainsFunc(q.rs[qw[len(qw)-1]+1:], notSpace)
	for k := 0; k+1 < len(pw); k++ {
		pa, pb, qa, qb := int(pw[k])+1, int(pw[k+1]), int(qw[k])+1, int(qw[k+1])
		gp, gq := p.rs[pa:pb], q.rs[qa:qb]
		if slices.ContainsFunc(gp, isWordChar) || slices.ContainsFunc(gq, isWordChar) {
			return m, false // word characters left out: not this level's
		}
		if string(gp) != string(gq) {
			relaxed = true
		}
		if canonGap(gp) == canonGap(gq) {
			continue
		}
		// The same characters but for spaces may still differ in meaning:
		// a wide dash apart from a number is a table's nil, a dash
		// attached to it a minus ("— 4,100" is not "-4,100").
		mp, mq := meaning(p, pa, pb), meaning(q, qa, qb)
		if sameSeparator(gp, gq) && dashAttached(p, int(pw[k]), int(pw[k+1])) == dashAttached(q, int(qw[k]), int(qw[k+1])) {
			continue // "231– 3195" for "231–3195": a space beside a separator, as whitespace allows
		}
		if isDigitRune(p.rs[pw[k]]) && isDigitRune(p.rs[pw[k+1]]) && (p.separator(int(pw[k]), int(pw[k+1])) || q.separator(int(qw[k]), int(qw[k+1]))) {
			m.diffs = append(m.diffs, symDiff{page: string(gp), quote: string(gq)})
			continue
		}
		if mp != mq {
			m.diffs = append(m.diffs, symDiff{page: mp, quote: mq})
			continue
		}
		if len(gp) == 0 && hasSpace(gq) || len(gq) == 0 && hasSpace(gp) {
			m.joined = true // words joined or split: joined_words, not this level
		}
	}
	if !relaxed && len(m.diffs) == 0 || !edges(p, &m, q, qw) {
		return m, false // the same gaps (an earlier level's), or the quote's own characters run past the page's
	}
	return m, insideWord(p, &m, first, last)
}

// insideWord checks the passage's edges, word characters first..last of
// the page: a passage that starts or ends inside a word of the page (the
// quote's first word is the end of the page's, as where an extractor
// split "langu age") splits that word, which joined_words allows as
// copied; so it is marked joined, never found at the punctuation or
// non_ascii_dropped level, and refused inside a number, as joined_words
// refuses it.
func insideWord(p *ptext, m *skelMatch, first, last int) bool {
	if boundaryOK(p, m.from, m.to) {
		return true
	}
	m.joined = true
	return digitEdgesOK(p, first, last)
}

// sameSeparator reports whether two gaps between word characters hold the
// same characters but for spaces, and some: a space beside a dash or a
// comma, which the whitespace level lets differ too ("2019– 2020"); a
// space that is the separator itself ("1 000") differs from none.
func sameSeparator(gp, gq []rune) bool {
	a, b := canonGap(nonSpace(gp)), canonGap(nonSpace(gq))
	return a != "" && a == b
}

// digitEdgesOK reports whether page word characters first..last start and
// end outside a number: what joined_words checks of its edges.
func digitEdgesOK(p *ptext, first, last int) bool {
	if k, attached := p.wordNear(first, -1); k >= 0 && attached && isDigitRune(p.rs[first]) && isDigitRune(p.rs[k]) {
		return false
	}
	k, attached := p.wordNear(last, 1)
	return k < 0 || !attached || !isDigitRune(p.rs[last]) || !isDigitRune(p.rs[k])
}

// boundaryOK reports whether the passage p[from:to] starts and ends on the
// page's word boundaries: no word character directly before its first code
// point or after its last where that one is a word character too (but in
// scripts written without spaces), as edgesOK checks the normalized
// levels' matches. What the page has attached through punctuation ("first-"
// before "quarter", "–51" after a quote's "2018–23–") is edges' to compare
// by what carries meaning.
func boundaryOK(p *ptext, from, to int) bool {
	inWord := func(a, b int) bool {
		return a >= 0 && b < len(p.rs) && isWordChar(p.rs[a]) && isWordChar(p.rs[b]) && !noSpaceScript(p.rs[a]) && !noSpaceScript(p.rs[b])
	}
	return !inWord(from-1, from) && !inWord(to-1, to)
}

// edges compares the quote's characters before its first word character
// with as many of the page's before the match (reach), and those after its
// last with as many after, by the characters of each that carry meaning,
// adding a difference to m for each side that differs; what the page has
// attached to the match is always compared ("−5" for a quote "5"). m
// widens over the page's characters the quote's cover (a quote's final
// full stop covers the page's). It reports false when the quote's
// characters run past a word character of the page, which the quote lacks.
func edges(p *ptext, m *skelMatch, q *ptext, qw []int32) bool {
	qf, ql := int(qw[0]), int(qw[len(qw)-1])+1
	lead, trail := units(q.rs[:qf]), units(q.rs[ql:])
	a, seenA := p.reach(m.from, -1, lead)
	b, seenB := p.reach(m.to, 1, trail)
	if seenA < lead || seenB < trail {
		return false
	}
	// The same characters carry the same meaning, whatever stands beyond
	// the quote's ends; other ones are compared by what carries meaning.
	if mp, mq := meaning(p, a, m.from), meaning(q, 0, qf); mp != mq && canonGap(nonSpace(p.rs[a:m.from])) != canonGap(nonSpace(q.rs[:qf])) {
		m.diffs = append(m.diffs, symDiff{page: mp, quote: mq})
	}
	if mp, mq := meaning(p, m.to, b), meaning(q, ql, len(q.rs)); mp != mq && canonGap(nonSpace(p.rs[m.to:b])) != canonGap(nonSpace(q.rs[ql:])) {
		m.diffs = append(m.diffs, symDiff{page: mp, quote: mq})
	}
	if lead > 0 {
		m.from = a
	}
	if trail > 0 {
		m.to = b
	}
	return true
}

// units counts the non-space characters of rs, a run of dashes as one.
func units(rs []rune) int {
	n := 0
	for i, r := range rs {
		if r != ' ' && !(r == '-' && i > 0 && rs[i-1] == '-') {
			n++
		}
	}
	return n
}

// reach returns how far from position at, in direction dir (-1: the
// characters before at; 1: from at on), the page's characters cover n
// non-space characters (units), and at least those attached to at, never
// past a word character or the text's end: the region's other end, and
// how many units it covers.
func (p *ptext) reach(at, dir, n int) (int, int) {
	k, seen := at, 0
	for {
		j := k
		if dir < 0 {
			j = k - 1
		}
		if j < 0 || j >= len(p.rs) || isWordChar(p.rs[j]) || p.rs[j] == ' ' && seen >= n {
			return k, seen
		}
		// A dash after one already counted is one of a run.
		if r := p.rs[j]; r != ' ' && !(r == '-' && j != at && j-dir >= 0 && j-dir < len(p.rs) && p.rs[j-dir] == '-') {
			seen++
		}
		k += dir
	}
}

// alignASCII verifies a non_ascii_dropped candidate: the quote's first
// word character at page position start, the quote's characters after it
// (and, read backwards, those before it) must be the page's with
// droppable characters left out and the spaces around them collapsed, or
// an accented letter read as its ASCII letter. A character that carries
// meaning in the way is a difference (diffs), not a mismatch, and so is
// one attached to the passage's ends.
func alignASCII(p *ptext, start int, q *ptext, qw []int32) (skelMatch, bool) {
	return alignASCIIAt(p, start, q, int(qw[0]), nil, false)
}

// alignASCIIAt is alignASCII from quote position j0 at page position
// start, the quote's glyph names names (glyphnamesascii.go); with keep,
// for a quote that is no ASCII copy, no character of the page is dropped
// but for the glyphs the names stand for.
func alignASCIIAt(p *ptext, start int, q *ptext, j0 int, names []nameTok, keep bool) (skelMatch, bool) {
	fw := asciiRun{p: p, q: q, i: start, j: j0, dir: 1, names: names, keep: keep}
	bw := asciiRun{p: p, q: q, i: start - 1, j: j0 - 1, dir: -1, names: names, keep: keep}
	if !fw.run() || !bw.run() {
		return skelMatch{}, false
	}
	m := skelMatch{from: bw.i + 1, to: fw.i, diffs: append(bw.diffs, fw.diffs...), joined: fw.joined || bw.joined}
	// Droppable characters attached to the passage's ends are part of it
	// ("ﬁnancial" read "nancial").
	for m.from > 0 && p.rs[m.from-1] != ' ' && p.droppable(m.from-1) {
		m.from--
	}
	for m.to < len(p.rs) && p.rs[m.to] != ' ' && p.droppable(m.to) {
		m.to++
	}
	if fw.dropped+bw.dropped == 0 || !insideWord(p, &m, m.from, m.to-1) {
		return m, false
	}
	a, _ := p.reach(m.from, -1, 0)
	b, _ := p.reach(m.to, 1, 0)
	if mp := meaning(p, a, m.from); mp != "" {
		m.diffs = append(m.diffs, symDiff{page: mp})
	}
	if mp := meaning(p, m.to, b); mp != "" {
		m.diffs = append(m.diffs, symDiff{page: mp})
	}
	return m, true
}

// asciiRun aligns the quote with the page from quote position j and page
// position i in direction dir (1 forwards to the quote's end, -1
// backwards to its start).
type asciiRun struct {
	p, q      *ptext
	i, j, dir int
	dropped   int
	diffs     []symDiff
	joined    bool      // a space one side has and the other lacks: joined_words
	names     []nameTok // the quote's glyph names, each standing for one glyph (glyphnamesascii.go)
	keep      bool      // the quote is no ASCII copy: the page's characters are never dropped
}

func (r *asciiRun) run() bool {
	p, q := r.p, r.q
	lastSpace := false
	for r.j >= 0 && r.j < len(q.rs) {
		if r.i < 0 || r.i >= len(p.rs) {
			return false
		}
		if tk, ok := r.nameAt(); ok {
			return r.name(tk)
		}
		pc, qc := p.rs[r.i], q.rs[r.j]
		switch {
		case pc == qc:
			lastSpace = pc == ' '
			r.i, r.j = r.i+r.dir, r.j+r.dir
		case r.keep:
			if !r.hyphenPoint() && !r.spaces(pc, qc) {
				return false
			}
		case pc >= utf8.RuneSelf && p.residue(r.i) == qc:
			lastSpace = false
			r.dropped++ // the accent
			r.i, r.j = r.i+r.dir, r.j+r.dir
		case r.splitAtAccent(pc, qc):
			r.joined = true // a word the quote splits at its accented letter
			r.j += r.dir
		case p.droppable(r.i):
			r.dropped++
			r.i += r.dir
		case pc == ' ' && (lastSpace || r.j == 0 && r.dir < 0):
			r.i += r.dir
		case r.hyphenPoint():
			continue
		case r.spaces(pc, qc):
		case p.nonASCII(r.i):
			r.diffs = append(r.diffs, symDiff{page: string(pc)})
			r.dropped++
			r.i += r.dir
		default:
			return false
		}
	}
	return true
}

// splitAtAccent reports a space of the quote before (in the run's
// direction) the letter the page stores apart from its accent: pypdf
// splits a word there ("Fa c ade", "K olling" for TeX's "Fac¸ade",
// "K¨olling"), and an ASCII copy keeps the letter. Read before dropping
// the page's letter, which would lose it.
func (r *asciiRun) splitAtAccent(pc, qc rune) bool {
	k := r.j + r.dir
	return qc == ' ' && pc >= utf8.RuneSelf && k >= 0 && k < len(r.q.rs) && r.p.residue(r.i) == r.q.rs[k] && !r.q.significant(r.j)
}

// spaces steps over a space one side has where the other has none, as
// words joined or split (joined_words), and reports whether it did.
func (r *asciiRun) spaces(pc, qc rune) bool {
	switch {
	case pc == ' ' && !r.p.significant(r.i):
		r.joined = true // words the quote joins
		r.i += r.dir
	case qc == ' ' && !r.q.significant(r.j):
		r.joined = true // a word the quote splits
		r.j += r.dir
	default:
		return false
	}
	return true
}

// hyphenPoint steps over the quote's hyphen, and a space after it, where
// the page hyphenated a word at a line end ("pri-vate" or "pri- vate" for
// the page's "pri-\nvate", as the hyphenation level reads it), and
// reports whether it did.
func (r *asciiRun) hyphenPoint() bool {
	p, q := r.p, r.q
	at := r.i // the page position the hyphen was removed before
	if r.dir < 0 {
		at = r.i + 1
	}
	if !p.t.OptionalHyphenAt(at) {
		return false
	}
	j := r.j
	if q.rs[j] == ' ' && r.dir < 0 {
		j--
	}
	if j < 0 || j >= len(q.rs) || q.rs[j] != '-' {
		return false
	}
	j += r.dir
	if r.dir > 0 && j < len(q.rs) && q.rs[j] == ' ' {
		j++
	}
	r.j = j
	return true
}

// changedNote says why a quote that matched a passage but for characters
// that carry meaning is not found.
func (ix *Index) changedNote(nm *symbolNearMiss) (Changed, string) {
	l := ix.location(&nm.l)
	d := nm.diffs[0]
	c := Changed{Location: l, Page: diffChars(d.page), Quote: diffChars(d.quote)}
	passage := ""
	if len(l.Spans) > 0 {
		s := l.Spans[0]
		if raw, ok := ix.PageText(l.Document, s.Page); ok {
			passage = strings.Join(strings.Fields(runeSlice(raw, s.Start, s.End)), " ")
		}
	}
	if n := utf8.RuneCountInString(passage); n > 160 {
		passage = string([]rune(passage)[:157]) + "..."
	}
	what := fmt.Sprintf("the page has %s where the quote has %s", quoteChars(c.Page), quoteChars(c.Quote))
	note := fmt.Sprintf("not found: the quote matches %q (%s page %d) but for a character that carries meaning: %s (a sign, comparison, currency, unit or separator next to a number is never relaxed)",
		passage, l.Document, l.Spans[0].Page, what)
	return c, note
}

// diffChars is a difference's characters without the spaces around them,
// but a difference that is only a space (a number split in two, or two
// joined into one) stays a space: "nothing where the quote has nothing"
// would say nothing.
func diffChars(s string) string {
	if t := strings.TrimSpace(s); t != "" || s == "" {
		return t
	}
	return " "
}

func quoteChars(s string) string {
	if s == "" {
		return "nothing"
	}
	var parts []string
	for _, r := range s {
		if r == ' ' {
			parts = append(parts, "a space (U+0020)")
			continue
		}
		parts = append(parts, fmt.Sprintf("%q (U+%04X)", string(r), r))
	}
	return strings.Join(parts, " ")
}
