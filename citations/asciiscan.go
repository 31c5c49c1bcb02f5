package citations

import (
	"sort"
	"strings"
	"sync"
	"unsafe"
)

// An ASCII-only pipeline loses a letter every few words of a German or
// French text, and every symbol of a formula: where it lost one in every
// piece asciiSeeds looks up, no piece is whole in the page's skeleton.
// The named document is therefore also scanned directly: its page texts
// and reading orders read with their non-ASCII word characters left out
// (an accented letter stored apart from its accent read as its letter, as
// removing the stored text's non-ASCII characters leaves it), where the
// quote's skeleton is looked up whole; alignASCII then verifies each hit
// as it verifies the seeds'. A page holding ligatures is read twice: with
// their letters, as a copy of an extractor that printed them, and without,
// as a copy of the stored text. A text that holds no character an ASCII
// copy may lose (asciipure.go) reads as its skeleton: there the hits are
// those of the whole skeleton's lookup, and only the other texts are kept
// and scanned. A document's ASCII skeletons are made on its first such
// lookup and kept (a byte a letter of the texts that need them).

// asciiDoc is a document's ASCII skeletons, each ended by a form feed.
type asciiDoc struct {
	s    string
	segs []asciiSeg
}

// asciiSeg is one skeleton of an asciiDoc: its target, whether it leaves
// out stored non-ASCII characters read as ASCII letters (asciiSkeleton),
// where in asciiDoc.s it starts and ends, or skel: the target's ASCII
// skeleton is its skeleton, not kept.
type asciiSeg struct {
	target     int32
	stored     bool
	skel       bool
	start, end int
}

// asciiDocs caches each document's asciiDoc, by document index.
type asciiDocs struct{ m sync.Map }

// scanASCII looks the ASCII quote's skeleton qs up in the named document's
// ASCII skeletons and verifies each hit at the non_ascii_dropped level, in
// the order of the document's texts and of the hits in each.
func (ix *Index) scanASCII(f *symbolFinds, qs string) {
	if f.doc < 0 {
		return
	}
	ad := ix.asciiDoc(f.doc)
	for _, sg := range ad.segs {
		if sg.skel && !f.wholeCapped {
			// Its ASCII skeleton is its skeleton: the hits are the whole
			// skeleton's.
			for _, h := range f.wholeInDoc {
				if h.target == sg.target {
					ix.verifyASCIIAt(f, sg.target, false, h.off)
				}
			}
			continue
		}
		eachIndex(ix.segText(ad, sg), qs, func(at int) { ix.verifyASCIIAt(f, sg.target, sg.stored, at) })
	}
}

// segText is the ASCII skeleton of segment sg of ad: for a text whose
// ASCII skeleton is its skeleton, the one in the index.
func (ix *Index) segText(ad *asciiDoc, sg asciiSeg) string {
	if !sg.skel {
		return ad.s[sg.start:sg.end]
	}
	return ix.indexedSkeleton(sg.target)
}

// indexedSkeleton returns the skeleton the index holds of page text or
// reading order t ("" for another target).
func (ix *Index) indexedSkeleton(t int32) string {
	var sk *skelIndex
	switch d := ix.targetDoc(t); {
	case d < 0:
		return ""
	case t >= 0:
		sk = &ix.shards[ix.docs[d].shard].sk
	default:
		r, ok := ix.orders.byDoc[d]
		if !ok {
			return ""
		}
		sk = &ix.orders.shards[r.shard].sk
	}
	// Page texts are added in order, reading orders in order too: their
	// targets descend.
	k := sort.Search(len(sk.spans), func(i int) bool {
		if t >= 0 {
			return sk.spans[i].page >= t
		}
		return sk.spans[i].page <= t
	})
	if k == len(sk.spans) || sk.spans[k].page != t {
		return ""
	}
	end := len(sk.data)
	if k+1 < len(sk.spans) {
		end = int(sk.spans[k+1].at)
	}
	b := sk.data[sk.spans[k].at : end-1] // without its form feed
	ix.blocks.bytes(b)
	return unsafe.String(unsafe.SliceData(b), len(b)) // the index's bytes never change
}

// eachIndex calls hit with every offset of pat in s, in order.
func eachIndex(s, pat string, hit func(int)) {
	for off := 0; off < len(s); {
		h := strings.Index(s[off:], pat)
		if h < 0 {
			return
		}
		hit(off + h)
		off += h + 1
	}
}

// verifyASCIIAt verifies the passage whose first word character is code
// point at of target t's ASCII skeleton (stored: the reading without
// stored non-ASCII characters).
func (ix *Index) verifyASCIIAt(f *symbolFinds, t int32, stored bool, at int) {
	tg := ix.skelTarget(f.targets, t)
	if tg == nil {
		return
	}
	_, pos := asciiSkeleton(tg.p, stored)
	if at < len(pos) {
		ix.verifyASCII(f, t, tg, int(pos[at]))
	}
}

// asciiDoc returns document d's ASCII skeletons, making them on first use.
func (ix *Index) asciiDoc(d int) *asciiDoc {
	if v, ok := ix.asciiSkels.m.Load(d); ok {
		return v.(*asciiDoc)
	}
	e := &ix.docs[d]
	var targets []int32
	for p := e.first; p < e.first+e.n; p++ {
		targets = append(targets, int32(p))
	}
	if ix.orders != nil {
		for k := range ix.orders.pages {
			if p := int(ix.orders.pages[k].page); p >= e.first && p < e.first+e.n {
				targets = append(targets, orderTarget(k))
			}
		}
	}
	for _, k := range ix.docAlts(d) {
		targets = append(targets, ix.altTarget(k))
	}
	ad := &asciiDoc{}
	var b strings.Builder
	seen := map[int32]*target{}
	for _, t := range targets {
		tg := ix.skelTarget(seen, t)
		if tg == nil {
			continue
		}
		if lost, ok := ix.lostOf(t, tg); ok && len(lost) == 0 && asciiShortcut {
			ad.segs = append(ad.segs, asciiSeg{target: t, skel: true})
			delete(seen, t)
			continue
		}
		plain, _ := asciiSkeleton(tg.p, false)
		for _, stored := range []bool{false, true} {
			s := plain
			if stored {
				if s, _ = asciiSkeleton(tg.p, true); s == plain {
					break // no ligature: one reading
				}
			}
			start := b.Len()
			b.WriteString(s)
			ad.segs = append(ad.segs, asciiSeg{target: t, stored: stored, start: start, end: b.Len()})
			b.WriteByte('\f')
		}
		delete(seen, t) // one page at a time in memory
	}
	ad.s = b.String()
	v, _ := ix.asciiSkels.m.LoadOrStore(d, ad)
	return v.(*asciiDoc)
}

// asciiSkeleton returns p's ASCII letters and digits, each non-ASCII word
// character read as its residue or left out, and the normalized position
// of each. With stored, the letters of a character stored as one non-ASCII
// code point are left out too, as an ASCII-only copy of the stored text
// loses them ("ﬀ" in "hausdorﬀsch", which the profile reads "ff");
// without, they are kept, as a copy of a text that printed them does.
func asciiSkeleton(p *ptext, stored bool) (string, []int32) {
	var b strings.Builder
	pos := make([]int32, 0, len(p.rs))
	for i, r := range p.rs {
		if !isWordChar(r) {
			continue
		}
		if r >= 0x80 || stored && p.nonASCII(i) {
			if r = p.residue(i); r == 0 {
				continue
			}
		}
		b.WriteByte(byte(r))
		pos = append(pos, int32(i))
	}
	return b.String(), pos
}
