package fidelity

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/zeebo/blake3"

	"github.com/citecheck/citecheck/textnorm"
)

// LocateFunc looks a quote up in one document of a corpus, as a citation
// locator does, with the citation's 1-based page when page > 0. It returns
// the 1-based pages of the quote's one location (nil when it found none or
// several) and whether it found the quote at all, at any level, once or
// more.
type LocateFunc func(quote string, page int) (pages []int, found bool)

// LocateMiss is a unique window the locator did not place on its page.
type LocateMiss struct {
	Page   int
	Source string
	Quote  string
	Pages  []int // where the locator put it, nil for nowhere
}

// LocateResult counts, per quote source, the windows unique in that
// source's own text of the document and how many the locator placed on
// their page; and, for the same windows with one digit or one content word
// changed, how many the locator still found (Found counts escapes there).
type LocateResult struct {
	Cells map[string]Cell
	// WithPage counts the same windows located with their page given, as a
	// citation that names its page is (a quote several pages hold is then
	// settled by the page).
	WithPage     map[string]Cell
	ChangedDigit map[string]Cell
	ChangedWord  map[string]Cell
	Misses       []LocateMiss
	Escapes      []LocateMiss // changed windows found anyway
}

func addCells(dst *map[string]Cell, src map[string]Cell) {
	if *dst == nil {
		*dst = map[string]Cell{}
	}
	for s, c := range src {
		(*dst)[s] = (*dst)[s].Plus(c)
	}
}

// Add adds r2's counts into r.
func (r *LocateResult) Add(r2 *LocateResult) {
	addCells(&r.Cells, r2.Cells)
	addCells(&r.WithPage, r2.WithPage)
	addCells(&r.ChangedDigit, r2.ChangedDigit)
	addCells(&r.ChangedWord, r2.ChangedWord)
	r.Misses = append(r.Misses, r2.Misses...)
	r.Escapes = append(r.Escapes, r2.Escapes...)
}

// MeasureLocate samples the same windows as Measure from every reference
// source (texts without Ours), keeps those that occur exactly once in the
// source's own text of the document (after normalization, so that "the
// right page" is defined), and counts how many locate places on their page.
// Each such window is then changed, once in one digit and once in one
// content word (ChangeDigit, ChangeWord); a changed window that occurs in
// none of the document's texts is a fabrication, and locate must not find
// it. Escapes are always kept: they are locator bugs.
func MeasureLocate(key string, texts map[string][]string, locate LocateFunc, keepMisses bool) *LocateResult {
	r := &LocateResult{Cells: map[string]Cell{}, WithPage: map[string]Cell{}, ChangedDigit: map[string]Cell{}, ChangedWord: map[string]Cell{}}
	// Every text of the document, ours included, pages joined: a changed
	// window found across a page break of one of them is no fabrication.
	var all []*textnorm.Text
	for _, n := range sortedKeys(texts) {
		all = append(all, profile.Normalize(strings.Join(texts[n], "\n")))
	}
	names := make([]string, 0, len(texts))
	for n := range texts {
		if n != Ours {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, src := range names {
		norm := make([]*textnorm.Text, len(texts[src]))
		for p, t := range texts[src] {
			norm[p] = profile.Normalize(t)
		}
		vocab := contentWords(texts[src])
		for p, page := range texts[src] {
			wkey := fmt.Sprintf("%s/%d/%s", key, p+1, src)
			for _, w := range Windows(page, wkey) {
				if !uniqueIn(norm, w) {
					continue
				}
				c := r.Cells[src]
				c.Total++
				pages, _ := locate(w, 0)
				if slices.Contains(pages, p+1) {
					c.Found++
				} else if keepMisses {
					r.Misses = append(r.Misses, LocateMiss{Page: p + 1, Source: src, Quote: w, Pages: pages})
				}
				r.Cells[src] = c
				wp := r.WithPage[src]
				wp.Total++
				if pages, _ := locate(w, p+1); slices.Contains(pages, p+1) {
					wp.Found++
				}
				r.WithPage[src] = wp
				for _, ch := range []struct {
					cells map[string]Cell
					quote string
				}{
					{r.ChangedDigit, ChangeDigit(w, wkey)},
					{r.ChangedWord, ChangeWord(w, wkey, vocab)},
				} {
					if ch.quote == "" || occursIn(all, ch.quote) {
						continue
					}
					c := ch.cells[src]
					c.Total++
					if pages, found := locate(ch.quote, 0); found {
						c.Found++
						r.Escapes = append(r.Escapes, LocateMiss{Page: p + 1, Source: src, Quote: ch.quote, Pages: pages})
					}
					ch.cells[src] = c
				}
			}
		}
	}
	return r
}

func sortedKeys(m map[string][]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// occursIn reports whether the normalized quote occurs in any of the texts.
func occursIn(texts []*textnorm.Text, quote string) bool {
	q := profile.Normalize(quote).String()
	for _, t := range texts {
		if strings.Contains(t.String(), q) {
			return true
		}
	}
	return false
}

// changeRNG is the generator behind a window's changes: fixed by the seed,
// the window's key and the window itself.
func changeRNG(w, key string) *rand.Rand {
	sum := blake3.Sum256([]byte(key + "\x00" + w))
	return rand.New(rand.NewPCG(Seed, binary.LittleEndian.Uint64(sum[:8])))
}

// ChangeDigit returns the window with one ASCII digit replaced by another,
// or "" when it has none.
func ChangeDigit(w, key string) string {
	var ds []int
	for i := 0; i < len(w); i++ {
		if w[i] >= '0' && w[i] <= '9' {
			ds = append(ds, i)
		}
	}
	if len(ds) == 0 {
		return ""
	}
	rng := changeRNG(w, key)
	i := ds[rng.IntN(len(ds))]
	d := '0' + (int(w[i]-'0')+1+rng.IntN(9))%10
	return w[:i] + string(rune(d)) + w[i+1:]
}

// ChangeWord returns the window with one content word (four or more
// letters) replaced by another word of vocab, or "" when it has none or
// vocab offers no different word.
func ChangeWord(w, key string, vocab []string) string {
	type span struct{ from, to int }
	var cands []span
	for _, f := range wordSpans(w) {
		if core, off, ok := contentCore(w[f[0]:f[1]]); ok {
			cands = append(cands, span{f[0] + off, f[0] + off + len(core)})
		}
	}
	if len(cands) == 0 || len(vocab) == 0 {
		return ""
	}
	rng := changeRNG(w, key)
	c := cands[rng.IntN(len(cands))]
	for range 4 {
		if v := vocab[rng.IntN(len(vocab))]; !strings.EqualFold(v, w[c.from:c.to]) {
			return w[:c.from] + v + w[c.to:]
		}
	}
	return ""
}

// contentCore finds a word's letters inside its punctuation: the kind of
// word whose change alters a statement, four letters or more and letters
// only. off is the core's byte offset in word.
func contentCore(word string) (core string, off int, ok bool) {
	notLetter := func(r rune) bool { return !unicode.IsLetter(r) }
	core = strings.TrimFunc(word, notLetter)
	if utf8.RuneCountInString(core) < 4 || strings.IndexFunc(core, notLetter) >= 0 {
		return "", 0, false
	}
	return core, strings.Index(word, core), true
}

// wordSpans cuts s at white space into the byte ranges of its words.
func wordSpans(s string) [][2]int {
	var out [][2]int
	start := -1
	for i, r := range s {
		if unicode.IsSpace(r) {
			if start >= 0 {
				out = append(out, [2]int{start, i})
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, [2]int{start, len(s)})
	}
	return out
}

// contentWords lists the distinct content words of a document's pages, in
// order of first use: the replacements ChangeWord draws from, so that a
// changed word is a word of the same document.
func contentWords(pages []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range pages {
		for _, f := range wordSpans(p) {
			if core, _, ok := contentCore(p[f[0]:f[1]]); ok && !seen[core] {
				seen[core] = true
				out = append(out, core)
			}
		}
	}
	return out
}

// uniqueIn reports whether the normalized quote occurs exactly once in the
// normalized pages.
func uniqueIn(pages []*textnorm.Text, quote string) bool {
	q := profile.Normalize(quote).String()
	if q == "" {
		return false
	}
	n := 0
	for _, p := range pages {
		n += strings.Count(p.String(), q)
		if n > 1 {
			return false
		}
	}
	return n == 1
}
