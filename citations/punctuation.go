package citations

import (
	"fmt"
	"slices"
	"strings"
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
// spaces then collapsed; never a character that carries meaning.
//
// At both levels the match starts and ends on the page's word boundaries,
// and what the quote and the page hold attached to its first and last word
// character (a sign before a number, a per-cent sign after it) must carry
// the same meaning. The quote's skeleton must be at least
// textnorm.JoinedMinLen code points long, as for joined_words.
//
// A quote that matches a passage but for characters that carry meaning is
// not found; Result.Changed names the characters and the passage.

// skelMatch is a verified candidate: where on the target text, and the
// meaning-carrying differences that kept it from matching (none for a
// match).
type skelMatch struct {
	from, to int
	diffs    []symDiff
}

// symDiff is one difference at a character that carries meaning: what the
// page has and what the quote has there ("" for nothing).
type symDiff struct{ page, quote string }

// target is a text a skeleton hit lands in: a page text or a reading
// order, normalized, read code point by code point.
type target struct {
	p            *ptext
	full, ascii  []int32 // its skeletons' positions, made on first use
	fullS, asciS string
}

func (tg *target) skel(ascii bool) (string, []int32) {
	if ascii {
		if tg.ascii == nil {
			tg.asciS, tg.ascii = skeleton(tg.p, true)
		}
		return tg.asciS, tg.ascii
	}
	if tg.full == nil {
		tg.fullS, tg.full = skeleton(tg.p, false)
	}
	return tg.fullS, tg.full
}

// findSymbols looks the quote's skeleton up in every skeleton index and
// verifies each hit at both levels. It returns the locations at
// punctuation and, for an ASCII quote, at non_ascii_dropped, and the first
// passage that matched but for characters that carry meaning (a near
// miss), in the named document if there is one.
func (ix *Index) findSymbols(qt *textnorm.Text, doc int) (punct, ascii []loc, near *symbolNearMiss) {
	q := newPtext(qt)
	qs, qidx := skeleton(q, false)
	if len(qidx) < textnorm.JoinedMinLen {
		return nil, nil, nil
	}
	f := &symbolFinds{doc: doc}
	isASCII := asciiText(qt.Raw())
	targets := map[int32]*target{}
	type key struct {
		t    int32
		from int
	}
	var seen smallSet[key]
	try := func(h skelHit, asciiSkel bool) {
		tg := ix.skelTarget(targets, h.target)
		if tg == nil {
			return
		}
		s, idx := tg.skel(asciiSkel)
		if h.off >= len(s) {
			return
		}
		a := utf8.RuneCountInString(s[:h.off])
		if a+len(qidx) > len(idx) {
			return
		}
		start := int(idx[a])
		if !seen.add(key{h.target, start}) {
			return
		}
		if m, ok := alignPunct(tg.p, idx[a:a+len(qidx)], q, qidx); ok && !asciiSkel {
			ix.addSymbolLoc(f, h.target, tg, m, Punctuation)
		}
		if isASCII {
			if m, ok := alignASCII(tg.p, start, q, qidx); ok {
				ix.addSymbolLoc(f, h.target, tg, m, NonASCIIDropped)
			}
		}
	}
	pat := bytesOf(qs)
	for s := range ix.shards {
		for _, h := range ix.shards[s].sk.hits(ix, pat) {
			try(h, false)
		}
	}
	if ix.orders != nil {
		for s := range ix.orders.shards {
			for _, h := range ix.orders.shards[s].sk.hits(ix, pat) {
				try(h, false)
			}
		}
	}
	if isASCII && ix.asciiSk != nil {
		for _, h := range ix.asciiSk.hits(ix, pat) {
			try(h, true)
		}
	}
	ix.sortLocs(f.punct)
	ix.sortLocs(f.ascii)
	return dedupLocs(f.punct), dedupLocs(f.ascii), f.near
}

// symbolFinds collects what findSymbols finds for a quote cited in doc.
type symbolFinds struct {
	punct, ascii []loc
	near         *symbolNearMiss
	doc          int
}

// dedupLocs drops a location that repeats the one before (a page text and
// its reading order finding the same place).
func dedupLocs(ls []loc) []loc {
	out := ls[:0]
	for _, l := range ls {
		if len(out) > 0 && partsKey(out[len(out)-1].parts) == partsKey(l.parts) {
			continue
		}
		out = append(out, l)
	}
	return out
}

// skelTarget returns the text behind a skeleton's target, normalized.
func (ix *Index) skelTarget(targets map[int32]*target, t int32) *target {
	if tg := targets[t]; tg != nil {
		return tg
	}
	var tn *textnorm.Text
	switch {
	case t >= 0 && int(t) < len(ix.pages):
		tn = ix.text(int(t))
	case t < 0 && ix.orders != nil && int(-1-t) < len(ix.orders.pages):
		op := &ix.orders.pages[-1-t]
		ix.blocks.string(op.raw)
		tn = ix.profile.Normalize(op.raw)
	default:
		return nil
	}
	tg := &target{p: newPtext(tn)}
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
	if t >= 0 {
		l, ok = loc{doc: ix.pages[t].doc, parts: []part{{int(t), m.from, m.to}}, level: lvl}, true
	} else {
		l, ok = ix.orderLoc(&ix.orders.pages[-1-t], tg.p.t, m.from, m.to, lvl)
	}
	if !ok {
		return
	}
	switch {
	case len(m.diffs) == 0 && lvl == Punctuation:
		f.punct = append(f.punct, l)
	case len(m.diffs) == 0:
		f.ascii = append(f.ascii, l)
	case f.near == nil || f.near.l.doc != f.doc && l.doc == f.doc:
		f.near = &symbolNearMiss{l: l, diffs: m.diffs}
	}
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

// alignPunct verifies a punctuation-level candidate: the page's word
// characters at pw hold the quote's at qw (the skeletons matched), so only
// the gaps between them, and what is attached to the first and the last,
// are compared. ok is false when the candidate is no match at all; a
// match that differs only in characters that carry meaning has diffs.
func alignPunct(p *ptext, pw []int32, q *ptext, qw []int32) (skelMatch, bool) {
	m := skelMatch{from: int(pw[0]), to: int(pw[len(pw)-1]) + 1}
	if !wordEdgesOK(p, m.from, m.to-1) {
		return m, false
	}
	relaxed := false
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
		if isDigitRune(p.rs[pw[k]]) && isDigitRune(p.rs[pw[k+1]]) {
			m.diffs = append(m.diffs, symDiff{page: string(gp), quote: string(gq)})
			continue
		}
		if mp, mq := meaning(p, pa, pb), meaning(q, qa, qb); mp != mq {
			m.diffs = append(m.diffs, symDiff{page: mp, quote: mq})
			continue
		}
		if len(gp) == 0 && hasSpace(gq) || len(gq) == 0 && hasSpace(gp) {
			return m, false // words joined or split: joined_words, not this level
		}
	}
	if !relaxed && len(m.diffs) == 0 {
		return m, false // the same gaps: an earlier level's, or its edges failed there
	}
	edges(p, &m, q, qw)
	return m, true
}

// wordEdgesOK reports whether page word characters first..last start and
// end on word boundaries: no word character is attached before first or
// after last (but in scripts written without spaces).
func wordEdgesOK(p *ptext, first, last int) bool {
	if k, attached := p.wordNear(first, -1); k >= 0 && attached && !noSpaceScript(p.rs[first]) {
		return false
	}
	if k, attached := p.wordNear(last, 1); k >= 0 && attached && !noSpaceScript(p.rs[last]) {
		return false
	}
	return true
}

// edges compares what is attached before the first and after the last
// word character on the page (up to a space) with the quote's own leading
// and trailing characters, by the characters of each that carry meaning,
// adding a difference to m for each side that differs, and widens m over
// as many of the page's attached characters as the quote has there (a
// quote's final full stop covers the page's).
func edges(p *ptext, m *skelMatch, q *ptext, qw []int32) {
	from, to := m.from, m.to
	a := from
	for a > 0 && p.rs[a-1] != ' ' {
		a--
	}
	qa := int(qw[0])
	for k := qa - 1; k >= 0 && q.rs[k] != ' '; k-- {
		qa = k
	}
	if mp, mq := meaning(p, a, from), meaning(q, qa, int(qw[0])); mp != mq {
		m.diffs = append(m.diffs, symDiff{page: mp, quote: mq})
	}
	m.from = from - min(from-a, int(qw[0])-qa)
	b := to
	for b < len(p.rs) && p.rs[b] != ' ' {
		b++
	}
	qe, qb := int(qw[len(qw)-1])+1, int(qw[len(qw)-1])+1
	for qb < len(q.rs) && q.rs[qb] != ' ' {
		qb++
	}
	if mp, mq := meaning(p, to, b), meaning(q, qe, qb); mp != mq {
		m.diffs = append(m.diffs, symDiff{page: mp, quote: mq})
	}
	m.to = to + min(b-to, qb-qe)
}

// alignASCII verifies a non_ascii_dropped candidate: from page position
// start (the quote's first word character's), the quote's characters up to
// its last word character must be the page's with droppable characters
// left out and the spaces around them collapsed. A character that carries
// meaning in the way is a difference (diffs), not a mismatch.
func alignASCII(p *ptext, start int, q *ptext, qw []int32) (skelMatch, bool) {
	m := skelMatch{from: start}
	i, j, end := start, int(qw[0]), int(qw[len(qw)-1])
	dropped, lastSpace := 0, false
	for j <= end {
		if i >= len(p.rs) {
			return m, false
		}
		pc, qc := p.rs[i], q.rs[j]
		switch {
		case pc == qc:
			lastSpace = pc == ' '
			i, j = i+1, j+1
		case p.droppable(i):
			dropped++
			i++
		case pc == ' ' && lastSpace:
			i++
		case p.nonASCII(i):
			m.diffs = append(m.diffs, symDiff{page: string(pc)})
			dropped++
			i++
		default:
			return m, false
		}
	}
	m.to = i
	// Droppable characters attached before the first and after the last
	// word character are part of the passage ("ﬁnancial" read "nancial").
	for m.from > 0 && p.rs[m.from-1] != ' ' && p.droppable(m.from-1) {
		m.from--
	}
	for m.to < len(p.rs) && p.rs[m.to] != ' ' && p.droppable(m.to) {
		m.to++
	}
	if dropped == 0 || !wordEdgesOK(p, m.from, m.to-1) {
		return m, false
	}
	edges(p, &m, q, qw)
	return m, true
}

// changedNote says why a quote that matched a passage but for characters
// that carry meaning is not found.
func (ix *Index) changedNote(nm *symbolNearMiss) (Changed, string) {
	l := ix.location(&nm.l)
	d := nm.diffs[0]
	c := Changed{Location: l, Page: strings.TrimSpace(d.page), Quote: strings.TrimSpace(d.quote)}
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

func quoteChars(s string) string {
	if s == "" {
		return "nothing"
	}
	var parts []string
	for _, r := range s {
		parts = append(parts, fmt.Sprintf("%q (U+%04X)", string(r), r))
	}
	return strings.Join(parts, " ")
}
