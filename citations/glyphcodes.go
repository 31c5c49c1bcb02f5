package citations

import (
	"fmt"
	"sort"
	"sync/atomic"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/textnorm"
)

// The glyph_codes level (GlyphCodes). A font without a ToUnicode CMap names
// its glyphs, and extractors that do not know a name, or do not read the
// embedded font program's own encoding, read the glyph by its code: poppler
// writes "6=" where TeX overprints CMSY's negationslash on "=", pdf.js "I"
// for a beamer bullet (MSAM's trianglerightsld), pdfminer ";" for CMMI's
// comma. The extractor stores such readings of a page as alternative texts
// (corpus.ValidateAlts: the page text with those glyphs replaced, code point
// for code point). At this level a quote is looked up in them, as written
// and then with spaces ignored (never between two digits, for quotes of
// textnorm.JoinedMinLen code points or more, as joined_words), and the
// match is reported on the page text at the same offsets.
//
//   - Only the replaced glyphs differ: every letter and digit of the page is
//     the same in its alternatives, so a quote with a changed word or
//     number is no more found here than in the page text.
//   - What a quote matched is a reading we believe wrong, so a citation
//     grounded only this way is never a pass.
//
// Only pages with alternatives are indexed for this level.

// altIndex is the level's index.
type altIndex struct {
	data, jdata []byte // normalized alternatives, and their Joined forms, each ended by a form feed
	sa, jsa     suffixes
	alts        []altText // sorted by at, and by jat
	// norm holds each alternative's normalized forms: all of them in a
	// built index, those a lookup touched in an opened one, which
	// normalizes raw(k) on demand.
	norm []atomic.Pointer[altForms]
	raw  func(k int) string
}

// altText is an alternative text, and the index file's record of one.
type altText struct {
	at, jat int32 // byte offsets in data and jdata
	page    int32 // index in Index.pages
}

type altForms struct {
	text   *textnorm.Text
	joined *textnorm.Joined
}

// forms returns alternative k's normalized text and its joined form.
func (ix *Index) altForms(k int) (*textnorm.Text, *textnorm.Joined) {
	ai := ix.alts
	if f := ai.norm[k].Load(); f != nil {
		return f.text, f.joined
	}
	t := ix.profile.Normalize(ai.raw(k))
	ai.norm[k].CompareAndSwap(nil, &altForms{t, t.Joined()})
	f := ai.norm[k].Load()
	return f.text, f.joined
}

// buildAlts normalizes and indexes the pages' alternative texts.
func (ix *Index) buildAlts(alts [][]string) {
	ai := &altIndex{}
	var forms []*altForms
	for p, list := range alts {
		for _, raw := range list {
			t := ix.profile.Normalize(raw)
			j := t.Joined()
			ai.alts = append(ai.alts, altText{at: int32(len(ai.data)), jat: int32(len(ai.jdata)), page: int32(p)})
			forms = append(forms, &altForms{t, j})
			ai.data = append(append(ai.data, t.String()...), '\f')
			ai.jdata = append(append(ai.jdata, j.String()...), '\f')
		}
	}
	if len(ai.alts) == 0 {
		return
	}
	ai.norm = make([]atomic.Pointer[altForms], len(forms))
	for k, f := range forms {
		ai.norm[k].Store(f)
	}
	ai.sa, ai.jsa = newSuffixes(ai.data), newSuffixes(ai.jdata)
	ix.alts = ai
}

// findGlyphCodes looks the quote up in the alternative texts, as written,
// then with spaces ignored. Every hit is GlyphCodes.
func (ix *Index) findGlyphCodes(qt *textnorm.Text, qj *textnorm.Joined) []loc {
	ai := ix.alts
	if ai == nil || qt.Len() == 0 {
		return nil
	}
	locs := ix.altHits(&ai.sa, bytesOf(qt.String()), func(i int) int32 { return ai.alts[i].at }, func(a *altText, at *textnorm.Text, _ *textnorm.Joined, h int) (int, int, bool) {
		from := at.CodePoint(h - int(a.at))
		to := from + qt.Len()
		return from, to, to <= at.Len() && edgesOK(onText(at, from, to), qt, true)
	})
	if len(locs) == 0 && qj.Eligible() {
		locs = ix.altHits(&ai.jsa, bytesOf(qj.String()), func(i int) int32 { return ai.alts[i].jat }, func(a *altText, at *textnorm.Text, aj *textnorm.Joined, h int) (int, int, bool) {
			ja := aj.CodePoint(h - int(a.jat))
			if ja+qj.Len() > aj.Len() {
				return 0, 0, false
			}
			from, to := aj.NormSpan(ja, ja+qj.Len())
			return from, to, edgesOK(onText(at, from, to), qt, false)
		})
	}
	// A quote found in two alternatives of a page, at the same place, is
	// one location.
	ix.sortLocs(locs)
	out := locs[:0]
	for _, l := range locs {
		if len(out) > 0 && sameLoc(out[len(out)-1], l) {
			continue
		}
		out = append(out, l)
	}
	return out
}

// altHits verifies the suffix array's hits of pat: span turns a hit in an
// alternative into its normalized range there, or refuses it; the range is
// then reported on the page text, through the raw offsets both share.
func (ix *Index) altHits(sa *suffixes, pat []byte, at func(int) int32, span func(*altText, *textnorm.Text, *textnorm.Joined, int) (int, int, bool)) []loc {
	ai := ix.alts
	var locs []loc
	for _, h := range lookupSorted(sa, pat) {
		k := sort.Search(len(ai.alts), func(i int) bool { return int(at(i)) > h }) - 1
		if k < 0 {
			continue
		}
		a := &ai.alts[k]
		at, aj := ix.altForms(k)
		from, to, ok := span(a, at, aj, h)
		if !ok || from >= to {
			continue
		}
		pe, ptext := &ix.pages[a.page], ix.text(int(a.page))
		ra, rb := at.RawSpan(from, to)
		pf, pt := normAtRaw(ptext, ra), normAtRaw(ptext, rb)
		if pf >= pt || ptext.Slice(pf, pt) == at.Slice(from, to) {
			continue // the page reads the same here: an earlier stage decides
		}
		locs = append(locs, loc{doc: pe.doc, parts: []part{{int(a.page), pf, pt}}, level: GlyphCodes})
	}
	return locs
}

func sameLoc(a, b loc) bool {
	if a.doc != b.doc || len(a.parts) != len(b.parts) {
		return false
	}
	for i := range a.parts {
		if a.parts[i] != b.parts[i] {
			return false
		}
	}
	return true
}

// checkAlts refuses alternative texts that do not fit their page.
func checkAlts(name string, page int, alts []string, text string) error {
	if err := corpus.ValidateAlts(alts, text); err != nil {
		return fmt.Errorf("citations: %s page %d: alternative texts: %w", name, page, err)
	}
	return nil
}
