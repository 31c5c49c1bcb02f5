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

// Answer is what a locator said about one quote.
type Answer struct {
	Pages []int  // the 1-based pages of its one location, nil when it found none or several
	Found bool   // located at all, at any level, once or more
	Level string // the level the match needed, "" when not found
}

// Locator looks quotes up as a citation locator does.
type Locator struct {
	// In looks a quote up in the document measured, with the citation's
	// 1-based page when page > 0.
	In func(quote string, page int) Answer
	// Other looks a quote up naming another document of the corpus: the
	// wrong-document control; nil leaves the control out.
	Other func(quote string) Answer
}

// LocateMiss is a unique window the locator did not place on its page,
// or a changed one it found (an escape).
type LocateMiss struct {
	Page    int
	Source  string
	Variant string `json:",omitempty"` // the variant measured, "" for the window as copied
	Control string `json:",omitempty"` // for an escape, the control it escaped
	Quote   string
	Pages   []int // where the locator put it, nil for nowhere
	Level   string
	// CopiedLevel is, for a variant, the level the window as copied was
	// found at on its page ("" when it was not): which level a variant
	// missed for want of combining with its own relaxation.
	CopiedLevel string `json:",omitempty"`
}

// Row names one count of a LocateResult: a measure for a quote source.
type Row struct{ Measure, Source string }

// The measures of a LocateResult. Found and WithPage count windows placed
// on their page; the others are controls, where Cell.Found counts the
// changed quotes the locator found anyway (escapes). A measure of a
// variant is the measure's name, "/", and the variant's name.
const (
	MeasureFound         = "found"          // the window alone
	MeasureWithPage      = "with_page"      // the window with its page given
	MeasureChangedDigit  = "changed_digit"  // one digit changed
	MeasureChangedWord   = "changed_word"   // one content word replaced by another of the document
	MeasureMeaning       = "meaning"        // a variant that dropped a sign, symbol, separator or unit (MeaningDropped)
	MeasureFabricated    = "fabricated"     // half the window, half a window of another document
	MeasureWrongDocument = "wrong_document" // the window, naming another document
)

// VariantMeasure names a measure of a variant.
func VariantMeasure(measure, variant string) string {
	if variant == "" {
		return measure
	}
	return measure + "/" + variant
}

// LocateResult holds the counts of MeasureLocate.
type LocateResult struct {
	Counts map[Row]Cell
	// Levels counts, per measure and level, the windows located on their
	// page (Found) or escapes (controls).
	Levels  map[Row]int
	Misses  []LocateMiss
	Escapes []LocateMiss // changed windows found anyway
}

// Cell returns the count of a measure for a source.
func (r *LocateResult) Cell(measure, source string) Cell { return r.Counts[Row{measure, source}] }

// Add adds r2's counts into r.
func (r *LocateResult) Add(r2 *LocateResult) {
	if r.Counts == nil {
		r.Counts, r.Levels = map[Row]Cell{}, map[Row]int{}
	}
	for k, c := range r2.Counts {
		r.Counts[k] = r.Counts[k].Plus(c)
	}
	for k, n := range r2.Levels {
		r.Levels[k] += n
	}
	r.Misses = append(r.Misses, r2.Misses...)
	r.Escapes = append(r.Escapes, r2.Escapes...)
}

func (r *LocateResult) count(measure, source string, found bool, level string) {
	k := Row{measure, source}
	c := r.Counts[k]
	c.Total++
	if found {
		c.Found++
		r.Levels[Row{measure, level}]++
	}
	r.Counts[k] = c
}

// LocateInput is one document's measurement.
type LocateInput struct {
	Key   string              // identifies the document in the seed (its hash)
	Texts map[string][]string // its page texts by source, Ours included
	// OtherTexts are another document's page texts: the fabricated
	// control splices their windows into this document's; nil leaves it
	// out.
	OtherTexts map[string][]string
	Locator    Locator
	KeepMisses bool
	// MinVariantLen is the fewest letters and digits a variant must keep
	// to be measured: the fewest the locator's levels for changed
	// punctuation and dropped characters look up (citations.SymbolMinLen).
	// A variant that keeps fewer (an ASCII copy of a Greek or Chinese
	// line) no rule may find, so it is neither a window nor a control.
	MinVariantLen int
}

// docTexts are a document's texts as the controls test them: every text
// of the document, ours included, pages joined (a changed window found
// across a page break of one of them is no fabrication), normalized as
// written and under each variant, and their skeletons.
type docTexts struct {
	norm  map[string][]*textnorm.Text // by variant, "" as written
	kept  []*textnorm.Text            // with the non-ASCII characters dropped that carry no meaning
	skels []string
}

func newDocTexts(texts map[string][]string) *docTexts {
	dt := &docTexts{norm: map[string][]*textnorm.Text{}}
	for _, n := range sortedKeys(texts) {
		joined := strings.Join(texts[n], "\n")
		dt.norm[""] = append(dt.norm[""], profile.Normalize(joined))
		for _, v := range Variants {
			dt.norm[v.Name] = append(dt.norm[v.Name], profile.Normalize(v.Apply(joined)))
		}
		dt.kept = append(dt.kept, profile.Normalize(DropMeaningless(joined)))
		dt.skels = append(dt.skels, skeleton(joined))
	}
	return dt
}

// holds reports whether a text of the document holds quote: as written
// or under the variant, after normalization; or with its punctuation and
// spaces left out (its skeleton), or each of its lines so, in any order,
// as the relaxed locator levels (joined_words, reordered) may find it
// there.
func (dt *docTexts) holds(quote, variant string) bool {
	if dt.holdsText(quote, variant) {
		return true
	}
	lines := strings.FieldsFunc(quote, func(r rune) bool { return r == '\n' || r == '\r' })
	if len(lines) < 2 {
		return false
	}
	for _, l := range lines {
		if !dt.holdsSkeleton(l) {
			return false
		}
	}
	return true
}

// holdsText is holds but for the lines in any order: what the
// changed-digit and changed-word controls leave out, since reordered never
// places a line holding a number on its own.
func (dt *docTexts) holdsText(quote, variant string) bool {
	return occursIn(dt.norm[""], quote) || variant != "" && occursIn(dt.norm[variant], quote) || dt.holdsSkeleton(quote)
}

// holdsSkeleton reports whether a text of the document holds s's
// skeleton.
func (dt *docTexts) holdsSkeleton(s string) bool {
	sk := skeleton(s)
	for _, t := range dt.skels {
		if strings.Contains(t, sk) {
			return true
		}
	}
	return false
}

// skeleton is s's letters, marks and numbers, nothing else.
func skeleton(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r) {
			return r
		}
		return -1
	}, s)
}

// MeasureLocate samples the same windows as Measure from every reference
// source (texts without Ours), keeps those that occur exactly once in the
// source's own text of the document (after normalization, so that "the
// right page" is defined), and counts how many the locator places on their
// page, alone and with their page given, as copied and under each Variant
// that changes them (a variant that dropped a character carrying meaning,
// MeaningDropped, is a control instead, unless a text of the document
// holds it: docTexts.holds). Each such window, and each variant of it, is
// then changed, once in one digit and once in one content word
// (ChangeDigit, ChangeWord); a changed window that occurs in none of the
// document's texts (under the same variant) is a fabrication, and the
// locator must not find it. Two controls more: the window's first half
// followed by the second half of a window of another document, when no
// text of this one holds that half (fabricated), and the window located
// naming another document that holds it in none of its texts (wrong
// document). Escapes are always kept: they are locator bugs.
func MeasureLocate(in LocateInput) *LocateResult {
	r := &LocateResult{Counts: map[Row]Cell{}, Levels: map[Row]int{}}
	dt := newDocTexts(in.Texts)
	var ot *docTexts
	if in.OtherTexts != nil {
		ot = newDocTexts(in.OtherTexts)
	}
	names := make([]string, 0, len(in.Texts))
	for n := range in.Texts {
		if n != Ours {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	others := otherHalves(in.OtherTexts, in.Key)
	for _, src := range names {
		norm := make([]*textnorm.Text, len(in.Texts[src]))
		for p, t := range in.Texts[src] {
			norm[p] = profile.Normalize(t)
		}
		vocab := contentWords(in.Texts[src])
		for p, page := range in.Texts[src] {
			wkey := fmt.Sprintf("%s/%d/%s", in.Key, p+1, src)
			for _, w := range Windows(page, wkey) {
				if !uniqueIn(norm, w) {
					continue
				}
				win := window{src: src, page: p + 1, key: wkey, text: w}
				base := r.measureWindow(&in, win, "", "")
				r.controls(&in, dt, win, vocab, "")
				for _, v := range Variants {
					if vw := v.Apply(w); vw != w && utf8.RuneCountInString(skeleton(vw)) >= in.MinVariantLen {
						vwin := win
						vwin.text = vw
						if v.Drops && MeaningDropped(w, vw) {
							// A control only where our text holds what
							// the variant dropped (found as copied, at a
							// normalized level) and no text holds the
							// variant where it drops only characters
							// that carry no meaning.
							if base.Found && normalizedLevel(base.Level) && !dt.holds(vw, "") && !occursIn(dt.kept, vw) {
								r.control(&in, vwin, VariantMeasure(MeasureMeaning, v.Name), vw, v.Name)
							}
							continue
						}
						r.measureWindow(&in, vwin, v.Name, copiedLevel(base, win.page))
						r.controls(&in, dt, vwin, vocab, v.Name)
					}
				}
				if q, half := splice(w, others, wkey); q != "" && !dt.holds(half, "") {
					r.control(&in, win, MeasureFabricated, q, "")
				}
				if in.Locator.Other != nil && !ot.holds(w, "") {
					r.wrongDocument(&in, win)
				}
			}
		}
	}
	return r
}

// window is one sampled window.
type window struct {
	src  string
	page int
	key  string
	text string
}

// measureWindow counts whether the locator places the window (or its
// variant) on its page, alone and, for the window as copied, with its
// page, and returns what the locator said of it alone.
func (r *LocateResult) measureWindow(in *LocateInput, w window, variant, copied string) Answer {
	a := in.Locator.In(w.text, 0)
	ok := slices.Contains(a.Pages, w.page)
	r.count(VariantMeasure(MeasureFound, variant), w.src, ok, a.Level)
	if !ok && in.KeepMisses {
		r.Misses = append(r.Misses, LocateMiss{Page: w.page, Source: w.src, Variant: variant, Quote: w.text, Pages: a.Pages, Level: a.Level, CopiedLevel: copied})
	}
	if variant == "" {
		ap := in.Locator.In(w.text, w.page)
		r.count(MeasureWithPage, w.src, slices.Contains(ap.Pages, w.page), ap.Level)
	}
	return a
}

// copiedLevel is the level the window as copied was placed on its page
// at, "" when it was not.
func copiedLevel(a Answer, page int) string {
	if slices.Contains(a.Pages, page) {
		return a.Level
	}
	return ""
}

// normalizedLevel reports the levels of the quote profile itself: a
// match there is the text, up to its spelling.
func normalizedLevel(l string) bool {
	switch l {
	case "exact", "canonical", "whitespace", "hyphenation", "typography", "ligature":
		return true
	}
	return false
}

// controls changes the window in one digit and in one content word and
// counts those the locator finds although no text of the document (under
// the same variant) holds them.
func (r *LocateResult) controls(in *LocateInput, dt *docTexts, w window, vocab []string, variant string) {
	for _, ch := range []struct{ measure, quote string }{
		{MeasureChangedDigit, ChangeDigit(w.text, w.key)},
		{MeasureChangedWord, ChangeWord(w.text, w.key, vocab)},
	} {
		if ch.quote == "" || dt.holdsText(ch.quote, variant) {
			continue
		}
		r.control(in, w, VariantMeasure(ch.measure, variant), ch.quote, variant)
	}
}

// control counts a quote the locator must not find in the document.
func (r *LocateResult) control(in *LocateInput, w window, measure, quote, variant string) {
	if quote == "" {
		return
	}
	a := in.Locator.In(quote, 0)
	r.count(measure, w.src, a.Found, a.Level)
	if a.Found {
		r.Escapes = append(r.Escapes, LocateMiss{Page: w.page, Source: w.src, Variant: variant, Control: measure, Quote: quote, Pages: a.Pages, Level: a.Level})
	}
}

// wrongDocument counts the window located naming another document, which
// holds it in none of its texts (docTexts.holds): found there is an
// escape.
func (r *LocateResult) wrongDocument(in *LocateInput, w window) {
	a := in.Locator.Other(w.text)
	r.count(MeasureWrongDocument, w.src, a.Found, a.Level)
	if a.Found {
		r.Escapes = append(r.Escapes, LocateMiss{Page: w.page, Source: w.src, Control: MeasureWrongDocument, Quote: w.text, Pages: a.Pages, Level: a.Level})
	}
}

// otherHalves lists the second halves of another document's windows (of
// every source), for the fabricated control.
func otherHalves(texts map[string][]string, key string) []string {
	var out []string
	for _, n := range sortedKeys(texts) {
		if n == Ours {
			continue
		}
		for p, page := range texts[n] {
			for _, w := range Windows(page, fmt.Sprintf("%s/other/%d/%s", key, p+1, n)) {
				f := wordSpans(w)
				out = append(out, w[f[len(f)/2][0]:])
			}
		}
	}
	return out
}

// splice returns the window's first half followed by the second half of
// one of others, drawn by the window's generator, and that second half.
func splice(w string, others []string, key string) (quote, half string) {
	f := wordSpans(w)
	if len(f) < 2 || len(others) == 0 {
		return "", ""
	}
	rng := changeRNG(w, key+"/fabricated")
	half = others[rng.IntN(len(others))]
	return w[:f[len(f)/2-1][1]] + " " + half, half
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
// or "" when it has none. A digit of a glyph name pypdf prints for a glyph
// it cannot map ("/epsilon1") is no number of the text and is left alone.
func ChangeDigit(w, key string) string {
	var ds []int
	inName := false
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c == '/' && i+1 < len(w) && (w[i+1] >= 'a' && w[i+1] <= 'z' || w[i+1] >= 'A' && w[i+1] <= 'Z'):
			inName = true
		case inName && !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'):
			inName = false
		}
		if c >= '0' && c <= '9' && !inName {
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
// vocab offers no different word. A glyph name pypdf prints ("/epsilon1")
// is no word of the text and is left alone.
func ChangeWord(w, key string, vocab []string) string {
	type span struct{ from, to int }
	var cands []span
	for _, f := range wordSpans(w) {
		if core, off, ok := contentCore(w[f[0]:f[1]]); ok && !(off > 0 && w[f[0]+off-1] == '/') {
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
