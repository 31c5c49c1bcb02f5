package citations

import (
	"slices"
	"strings"

	"github.com/citecheck/citecheck/textnorm"
)

// Glyph names in an ASCII copy. pypdf prints a glyph it cannot map as the
// name the font gives it ("/trianglerightsld", "/epsilon1", glued to the
// next word or not: glyphnames.go), which an ASCII-only pipeline keeps,
// while it drops the text's other non-ASCII characters ("buﬀer" becomes
// "buer"). Such a quote needs both readings at once: it is verified as at
// non_ascii_dropped, each name standing for one glyph of the page that is
// neither ASCII nor a space nor a number nor a sign (glyphFor), the letters glued to
// it continuing the page after that glyph; what the name stood for is the
// font's, so a match is glyph_codes, never a pass. Only the named
// document is read: the longest piece of the quote between names, with at
// least asciiSeedLen letters and digits, is looked up whole in its ASCII
// skeletons (asciiscan.go), and the quote verified around each hit.

// The same rules find a quote of pypdf's text that is no ASCII copy but
// whose spaces differ too ("(κ1,κ2)gives /epsilon1-DP" for the page's
// "(κ1, κ2) gives ϵ-DP"): none of the page's characters is dropped then,
// but for the glyphs the names stand for, and the quote needs
// textnorm.JoinedMinLen letters and digits, as joined_words; its longest
// piece is looked up in the skeleton index.

// findNamesASCII looks a quote holding glyph names up so.
func (ix *Index) findNamesASCII(f *symbolFinds, sc scope) {
	names := glyphNames(f.q.rs)
	if f.doc < 0 || len(names) == 0 || len(names) > maxGlyphNames {
		return
	}
	// The longest piece between names, as skeleton, and the quote
	// position of its first word character.
	best, j0 := "", -1
	from := 0
	for k := 0; k <= len(names); k++ {
		to := len(f.q.rs)
		if k < len(names) {
			to = names[k].from
		}
		var b strings.Builder
		first := -1
		for j := from; j < to; j++ {
			if isWordChar(f.q.rs[j]) {
				b.WriteRune(f.q.rs[j])
				if first < 0 {
					first = j
				}
			}
		}
		if b.Len() > len(best) {
			best, j0 = b.String(), first
		}
		if k < len(names) {
			from = names[k].to
		}
	}
	if len(best) < asciiSeedLen {
		return
	}
	// The minimums count the page's letters and digits: a name's own
	// stand for one glyph ("trianglerightsld" is no 16 letters of text).
	// Letters glued to a name are not counted either, which only errs
	// towards not found.
	letters := len(f.qidx)
	for _, tk := range names {
		letters -= tk.to - tk.from - 1
	}
	if letters < SymbolMinLen {
		return
	}
	if !f.asciiCopy {
		if letters < textnorm.JoinedMinLen {
			return
		}
		ix.eachSkelHit(bytesOf(best), sc, func(h skelHit) {
			if h.target < 0 || int(h.target) >= len(ix.pages) || ix.pages[h.target].doc != f.doc {
				return
			}
			tg, a, ok := ix.hitAt(f, h)
			if !ok {
				return
			}
			_, idx := tg.skeleton()
			if !f.seen.add(symbolKey{h.target, int(idx[a]), GlyphCodes}) {
				return
			}
			if m, ok := alignASCIIAt(tg.p, int(idx[a]), f.q, j0, names, true); ok {
				ix.addSymbolLoc(f, h.target, tg, m, GlyphCodes)
			}
		})
		return
	}
	ad := ix.asciiDoc(f.doc)
	for _, sg := range ad.segs {
		eachIndex(ix.segText(ad, sg), best, func(at int) {
			tg := ix.skelTarget(f.targets, sg.target)
			if tg == nil {
				return
			}
			_, pos := asciiSkeleton(tg.p, sg.stored)
			if at >= len(pos) || !f.seen.add(symbolKey{sg.target, int(pos[at]), GlyphCodes}) {
				return
			}
			m, ok := alignASCIIAt(tg.p, int(pos[at]), f.q, j0, names, false)
			if ok && (!m.joined || letters >= textnorm.JoinedMinLen) {
				ix.addSymbolLoc(f, sg.target, tg, m, GlyphCodes)
			}
		})
	}
}

// nameAt reports the glyph name the run has reached: forwards, one that
// starts at the quote position; backwards, one that ends there.
func (r *asciiRun) nameAt() (nameTok, bool) {
	for _, tk := range r.names {
		if r.dir > 0 && r.j == tk.from || r.dir < 0 && r.j == tk.to-1 {
			return tk, true
		}
	}
	return nameTok{}, false
}

// name matches glyph name tk and the rest of the run: the name is one
// glyph of the page, and the last rest letters of the token (none, then
// one more at a time) are the page's text after it, spaces between
// skipped, as alignFrom reads them; it reports whether some rest lets the
// run go on to its end, and leaves the run there.
func (r *asciiRun) name(tk nameTok) bool {
	p, q := r.p, r.q
	for rest := 0; rest < tk.to-tk.from-1; rest++ {
		c := *r
		c.diffs = slices.Clone(r.diffs)
		c.dropped++
		if r.dir > 0 {
			if !glyphFor(p.rs[c.i]) {
				return false
			}
			c.i++
			if rest > 0 {
				for c.i < len(p.rs) && p.rs[c.i] == ' ' {
					c.i++
				}
			}
			c.j = tk.to - rest
		} else {
			ok := true
			for n := 0; n < rest && ok; n++ {
				ok = c.i >= 0 && p.rs[c.i] == q.rs[c.j]
				c.i, c.j = c.i-1, c.j-1
			}
			for c.i >= 0 && p.rs[c.i] == ' ' {
				c.i--
				c.joined = c.joined || rest == 0 // the name glued to what the page sets apart
			}
			if !ok || c.i < 0 || !glyphFor(p.rs[c.i]) {
				continue
			}
			c.i--
			c.j = tk.from - 1
		}
		if c.run() {
			*r = c
			return true
		}
	}
	return false
}
