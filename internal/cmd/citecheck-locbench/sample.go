package main

import (
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/corpus"
)

type kind string

const (
	genuine      kind = "genuine"
	changedWord  kind = "changed-word"
	changedDigit kind = "changed-digit"
	crossPage    kind = "cross-page"
)

var kinds = []kind{genuine, changedWord, changedDigit, crossPage}

// quote is one sampled quote with what a correct locator must say.
type quote struct {
	kind  kind
	q     citations.Query
	pages []int // where it was sampled from
}

// pageWords is a page's raw text cut at white space, with byte offsets.
type pageWords struct {
	doc   string
	page  int
	text  string
	words [][2]int
}

// splitWords cuts text at white space into words; a word hyphenated at a
// line end ("con-\ntents") is one word, as a reader would copy it.
func splitWords(text string) [][2]int {
	var ws [][2]int
	start := -1
	for i, r := range text {
		if unicode.IsSpace(r) {
			if start >= 0 {
				ws = append(ws, [2]int{start, i})
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		ws = append(ws, [2]int{start, len(text)})
	}
	out := ws[:0]
	for _, w := range ws {
		if n := len(out); n > 0 {
			prev := out[n-1]
			gap := text[prev[1]:w[0]]
			next, _ := utf8.DecodeRuneInString(text[w[0]:])
			if strings.HasSuffix(text[prev[0]:prev[1]], "-") && prev[1]-prev[0] > 1 && strings.Count(gap, "\n") == 1 && unicode.IsLetter(next) {
				out[n-1][1] = w[1]
				continue
			}
		}
		out = append(out, w)
	}
	return out
}

// contentWord reports a word that is letters only (after its punctuation),
// four or more: the kind of word whose change alters a statement.
func contentWord(w string) (core string, pre, post string, ok bool) {
	core = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) })
	if utf8.RuneCountInString(core) < 4 || strings.IndexFunc(core, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
		return "", "", "", false
	}
	i := strings.Index(w, core)
	return core, w[:i], w[i+len(core):], true
}

// sample draws n quotes from the sources' pages, deterministically for a
// seed: 40% genuine, 20% one content word changed, 20% one digit changed,
// 20% across a page break. Half of them give the page they come from.
func sample(srcs []corpus.MemoryDocument, n int, seed uint64) []quote {
	s := newSampler(srcs, seed)
	if len(s.pages) == 0 {
		return nil
	}
	out := make([]quote, 0, n)
	for len(out) < n {
		var q quote
		var ok bool
		switch k := len(out) % 10; {
		case k < 4:
			q, ok = s.genuineQuote()
		case k < 6:
			q, ok = s.changedWordQuote()
		case k < 8:
			q, ok = s.changedDigitQuote()
		default:
			q, ok = s.crossPageQuote()
		}
		if !ok {
			continue
		}
		if s.r.IntN(2) == 0 {
			q.q.Page = q.pages[0]
		}
		out = append(out, q)
	}
	return out
}

// sampler draws quotes from the pages of at least 12 words. Every draw
// comes from r, in a fixed order, so that a seed gives the same quotes.
type sampler struct {
	r          *rand.Rand
	pages      []pageWords
	digitPages []int    // the pages holding a digit
	pairs      []int    // index of a page whose next page (same document) also has words
	vocab      []string // content words of the pages, to change a word into
}

func newSampler(srcs []corpus.MemoryDocument, seed uint64) *sampler {
	s := &sampler{r: rand.New(rand.NewPCG(seed, 0x1f50a2335457b15b))}
	for _, src := range srcs {
		if src.Status != "" && src.Status != "ok" {
			continue
		}
		for p, sp := range src.Pages {
			ws := splitWords(sp.Text)
			if len(ws) < 12 {
				continue
			}
			pw := pageWords{doc: src.Name, page: p + 1, text: sp.Text, words: ws}
			if strings.IndexFunc(sp.Text, unicode.IsDigit) >= 0 {
				s.digitPages = append(s.digitPages, len(s.pages))
			}
			if len(s.pages) > 0 {
				prev := s.pages[len(s.pages)-1]
				if prev.doc == src.Name && prev.page == p {
					s.pairs = append(s.pairs, len(s.pages)-1)
				}
			}
			s.pages = append(s.pages, pw)
		}
	}
	if len(s.pages) == 0 {
		return s
	}
	for i := 0; i < 4000; i++ {
		pw := s.pages[s.r.IntN(len(s.pages))]
		w := pw.words[s.r.IntN(len(pw.words))]
		if core, _, _, ok := contentWord(pw.text[w[0]:w[1]]); ok {
			s.vocab = append(s.vocab, core)
		}
	}
	return s
}

// window draws a stretch of 8 to 25 of the page's words, [a, b).
func (s *sampler) window(pw pageWords) (a, b int) {
	l := 8 + s.r.IntN(18)
	if l > len(pw.words) {
		l = len(pw.words)
	}
	a = s.r.IntN(len(pw.words) - l + 1)
	return a, a + l
}

// genuineQuote is a window of a page as it stands.
func (s *sampler) genuineQuote() (quote, bool) {
	pw := s.pages[s.r.IntN(len(s.pages))]
	a, b := s.window(pw)
	return quote{kind: genuine, q: citations.Query{Document: pw.doc, Quote: pw.text[pw.words[a][0]:pw.words[b-1][1]]}, pages: []int{pw.page}}, true
}

// changedWordQuote is a window with one content word replaced by another
// of the corpus's; false when the window has none or the draw is the same
// word.
func (s *sampler) changedWordQuote() (quote, bool) {
	pw := s.pages[s.r.IntN(len(s.pages))]
	a, b := s.window(pw)
	var cands []int
	for i := a; i < b; i++ {
		if _, _, _, ok := contentWord(pw.text[pw.words[i][0]:pw.words[i][1]]); ok {
			cands = append(cands, i)
		}
	}
	if len(cands) == 0 || len(s.vocab) == 0 {
		return quote{}, false
	}
	i := cands[s.r.IntN(len(cands))]
	core, pre, post, _ := contentWord(pw.text[pw.words[i][0]:pw.words[i][1]])
	repl := s.vocab[s.r.IntN(len(s.vocab))]
	if strings.EqualFold(repl, core) {
		return quote{}, false
	}
	text := pw.text[pw.words[a][0]:pw.words[i][0]] + pre + repl + post + pw.text[pw.words[i][1]:pw.words[b-1][1]]
	return quote{kind: changedWord, q: citations.Query{Document: pw.doc, Quote: text}, pages: []int{pw.page}}, true
}

// changedDigitQuote is a window of a page with digits, one digit changed;
// false when the window has none.
func (s *sampler) changedDigitQuote() (quote, bool) {
	if len(s.digitPages) == 0 {
		return quote{}, false
	}
	pw := s.pages[s.digitPages[s.r.IntN(len(s.digitPages))]]
	a, b := s.window(pw)
	text := pw.text[pw.words[a][0]:pw.words[b-1][1]]
	var ds []int
	for i, c := range text {
		if c >= '0' && c <= '9' {
			ds = append(ds, i)
		}
	}
	if len(ds) == 0 {
		return quote{}, false
	}
	i := ds[s.r.IntN(len(ds))]
	d := '0' + (rune(text[i]-'0')+1+rune(s.r.IntN(9)))%10
	text = text[:i] + string(d) + text[i+1:]
	return quote{kind: changedDigit, q: citations.Query{Document: pw.doc, Quote: text}, pages: []int{pw.page}}, true
}

// crossPageQuote is the last words of a page and the first of the next;
// false when a word is split across the break.
func (s *sampler) crossPageQuote() (quote, bool) {
	if len(s.pairs) == 0 {
		return quote{}, false
	}
	pi := s.pairs[s.r.IntN(len(s.pairs))]
	p1, p2 := s.pages[pi], s.pages[pi+1]
	ta, hb := 4+s.r.IntN(9), 4+s.r.IntN(9)
	tail := p1.text[p1.words[len(p1.words)-ta][0]:p1.words[len(p1.words)-1][1]]
	head := p2.text[p2.words[0][0]:p2.words[hb-1][1]]
	if strings.HasSuffix(tail, "-") {
		return quote{}, false // a word split across the page break: not how anyone quotes
	}
	return quote{kind: crossPage, q: citations.Query{Document: p1.doc, Quote: tail + "\n" + head}, pages: []int{p1.page, p2.page}}, true
}
