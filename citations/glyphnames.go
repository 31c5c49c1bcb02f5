package citations

import (
	"unicode"
	"unicode/utf8"

	"github.com/citecheck/citecheck/textnorm"
)

// Glyph names in a quote, at the glyph_codes level. pypdf (LangChain's
// PyPDFLoader) prints a glyph its tables do not map as the name the font
// gives it, "/epsilon1" for CMMI's ϵ, "/trianglerightsld" for a beamer
// bullet, often glued to the next word ("/trianglerightsldHeader"), where
// the page text holds the glyph itself. A quote holding such names is
// looked up with each name standing for one code point of the page that
// is neither ASCII nor a space nor a number nor a sign that carries
// meaning (a name stands for a glyph the standard encodings lack, never
// for a letter, digit or sign a quote could change), letters glued to the name continuing the page's text after
// it. Everything else of the quote is matched as at the normalized levels.
// What the name stood for is the font's, not the page text's: a citation
// found so is glyph_codes, never a pass.

// maxGlyphNames bounds the names of a quote read so: each may glue
// letters of the next word, which alignFrom tries one length at a time.
const maxGlyphNames = 8

// nameTok is a glyph name in a quote: normalized code points [from, to),
// the slash included.
type nameTok struct{ from, to int }

// glyphNames finds "/name" tokens: a slash at the quote's start or after a
// code point that is not a letter, digit or slash, then an ASCII letter,
// then ASCII letters and digits.
func glyphNames(rs []rune) []nameTok {
	var out []nameTok
	for i := 0; i+1 < len(rs); i++ {
		if rs[i] != '/' || !asciiLetter(rs[i+1]) || i > 0 && (isWordRune(rs[i-1]) || rs[i-1] == '/') {
			continue
		}
		j := i + 1
		for j < len(rs) && (asciiLetter(rs[j]) || rs[j] >= '0' && rs[j] <= '9') {
			j++
		}
		out = append(out, nameTok{i, j})
		i = j - 1
	}
	return out
}

func asciiLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

// findGlyphNames locates a quote holding glyph names: its longest piece
// between names is looked up, and the whole quote verified from the start
// that piece implies (alignNames).
func (ix *Index) findGlyphNames(qt *textnorm.Text, sc scope) []loc {
	rs := []rune(qt.String())
	toks := glyphNames(rs)
	if len(toks) == 0 || len(toks) > maxGlyphNames {
		return nil
	}
	// The longest piece between names, and how far the page's start lies
	// before it: the quote's code points before it, a name counting one.
	best, bestFrom, shift, before := -1, 0, 0, 0
	last := 0
	for k := 0; k <= len(toks); k++ {
		end := len(rs)
		if k < len(toks) {
			end = toks[k].from
		}
		if n := end - last; n > best {
			best, bestFrom, shift = n, last, last-before
		}
		if k < len(toks) {
			before += toks[k].to - toks[k].from - 1
			last = toks[k].to
		}
	}
	if best < MinPieceLen {
		return nil
	}
	pat := bytesOf(qt.Slice(bestFrom, bestFrom+best))
	var locs []loc
	var seen smallSet[[2]int]
	for shi := sc.textFrom; shi < sc.textTo; shi++ {
		sh := &ix.shards[shi]
		for _, h := range lookupSorted(&sh.sa, pat) {
			si, page, at := ix.hitPos(sh, h)
			if si < 0 {
				continue
			}
			t := ix.text(page)
			for s := max(at-shift-3, 0); s <= min(at-shift+3, t.Len()); s++ {
				if end, ok := alignNames(t, s, qt, toks); ok && edgesOK(onText(t, s, end), qt, true) && seen.add([2]int{page, s}) {
					locs = append(locs, loc{doc: ix.pages[page].doc, parts: []part{{page, s, end}}, level: GlyphCodes})
				}
			}
		}
	}
	ix.sortLocs(locs)
	return locs
}

// alignNames matches the quote from page position at: the pieces between
// names as Align does, each name as one glyph code point (glyphFor), the
// letters glued to it as the page's text after the glyph (spaces there
// skipped), the shortest such rest that lets the rest of the quote match.
// It returns where the match ends.
func alignNames(t *textnorm.Text, at int, qt *textnorm.Text, toks []nameTok) (int, bool) {
	end, ok := alignFrom(t, at, qt, 0, toks)
	return end, ok && end > at
}

// alignFrom matches the quote from code point q, whose names are toks, at
// page position p.
func alignFrom(t *textnorm.Text, p int, qt *textnorm.Text, q int, toks []nameTok) (int, bool) {
	if len(toks) == 0 {
		if q == qt.Len() {
			return p, true
		}
		a := textnorm.Align(t, p, qt, q, qt.Len())
		return a.End, a.QuoteEnd == qt.Len()
	}
	tk := toks[0]
	if tk.from > q {
		a := textnorm.Align(t, p, qt, q, tk.from)
		if a.QuoteEnd != tk.from {
			return 0, false
		}
		p = a.End
	}
	if p >= t.Len() || !glyphFor(runeAfter(t, p)) {
		return 0, false
	}
	p++
	for rest := 0; rest < tk.to-tk.from-1; rest++ {
		after := p
		if rest > 0 {
			a := textnorm.Align(t, skipSpaces(t, p), qt, tk.to-rest, tk.to)
			if a.QuoteEnd != tk.to {
				continue
			}
			after = a.End
		}
		if end, ok := alignFrom(t, after, qt, tk.to, toks[1:]); ok {
			return end, true
		}
	}
	return 0, false
}

func skipSpaces(t *textnorm.Text, p int) int {
	for p < t.Len() && runeAfter(t, p) == ' ' {
		p++
	}
	return p
}

// glyphFor reports whether a page code point may be the glyph a name
// stands for: not ASCII, not a space, not a number (², ½), nor anything
// else that carries meaning (€, ≤, °, U+FFFD: signRune). A name says what
// the font calls a glyph, which nobody checks against the page: "/dollar"
// must not stand for the page's "€".
func glyphFor(r rune) bool {
	return r >= utf8.RuneSelf && !unicode.IsSpace(r) && !unicode.IsNumber(r) && !signRune(r)
}
