package citations

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/citecheck/citecheck/textnorm"
)

// The unmapped_glyphs level (UnmappedGlyphs). A glyph the extractor could
// not map to Unicode is stored as U+FFFD (pdftext's flagged replacement).
// poppler drops such a glyph, so a quote copied from pdftotext's text of a
// code listing drawn in a ligature font reads "ctx, err NewContext(rs)"
// where the stored page holds "ctx, err �� NewContext(rs)". At this level
// the page's unmapped glyphs may be absent from the quote; every other
// character of the quote must be on the page as written.
//
//   - A run of U+FFFD between two digits (spaces aside) is never skipped:
//     "1�2" must not become the number 12.
//   - The quote must be at least textnorm.JoinedMinLen code points long, as
//     for joined_words: skipping glyphs lets short strings match by chance.
//   - The match must skip at least one unmapped glyph (else an earlier
//     stage would have found it) and start and end on the page's word
//     boundaries.
//   - What an unmapped glyph stood for is unknown, so a citation grounded
//     only this way is never a pass.
//
// Only pages holding U+FFFD are indexed for this level, so it costs nothing
// on a corpus that extracted cleanly.

// unmappedIndex is the level's index: the skipped form of every page that
// holds U+FFFD, each ended by a form feed.
type unmappedIndex struct {
	data  []byte
	sa    suffixes
	pages []unmappedPage // sorted by at
}

type unmappedPage struct {
	at   int32 // byte offset of the page's form in data
	page int32 // index in Index.pages
	idx  []int32
}

const unmappedRune = '\uFFFD'

// skipUnmapped returns the normalized text s without its unmapped glyphs
// (spaces around a dropped run collapsed to one), and the normalized code
// point behind each code point of the result.
func skipUnmapped(s string) (string, []int32) {
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s))
	idx := make([]int32, 0, len(rs))
	lastEmitted := rune(-1)
	for k := 0; k < len(rs); k++ {
		r := rs[k]
		if r == unmappedRune {
			j := k
			for j < len(rs) && rs[j] == unmappedRune {
				j++
			}
			if isDigitRune(nonSpaceBefore(rs, k)) && isDigitRune(nonSpaceAfter(rs, j)) {
				// Kept: the run stands between two digits.
				for ; k < j; k++ {
					b.WriteRune(unmappedRune)
					idx = append(idx, int32(k))
				}
				k--
				lastEmitted = unmappedRune
				continue
			}
			k = j - 1
			continue
		}
		if r == ' ' && (lastEmitted == ' ' || lastEmitted < 0) {
			continue
		}
		b.WriteRune(r)
		idx = append(idx, int32(k))
		lastEmitted = r
	}
	out := b.String()
	if lastEmitted == ' ' {
		out = out[:len(out)-1]
		idx = idx[:len(idx)-1]
	}
	return out, idx
}

func nonSpaceBefore(rs []rune, k int) rune {
	for k--; k >= 0; k-- {
		if rs[k] != ' ' {
			return rs[k]
		}
	}
	return -1
}

func nonSpaceAfter(rs []rune, k int) rune {
	for ; k < len(rs); k++ {
		if rs[k] != ' ' {
			return rs[k]
		}
	}
	return -1
}

// addUnmapped adds the pages p0 to p1 that hold an unmapped glyph to um.
func (ix *Index) addUnmapped(um *unmappedIndex, p0, p1 int) {
	for p := p0; p < p1; p++ {
		s := ix.text(p).String()
		if !strings.ContainsRune(s, unmappedRune) {
			continue
		}
		form, idx := skipUnmapped(s)
		um.pages = append(um.pages, unmappedPage{at: int32(len(um.data)), page: int32(p), idx: idx})
		um.data = append(um.data, form...)
		um.data = append(um.data, '\f')
	}
}

// buildUnmapped builds the suffix array of um, the pages addUnmapped
// added, and keeps it when any page holds unmapped glyphs.
func (ix *Index) buildUnmapped(um *unmappedIndex) {
	if len(um.pages) > 0 {
		um.sa = newSuffixes(um.data)
		ix.unmapped = um
	}
}

// findUnmapped looks the quote up in the pages' forms without unmapped
// glyphs. Every hit is UnmappedGlyphs.
func (ix *Index) findUnmapped(qt *textnorm.Text) []loc {
	um := ix.unmapped
	if um == nil || qt.Len() < textnorm.JoinedMinLen {
		return nil
	}
	pat := bytesOf(qt.String())
	var locs []loc
	for _, h := range lookupSorted(&um.sa, pat) {
		k := sort.Search(len(um.pages), func(i int) bool { return int(um.pages[i].at) > h }) - 1
		if k < 0 {
			continue
		}
		up := &um.pages[k]
		ix.blocks.bytes(um.data[up.at:h])
		a := utf8.RuneCount(um.data[up.at:h])
		b := a + qt.Len()
		if b > len(up.idx) {
			continue
		}
		pe, pt := &ix.pages[up.page], ix.text(int(up.page))
		from, to := int(up.idx[a]), int(up.idx[b-1])+1
		if !strings.ContainsRune(pt.Slice(from, to), unmappedRune) {
			continue
		}
		if !edgesOK(onText(pt, from, to), qt, true) {
			continue
		}
		locs = append(locs, loc{doc: pe.doc, parts: []part{{int(up.page), from, to}}, level: UnmappedGlyphs})
	}
	ix.sortLocs(locs)
	return locs
}
