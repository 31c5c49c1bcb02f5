package citations

import (
	"sort"
	"strings"
	"sync"
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
// as a copy of the stored text. A document's ASCII skeletons are made on
// its first such lookup and kept (a byte a letter).

// asciiDoc is a document's ASCII skeletons, each ended by a form feed.
type asciiDoc struct {
	s    string
	segs []asciiSeg
}

// asciiSeg is one skeleton of an asciiDoc: its target, whether it leaves
// out stored non-ASCII characters read as ASCII letters (asciiSkeleton),
// and where in asciiDoc.s it starts.
type asciiSeg struct {
	target int32
	stored bool
	start  int
}

// asciiDocs caches each document's asciiDoc, by document index.
type asciiDocs struct{ m sync.Map }

// scanASCII looks the ASCII quote's skeleton qs up in the named document's
// ASCII skeletons and verifies each hit at the non_ascii_dropped level.
func (ix *Index) scanASCII(f *symbolFinds, qs string) {
	if f.doc < 0 {
		return
	}
	ad := ix.asciiDoc(f.doc)
	for off := 0; off < len(ad.s); {
		h := strings.Index(ad.s[off:], qs)
		if h < 0 {
			return
		}
		h += off
		off = h + 1
		sg := ad.segs[sort.Search(len(ad.segs), func(i int) bool { return ad.segs[i].start > h })-1]
		tg := ix.skelTarget(f.targets, sg.target)
		if tg == nil {
			continue
		}
		_, pos := asciiSkeleton(tg.p, sg.stored)
		if at := h - sg.start; at < len(pos) {
			ix.verifyASCII(f, sg.target, tg, int(pos[at]))
		}
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
		plain, _ := asciiSkeleton(tg.p, false)
		for _, stored := range []bool{false, true} {
			s := plain
			if stored {
				if s, _ = asciiSkeleton(tg.p, true); s == plain {
					break // no ligature: one reading
				}
			}
			ad.segs = append(ad.segs, asciiSeg{t, stored, b.Len()})
			b.WriteString(s)
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
