package citations

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/textnorm"

	"github.com/citecheck/citecheck/internal/suggest"
)

// ShortQuoteLen and ShortQuoteMaxOccurrences define a very short quote: one
// under ShortQuoteLen normalized code points that occurs more than
// ShortQuoteMaxOccurrences times in the corpus is ambiguous even when a
// single occurrence is in the named document, because where such a string
// occurs says nothing about what was read; only a given page that holds it
// exactly once settles it.
const (
	ShortQuoteLen            = 16
	ShortQuoteMaxOccurrences = 2
)

// MaxElisionGap is the most normalized code points one elided segment may
// start after the previous one ends, in document order ("near each other").
const MaxElisionGap = 2000

// maxVariants bounds the line-end hyphenation spellings looked up per quote;
// maxElisionSegments the segments of an elided quote (more is not an
// elision but a string of dots).
const (
	maxVariants        = 8
	maxElisionSegments = 16
)

// part is one matched range of a page, in normalized code points.
type part struct {
	page     int // index in Index.pages
	from, to int
}

// loc is a location before it is turned into raw offsets.
type loc struct {
	doc   int
	parts []part
	level Level
	order string // the reading order it was found in, "" for the page text
}

func (ix *Index) startPos(l *loc) int { p := l.parts[0]; return ix.pages[p.page].docPos + p.from }

func (ix *Index) endPos(l *loc) int {
	p := l.parts[len(l.parts)-1]
	return ix.pages[p.page].docPos + p.to
}

// Locate finds the quote in the corpus and reports where, relative to the
// document it names. It never fails: an unknown document or an empty quote
// is a status or a note in the result.
func (ix *Index) Locate(q Query) Result {
	r := Result{Query: q, Chosen: -1}
	doc := -1
	if q.Document != "" {
		if d, ok := ix.docIndex(q.Document); ok {
			doc = d
			e := &ix.docs[d]
			r.Document = e.name
			if e.status != corpus.StatusOK {
				r.DocumentStatus = e.status
			}
			for p := e.first; p < e.first+e.n; p++ {
				if hasTextlessFlag(ix.pages[p].flags) {
					r.DocumentHasTextlessPages = true
				}
				if ix.pages[p].num == q.Page {
					r.PageFlags = ix.pages[p].flags
				}
			}
		}
	}
	qt := ix.profile.Normalize(q.Quote)
	if qt.Len() == 0 {
		r.Status = StatusNotFound
		if doc < 0 {
			r.Status = StatusUnknownDocument
		}
		r.Note = "empty quote: nothing to locate"
		return r
	}
	s := ix.search(qt, doc, q.Retrieval)
	if len(s.in) == 0 {
		for i := range s.elsewhere {
			if i == MaxElsewhere {
				break
			}
			r.Elsewhere = append(r.Elsewhere, ix.location(&s.elsewhere[i]))
		}
	}
	r.Elided = s.elided
	switch {
	case doc < 0:
		r.Status = StatusUnknownDocument
		if q.Document == "" {
			r.Note = "no document named"
		} else {
			r.Note = fmt.Sprintf("document %q is not in the corpus%s", q.Document, suggest.Phrase(ix.Documents(), q.Document))
		}
		return r
	case len(s.in) == 0 && len(s.elsewhere) > 0:
		r.Status = StatusNotFoundInDocument
		ix.noteChanged(&r, s.near)
		return r
	case len(s.in) == 0:
		r.Status = StatusNotFound
		ix.noteChanged(&r, s.near)
		return r
	}
	r.Level = maxLevel
	for i := range s.in {
		r.Locations = append(r.Locations, ix.location(&s.in[i]))
		r.Level = min(r.Level, s.in[i].level)
	}
	if o := s.in[0].order; o != "" {
		// Every location of a stage comes from the page texts or from
		// their reading orders: say which, where the record has room.
		r.Note = fmt.Sprintf("found in the page's %s reading order (%s), not in its text as stored: spans are the pieces of the text it reads", o, orderReader(o))
	}
	if r.Level == RetrievalEdges {
		r.Note = joinNotes(r.Note, "found with its first or last word cut short: the quote is a retrieval result (quote_from retrieval_result), a chunk cut at token boundaries, whose edges alone may fall inside a word")
	}
	ix.checkPage(&r)
	if qt.Len() < ShortQuoteLen && s.count > ShortQuoteMaxOccurrences {
		r.Short = true
		// A given page that holds the quote once settles where it is
		// (docs/grading.md's readings: "QA-7731" cited on page 2 is located, and
		// judged on what it says).
		if !(r.Status == StatusUnique && r.PageCheck == PagePhysical) {
			r.Status = StatusAmbiguous
			r.Chosen = -1
			r.DisambiguatedByPage = false
		}
	}
	return r
}

// noteChanged records a passage the quote matched but for characters
// that carry meaning, and says so in the note.
func (ix *Index) noteChanged(r *Result, near *symbolNearMiss) {
	if near == nil {
		return
	}
	c, note := ix.changedNote(near)
	r.Changed = &c
	r.Note = joinNotes(r.Note, note)
}

func joinNotes(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// hasLabels reports whether any page of document d has a label.
func (ix *Index) hasLabels(d int) bool {
	e := &ix.docs[d]
	for p := e.first; p < e.first+e.n; p++ {
		if ix.pages[p].label != "" {
			return true
		}
	}
	return false
}

func hasTextlessFlag(flags []string) bool {
	return slices.Contains(flags, corpus.FlagNoTextLayer) || slices.Contains(flags, corpus.FlagUnreliableText)
}

// checkPage sets Status, Chosen and PageCheck from the locations and the
// page the query gave.
func (ix *Index) checkPage(r *Result) {
	all := make([]int, len(r.Locations))
	for i := range all {
		all[i] = i
	}
	pick := func(check PageCheck, idx []int) {
		r.PageCheck = check
		if len(idx) == 1 {
			r.Status, r.Chosen = StatusUnique, idx[0]
			r.DisambiguatedByPage = len(r.Locations) > 1
		} else {
			r.Status = StatusAmbiguous
		}
	}
	on := func(match func(Span) bool) []int {
		var idx []int
		for i, l := range r.Locations {
			if slices.ContainsFunc(l.Spans, match) {
				idx = append(idx, i)
			}
		}
		return idx
	}
	q := r.Query
	d, _ := ix.docIndex(r.Document)
	label := func(p int) string { return ix.pages[ix.docs[d].first+p-1].label }
	last := max(q.Page, q.LastPage)
	switch {
	case q.Page > 0:
		if idx := on(func(s Span) bool { return s.Page >= q.Page && s.Page <= last }); len(idx) > 0 {
			pick(PagePhysical, idx)
			return
		}
		if q.PhysicalOnly {
			pick(PageNotOnPage, all)
			break
		}
		want := strconv.Itoa(q.Page)
		if idx := on(func(s Span) bool { return label(s.Page) == want || (q.PageLabel != "" && label(s.Page) == q.PageLabel) }); len(idx) > 0 {
			pick(PageLabelled, idx)
			return
		}
		if idx := on(func(s Span) bool { return s.Page >= q.Page+1 && s.Page <= last+1 }); len(idx) > 0 {
			pick(PageZeroBased, idx)
			return
		}
		pick(PageNotOnPage, all)
	case q.PageLabel != "":
		if idx := on(func(s Span) bool { return label(s.Page) == q.PageLabel }); len(idx) > 0 {
			pick(PageLabelled, idx)
			return
		}
		// A document without page labels: readers (LlamaIndex's PDFReader)
		// then write the 1-based page number as the label.
		if n, err := strconv.Atoi(q.PageLabel); err == nil && n > 0 && !ix.hasLabels(d) {
			if idx := on(func(s Span) bool { return s.Page == n }); len(idx) > 0 {
				pick(PagePhysical, idx)
				return
			}
		}
		pick(PageNotOnPage, all)
	default:
		pick(PageNotGiven, all)
	}
	if r.PageCheck == PageNotOnPage {
		r.DisambiguatedByPage = false
	}
}

// location converts a loc to raw page offsets.
func (ix *Index) location(l *loc) Location {
	out := Location{Document: ix.docs[l.doc].name, Level: l.level, Order: l.order, Spans: make([]Span, 0, len(l.parts))}
	for _, p := range l.parts {
		pe := &ix.pages[p.page]
		a, b := ix.text(p.page).RawSpan(p.from, p.to)
		out.Spans = append(out.Spans, Span{Page: pe.num, Start: a, End: b})
	}
	// Stable, as sort.Slice was on these few spans (an insertion sort).
	slices.SortStableFunc(out.Spans, func(a, b Span) int {
		if a.Page != b.Page {
			return cmp.Compare(a.Page, b.Page)
		}
		return cmp.Compare(a.Start, b.Start)
	})
	return out
}

// searched is what the stages found.
type searched struct {
	in, elsewhere []loc
	count         int // corpus-wide locations at the stage that found the document's
	elided        bool
	near          *symbolNearMiss // a passage matched but for characters that carry meaning
}

// search runs the stages from strictest to most relaxed and stops at the
// first that finds the quote in the named document. Locations elsewhere are
// kept from the first stage that found any. A retrieval result (retrieval)
// is searched again at the normalized levels with its edges allowed inside
// words before the relaxed levels.
//
// A quote that names its document and is not short is first searched in
// the document's shards alone (scope.go), up to the reordered level, whose
// choice of the quote's rarest line counts the whole corpus: what that
// finds in the document is what a search of every shard finds there, stage
// by stage, and nothing else of the result depends on the other shards
// once the document holds the quote. Otherwise every shard is searched.
func (ix *Index) search(qt *textnorm.Text, doc int, retrieval bool) searched {
	if doc >= 0 && scopedSearch && qt.Len() >= ShortQuoteLen {
		if s := ix.searchStages(qt, doc, retrieval, ix.within(doc), true); len(s.in) > 0 {
			return s
		}
	}
	return ix.searchStages(qt, doc, retrieval, ix.everywhere(), false)
}

// searchStages is search in scope sc; with inDoc, it stops before the
// reordered level. Once a stage found the quote elsewhere, the later
// stages can only add locations in the document (or a near miss there),
// so they read its shards alone, but for a short quote, whose corpus-wide
// count at the stage that finds it is the short-quote rule's.
func (ix *Index) searchStages(qt *textnorm.Text, doc int, retrieval bool, sc scope, inDoc bool) searched {
	var s searched
	take := func(locs []loc, count int) bool {
		n := 0
		for _, l := range locs {
			if l.doc == doc {
				n++
			}
		}
		in, out := locs, []loc(nil) // every location in the document: no copy
		if n < len(locs) {
			in, out = make([]loc, 0, n), make([]loc, 0, len(locs)-n)
			for _, l := range locs {
				if l.doc == doc {
					in = append(in, l)
				} else {
					out = append(out, l)
				}
			}
		}
		if len(s.elsewhere) == 0 {
			s.elsewhere = out
			if len(out) > 0 && doc >= 0 && scopedSearch && qt.Len() >= ShortQuoteLen {
				sc = ix.within(doc)
			}
		}
		if len(in) > 0 {
			s.in, s.count = in, count
			return true
		}
		return false
	}
	vs, _ := qt.Variants(maxVariants) // the spellings findText and findOrders look up
	if ix.normalized(qt, vs, doc, false, &sc, take) {
		return s
	}
	if at := ix.accentShifted(qt); at != nil {
		avs, _ := at.Variants(maxVariants)
		takeShifted := func(locs []loc, count int) bool { return take(ix.accentAfterLocs(locs), count) }
		if ix.normalized(at, avs, doc, false, &sc, takeShifted) {
			return s
		}
	}
	if retrieval && ix.normalized(qt, vs, doc, true, &sc, take) {
		return s
	}
	qj := qt.Joined()
	if qj.Eligible() {
		locs := ix.findJoined(qt, qj, sc)
		if take(locs, len(locs)) {
			return s
		}
	}
	if locs := ix.findUnmapped(qt); take(locs, len(locs)) {
		return s
	}
	if locs := ix.findGlyphCodes(qt, qj); take(locs, len(locs)) {
		return s
	}
	if locs := ix.findGlyphNames(qt, sc); take(locs, len(locs)) {
		return s
	}
	if segs := ix.elisions(qt); len(segs) > 1 {
		locs := ix.findElided(segs, doc, sc)
		if take(locs, len(locs)) {
			s.elided = true
			return s
		}
	}
	if inDoc {
		return s
	}
	if locs := ix.findReordered(qt, doc, len(s.elsewhere) == 0); take(locs, len(locs)) {
		return s
	}
	f := ix.findSymbols(qt, doc, sc)
	if take(f.punct, len(f.punct)) || take(f.ascii, len(f.ascii)) || take(f.joined, len(f.joined)) || take(f.codes, len(f.codes)) {
		return s
	}
	if locs := ix.findReorderedASCII(qt, doc); take(locs, len(locs)) {
		return s
	}
	if f.near != nil && (f.near.l.doc == doc || len(s.elsewhere) == 0) {
		s.near = f.near
	}
	return s
}

// normalized runs the normalized levels: the page texts, then their
// reading orders, with partial edges or not, giving take what each finds.
func (ix *Index) normalized(qt *textnorm.Text, vs []string, doc int, partial bool, sc *scope, take func([]loc, int) bool) bool {
	locs, frequent := ix.findText(qt, vs, doc, partial, *sc)
	count := len(locs)
	if frequent {
		count = max(count, maxHits+1)
	}
	if take(locs, count) {
		return true
	}
	// The pages' reading orders, at the same levels.
	if locs, frequent := ix.findOrders(qt, vs, doc, partial, *sc); len(locs) > 0 {
		count := len(locs)
		if frequent {
			count = max(count, maxHits+1)
		}
		if take(locs, count) {
			return true
		}
	}
	return false
}

// sortLocs orders locations by document, then position, then extent.
func (ix *Index) sortLocs(ls []loc) {
	if len(ls) < 2 {
		return
	}
	slices.SortStableFunc(ls, func(a, b loc) int {
		if a.doc != b.doc {
			return cmp.Compare(a.doc, b.doc)
		}
		if x, y := ix.startPos(&a), ix.startPos(&b); x != y {
			return cmp.Compare(x, y)
		}
		return cmp.Compare(ix.endPos(&a), ix.endPos(&b))
	})
}

// findText looks the quote's spellings vs (its Variants) up in the index
// and verifies each hit with textnorm.Align, page by page across joins.
// frequent reports that a spelling occurs more than maxHits times; the
// named document is then scanned directly so that its occurrences are
// complete.
//
// With partial (a retrieval result), a match may start or end inside a
// word: it is then RetrievalEdges.
func (ix *Index) findText(qt *textnorm.Text, vs []string, doc int, partial bool, sc scope) (locs []loc, frequent bool) {
	type try struct{ shard, seg, at int }
	var tried smallSet[try]
	var found smallSet[[2]int]
	for _, v := range vs {
		pat := bytesOf(v)
		for shi := sc.textFrom; shi < sc.textTo; shi++ {
			sh := &ix.shards[shi]
			hits := sh.sa.Lookup(pat, maxHits+1)
			if len(hits) > maxHits {
				frequent = true
				if doc >= 0 && ix.docs[doc].shard == shi {
					e := &ix.docs[doc]
					ix.blocks.bytes(sh.data[e.regFrom:e.regTo])
					hits = append(hits, scanAll(sh.data[e.regFrom:e.regTo], pat, e.regFrom)...)
				}
			}
			sort.Ints(hits)
			for _, h := range hits {
				si, _, at := ix.hitPos(sh, h)
				if si < 0 || !tried.add(try{shi, si, at}) {
					continue
				}
				l, ok := ix.verify(qt, sh, si, at, partial)
				if !ok || !found.add([2]int{l.parts[0].page, l.parts[0].from}) {
					continue
				}
				locs = append(locs, l)
			}
		}
	}
	ix.sortLocs(locs)
	return locs, frequent
}

// hitPos returns the segment holding byte offset h of a shard's text
// (-1 for none), its page, and h as a code point of the page's normalized
// text.
func (ix *Index) hitPos(sh *shard, h int) (si, page, at int) {
	si = sh.segAt(h)
	if si < 0 {
		return -1, 0, 0
	}
	seg := &sh.segs[si]
	t := ix.text(int(seg.page))
	return si, int(seg.page), t.CodePoint(int(seg.fromByte) + h - int(seg.at))
}

// scanAll returns every offset of pat in b, plus base.
func scanAll(b, pat []byte, base int) []int {
	var out []int
	for off := 0; ; {
		i := bytes.Index(b[off:], pat)
		if i < 0 {
			return out
		}
		out = append(out, base+off+i)
		off += i + 1
	}
}

// verify matches the whole quote from position at of segment si, following
// joins to the next segment where the page (or its content) ends.
func (ix *Index) verify(qt *textnorm.Text, sh *shard, si, at int, partial bool) (loc, bool) {
	seg := &sh.segs[si]
	pe := &ix.pages[seg.page]
	l := loc{doc: pe.doc}
	qpos, qlen := 0, qt.Len()
	lvl := textnorm.Exact
	for {
		seg = &sh.segs[si]
		t := ix.text(int(seg.page))
		a := textnorm.Align(t, at, qt, qpos, qlen)
		if a.QuoteEnd == qlen && a.End > at {
			l.parts = append(l.parts, part{int(seg.page), at, a.End})
			l.level = Level(max(lvl, a.Level))
			first, last := l.parts[0], l.parts[len(l.parts)-1]
			var ok bool
			l.level, ok = edgeLevel(matchEnds{ix.text(first.page), first.from, ix.text(last.page), last.to}, qt, l.level, partial)
			return l, ok
		}
		if seg.next < 0 || a.End < int(seg.to) {
			return loc{}, false
		}
		k, kl, ok := splitAt(t, at, int(seg.to), qt, qpos)
		if !ok || k >= qlen || qt.Slice(k, k+1) != " " {
			return loc{}, false
		}
		l.parts = append(l.parts, part{int(seg.page), at, int(seg.to)})
		// A page break is no raw text: crossing one is at least Whitespace.
		lvl = max(lvl, kl, textnorm.Whitespace)
		qpos = k + 1
		si = int(seg.next)
		at = int(sh.segs[si].from)
	}
}

// splitAt finds the quote position k at which aligning the quote from qpos
// ends exactly at page position end. Hyphenation steps make the quote a
// little longer or shorter than the page range, so a few candidates around
// the plain length are tried.
func splitAt(t *textnorm.Text, at, end int, qt *textnorm.Text, qpos int) (int, textnorm.Level, bool) {
	k0, qlen := qpos+(end-at), qt.Len()
	for _, d := range [...]int{0, 1, -1, 2, -2, 3, -3, 4, -4} {
		k := k0 + d
		if k <= qpos || k >= qlen {
			continue
		}
		a := textnorm.Align(t, at, qt, qpos, k)
		if a.End == end && a.QuoteEnd == k {
			return k, a.Level, true
		}
	}
	return 0, 0, false
}

// noSpaceScript reports scripts written without spaces between words,
// where a quote may begin or end inside a run of letters.
func noSpaceScript(r rune) bool { return textnorm.NoSpaceScript(r) }

func isDigitRune(r rune) bool { return unicode.IsDigit(r) }

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) }

// runeBefore and runeAfter read the normalized text around a position;
// -1 at the ends.
func runeBefore(t *textnorm.Text, n int) rune {
	if n <= 0 {
		return -1
	}
	r, _ := utf8.DecodeRuneInString(t.Slice(n-1, n))
	return r
}

func runeAfter(t *textnorm.Text, n int) rune {
	if n >= t.Len() {
		return -1
	}
	r, _ := utf8.DecodeRuneInString(t.Slice(n, n+1))
	return r
}

// matchEnds are where a match starts and ends: at position from of page
// text ft and at position to of lt, which is ft or, for a match across a
// page break, the next page's text.
type matchEnds struct {
	ft   *textnorm.Text
	from int
	lt   *textnorm.Text
	to   int
}

// onText is the ends of a match from position from to position to of t.
func onText(t *textnorm.Text, from, to int) matchEnds { return matchEnds{t, from, t, to} }

// edgesOK rejects a match that starts or ends inside a word or a number of
// the page: "10 days" is not in "110 days", "3" not in "3.5", "batch" not
// in "batches". A number's digits, decimal point, separators and sign belong
// to it; letters are checked except in scripts written without spaces.
//
// letters is false for joined-words matches: a page that lost its spaces
// glues every word to its neighbours, so only numbers are checked there.
//
// A match may start or end inside a word the page hyphenated at a line end,
// at the hyphen (the page's optional hyphen): a quote copied up to "com-"
// or from "piler" on, where the page prints "com-" and "piler" on two
// lines. The caller charges such an edge Hyphenation.
func edgesOK(m matchEnds, qt *textnorm.Text, letters bool) bool {
	ft, from, lt, to := m.ft, m.from, m.lt, m.to
	qs := qt.String()
	qf, _ := utf8.DecodeRuneInString(qs)
	ql, _ := utf8.DecodeLastRuneInString(qs)
	p1 := runeBefore(ft, from)
	if ft.OptionalHyphenAt(from) {
		p1 = -1
	}
	switch {
	case p1 < 0:
	case isDigitRune(qf):
		// A sign attached before the number is part of it: "40" is not
		// the page's "€40", nor "3" its "≤3" (signRune).
		if isDigitRune(p1) || p1 == '-' || p1 == '+' || unicode.IsMark(p1) || signRune(p1) {
			return false
		}
		if b := runeBefore(ft, from-1); (p1 == '.' || p1 == ',') && !unicode.IsLetter(b) && b != '.' {
			return false // "5" is not ".5" nor "3.5"; "p.5" is a page, 5, and "....12" a leader's
		}
	case letters && (unicode.IsLetter(qf) || unicode.IsMark(qf)):
		if isWordRune(p1) && !noSpaceScript(qf) && !noSpaceScript(p1) {
			return false
		}
	}
	n1 := runeAfter(lt, to)
	if lt.OptionalHyphenAt(to) {
		n1 = -1
	}
	switch {
	case n1 < 0:
	case letters && unicode.IsMark(n1):
		return false
	case isDigitRune(ql):
		if isDigitRune(n1) || unitSign(n1) {
			return false // "fell 7" is not the page's "fell 7‰"
		}
		if (n1 == '.' || n1 == ',') && isDigitRune(runeAfter(lt, to+1)) {
			return false
		}
	case letters && unicode.IsLetter(ql):
		if isWordRune(n1) && !noSpaceScript(ql) && !noSpaceScript(n1) {
			return false
		}
	}
	return true
}

// edgeLevel applies edgesOK to a match, and charges an edge at a
// hyphenation point of the page (inside a word hyphenated at a line end)
// Hyphenation. With partial, a match edgesOK refuses is RetrievalEdges: a
// retrieval result's first and last words may be cut short.
func edgeLevel(m matchEnds, qt *textnorm.Text, l Level, partial bool) (Level, bool) {
	if !edgesOK(m, qt, true) {
		return RetrievalEdges, partial
	}
	if m.ft.OptionalHyphenAt(m.from) || m.lt.OptionalHyphenAt(m.to) {
		l = max(l, Hyphenation)
	}
	return l, true
}

// lookupSorted returns at most maxHits occurrences of pat in sa, in
// increasing order.
func lookupSorted(sa *suffixes, pat []byte) []int {
	hits := sa.Lookup(pat, maxHits)
	sort.Ints(hits)
	return hits
}

// findJoined looks the quote up with spaces ignored (never between two
// digits). Every hit is JoinedWords: had the spaces agreed, findText would
// have found it.
func (ix *Index) findJoined(qt *textnorm.Text, qj *textnorm.Joined, sc scope) []loc {
	pat := bytesOf(qj.String())
	joined := map[int]*textnorm.Joined{}
	pts := map[int]*ptext{} // read only for a quote with a dash (dashesAgree)
	var qp *ptext
	var locs []loc
	for shi := sc.textFrom; shi < sc.textTo; shi++ {
		sh := &ix.shards[shi]
		for _, h := range lookupSorted(&sh.jsa, pat) {
			js := sh.jsegs[sh.jsegAt(h)]
			pe := &ix.pages[js.page]
			pt := ix.text(int(js.page))
			pj := joined[int(js.page)]
			if pj == nil {
				pj = pt.Joined()
				joined[int(js.page)] = pj
			}
			ja := pj.CodePoint(h - int(js.at))
			if ja+qj.Len() > pj.Len() {
				continue
			}
			from, to := pj.NormSpan(ja, ja+qj.Len())
			if !edgesOK(onText(pt, from, to), qt, false) {
				continue
			}
			if strings.Contains(qj.String(), "-") {
				if pts[int(js.page)] == nil {
					pts[int(js.page)] = newPtext(pt)
				}
				if qp == nil {
					qp = newPtext(qt)
				}
				if !dashesAgree(pts[int(js.page)], pj, ja, qp, qj) {
					continue
				}
			}
			locs = append(locs, loc{doc: pe.doc, parts: []part{{int(js.page), from, to}}, level: JoinedWords})
		}
	}
	ix.sortLocs(locs)
	return locs
}

// dashesAgree reports whether each dash of a joined_words match (the
// quote's joined form at page joined code point ja) is attached to the
// same digits on the page and in the quote: the level ignores spaces, but
// a dash apart from a number is a table's nil or a range's dash and one
// attached to it a minus, "— 1,200" not "-1,200". A dash between two
// numbers is a separator however spaced, as punctuation reads it.
func dashesAgree(p *ptext, pj *textnorm.Joined, ja int, q *ptext, qj *textnorm.Joined) bool {
	k := 0
	for _, r := range qj.String() {
		if r == '-' {
			pf, _ := pj.NormSpan(ja+k, ja+k+1)
			qf, _ := qj.NormSpan(k, k+1)
			l, _ := p.wordNear(pf, -1)
			rt, _ := p.wordNear(pf, 1)
			between := l >= 0 && rt >= 0 && isDigitRune(p.rs[l]) && isDigitRune(p.rs[rt])
			if !between && p.attachedDigit(pf) != q.attachedDigit(qf) {
				return false
			}
		}
		k++
	}
	return true
}

// elisions splits a quote at "..." (an ellipsis folds to it), with any
// brackets around the dots, into separately normalized segments. Segments
// with no letter or digit are dropped. One segment means no elision.
func (ix *Index) elisions(qt *textnorm.Text) []*textnorm.Text {
	s := qt.String()
	if !strings.Contains(s, "...") {
		return nil
	}
	var segs []*textnorm.Text
	tooShort := false
	cp := 0 // code point offset of s[b:]
	start := 0
	add := func(a, b int) {
		if b <= a {
			return
		}
		ra, rb := qt.RawSpan(a, b)
		seg := ix.profile.Normalize(trimElisionMarks(qt.RawSlice(ra, rb)))
		if strings.IndexFunc(seg.String(), isWordRune) >= 0 {
			segs = append(segs, seg)
		}
		// A segment holding a number carries its context with it, as a
		// reordered piece must: a lone "27" after "..." could be any 27.
		if hasDigit(seg.String()) && (strings.Count(seg.String(), " ")+1 < MinPieceWords || seg.Len() < MinPieceLen) {
			tooShort = true
		}
	}
	for b := 0; b < len(s); {
		if strings.HasPrefix(s[b:], "...") {
			n := 0
			for b+n < len(s) && s[b+n] == '.' {
				n++
			}
			if n > 4 {
				return nil // dot leaders (a table of contents), not an elision
			}
			add(start, cp)
			b += n
			cp += n
			start = cp
			continue
		}
		_, w := utf8.DecodeRuneInString(s[b:])
		b += w
		cp++
	}
	add(start, cp)
	if tooShort || len(segs) > maxElisionSegments {
		return nil
	}
	return segs
}

// trimElisionMarks removes the brackets and spaces around an elision
// ("[...]", "(…)") left at a segment's ends.
func trimElisionMarks(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || r == '[' || r == ']' || r == '(' || r == ')'
	})
}

// findElided locates every segment, then chains them per document: each
// segment starts after the previous one ends and at most MaxElisionGap
// code points later; the nearest such occurrence is taken. Each starting
// occurrence of the first segment gives at most one chain.
func (ix *Index) findElided(segs []*textnorm.Text, doc int, sc scope) []loc {
	occ := make([][]loc, len(segs))
	for i, sg := range segs {
		vs, _ := sg.Variants(maxVariants)
		occ[i], _ = ix.findText(sg, vs, doc, false, sc)
		if len(occ[i]) == 0 {
			return nil
		}
	}
	var out []loc
	for _, first := range occ[0] {
		chain := loc{doc: first.doc, parts: append([]part(nil), first.parts...), level: first.level}
		end := ix.endPos(&first)
		ok := true
		for i := 1; i < len(segs) && ok; i++ {
			ok = false
			for k := range occ[i] {
				o := &occ[i][k]
				if o.doc != first.doc {
					continue
				}
				st := ix.startPos(o)
				if st >= end && st-end <= MaxElisionGap {
					chain.parts = append(chain.parts, o.parts...)
					chain.level = max(chain.level, o.level)
					end = ix.endPos(o)
					ok = true
					break
				}
			}
		}
		if ok {
			out = append(out, chain)
		}
	}
	ix.sortLocs(out)
	return out
}
