package citations

import (
	"strings"
	"sync"
)

// The glyph_codes level's alternative texts at the last levels. A quote
// copied from an extractor that reads some glyphs by their font codes
// (pdfminer's "t 2 I" for "t ∈ I", poppler's "6=") and then changed by a
// pipeline (its non-ASCII characters dropped, a hyphen written as a
// space) needs both at once: the reading and the relaxation. After the
// punctuation, non_ascii_dropped and joined_words searches found nothing,
// the named document's alternative texts are searched under the same
// rules (the quote's skeleton, or its ASCII skeleton, looked up whole in
// theirs and verified character by character, characters that carry
// meaning never relaxed), and what matches there is reported at
// glyph_codes, on the page text at the same offsets: a reading we believe
// wrong, never a pass.
//
// Only the named document's alternatives are read, on its first such
// lookup, and kept (a byte a letter): a quote without a document, or
// found in none of its alternatives, costs one string search more.

// altTarget is the skeleton target of alternative text k (altIndex.alts):
// past every page.
func (ix *Index) altTarget(k int) int32 { return int32(len(ix.pages) + k) }

// altOf returns the alternative text a target names, if it names one.
func (ix *Index) altOf(t int32) (int, bool) {
	k := int(t) - len(ix.pages)
	return k, t >= 0 && k >= 0 && ix.alts != nil && k < len(ix.alts.alts)
}

// docAlts lists the alternative texts of document d.
func (ix *Index) docAlts(d int) []int {
	if ix.alts == nil {
		return nil
	}
	e := &ix.docs[d]
	var ks []int
	for k, a := range ix.alts.alts {
		if p := int(a.page); p >= e.first && p < e.first+e.n {
			ks = append(ks, k)
		}
	}
	return ks
}

// altSkelDocs caches each document's alternative texts' skeletons, by
// document index.
type altSkelDocs struct{ m sync.Map }

// altSkels returns document d's alternative texts' skeletons (skeleton),
// each ended by a form feed, making them on first use.
func (ix *Index) altSkels(d int) *asciiDoc {
	if v, ok := ix.altSkelCache.m.Load(d); ok {
		return v.(*asciiDoc)
	}
	ad := &asciiDoc{}
	var b strings.Builder
	seen := map[int32]*target{}
	for _, k := range ix.docAlts(d) {
		t := ix.altTarget(k)
		tg := ix.skelTarget(seen, t)
		if tg == nil {
			continue
		}
		s, _ := tg.skeleton()
		start := b.Len()
		b.WriteString(s)
		ad.segs = append(ad.segs, asciiSeg{target: t, start: start, end: b.Len()})
		b.WriteByte('\f')
		delete(seen, t)
	}
	ad.s = b.String()
	v, _ := ix.altSkelCache.m.LoadOrStore(d, ad)
	return v.(*asciiDoc)
}

// scanAltPunct looks the quote's skeleton qs up in the named document's
// alternative texts and verifies each hit at the punctuation level.
func (ix *Index) scanAltPunct(f *symbolFinds, qs string) {
	if f.doc < 0 || ix.alts == nil {
		return
	}
	ad := ix.altSkels(f.doc)
	for _, sg := range ad.segs {
		eachIndex(ad.s[sg.start:sg.end], qs, func(at int) { ix.tryPunct(f, skelHit{target: sg.target, off: at}) })
	}
}

// altLoc is the location on the page text of normalized range from..to of
// alternative text k (normalized as tn): the two share raw offsets.
func (ix *Index) altLoc(k int, from, to int) (loc, bool) {
	a := &ix.alts.alts[k]
	at, _ := ix.altForms(k)
	pt := ix.text(int(a.page))
	ra, rb := at.RawSpan(from, to)
	pf, pe := normAtRaw(pt, ra), normAtRaw(pt, rb)
	if pf >= pe {
		return loc{}, false
	}
	return loc{doc: ix.pages[a.page].doc, parts: []part{{int(a.page), pf, pe}}, level: GlyphCodes}, true
}

// altSigns marks the code points of alternative text k (read as p) where
// its page's text has a character that carries meaning anywhere: an
// extractor's reading of a glyph by its code carries the glyph's meaning,
// so a quote may no more drop pdfminer's "!" than the page's "→" it
// stands for.
//
// Only where the two raw texts differ (the replaced glyphs) is the page
// read: elsewhere the alternative's own characters say the same.
func (ix *Index) altSigns(k int, p *ptext) []bool {
	var pt *ptext
	signs := make([]bool, len(p.rs))
	page := []rune(ix.text(int(ix.alts.alts[k].page)).Raw())
	for r, c := range []rune(p.t.Raw()) {
		if r >= len(page) || page[r] == c {
			continue
		}
		if pt == nil {
			pt = newPtext(ix.text(int(ix.alts.alts[k].page)))
		}
		if j := normAtRaw(pt.t, r); j < len(pt.rs) && pt.signAnywhere(j) {
			if i := normAtRaw(p.t, r); i < len(p.rs) {
				signs[i] = true
			}
		}
	}
	return signs
}
