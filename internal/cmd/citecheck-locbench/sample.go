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
	r := rand.New(rand.NewPCG(seed, 0x1f50a2335457b15b))
	var pages []pageWords
	var digitPages []int
	var pairs []int // index of a page whose next page (same document) also has words
	for _, s := range srcs {
		if s.Status != "" && s.Status != "ok" {
			continue
		}
		for p, sp := range s.Pages {
			ws := splitWords(sp.Text)
			if len(ws) < 12 {
				continue
			}
			pw := pageWords{doc: s.Name, page: p + 1, text: sp.Text, words: ws}
			if strings.IndexFunc(sp.Text, unicode.IsDigit) >= 0 {
				digitPages = append(digitPages, len(pages))
			}
			if len(pages) > 0 {
				prev := pages[len(pages)-1]
				if prev.doc == s.Name && prev.page == p {
					pairs = append(pairs, len(pages)-1)
				}
			}
			pages = append(pages, pw)
		}
	}
	if len(pages) == 0 {
		return nil
	}
	var vocab []string
	for i := 0; i < 4000; i++ {
		pw := pages[r.IntN(len(pages))]
		w := pw.words[r.IntN(len(pw.words))]
		if core, _, _, ok := contentWord(pw.text[w[0]:w[1]]); ok {
			vocab = append(vocab, core)
		}
	}
	window := func(pw pageWords) (int, int) {
		l := 8 + r.IntN(18)
		if l > len(pw.words) {
			l = len(pw.words)
		}
		s := r.IntN(len(pw.words) - l + 1)
		return s, s + l
	}
	out := make([]quote, 0, n)
	for len(out) < n {
		var q quote
		switch k := len(out) % 10; {
		case k < 4:
			pw := pages[r.IntN(len(pages))]
			a, b := window(pw)
			q = quote{kind: genuine, q: citations.Query{Document: pw.doc, Quote: pw.text[pw.words[a][0]:pw.words[b-1][1]]}, pages: []int{pw.page}}
		case k < 6:
			pw := pages[r.IntN(len(pages))]
			a, b := window(pw)
			var cands []int
			for i := a; i < b; i++ {
				if _, _, _, ok := contentWord(pw.text[pw.words[i][0]:pw.words[i][1]]); ok {
					cands = append(cands, i)
				}
			}
			if len(cands) == 0 || len(vocab) == 0 {
				continue
			}
			i := cands[r.IntN(len(cands))]
			core, pre, post, _ := contentWord(pw.text[pw.words[i][0]:pw.words[i][1]])
			repl := vocab[r.IntN(len(vocab))]
			if strings.EqualFold(repl, core) {
				continue
			}
			text := pw.text[pw.words[a][0]:pw.words[i][0]] + pre + repl + post + pw.text[pw.words[i][1]:pw.words[b-1][1]]
			q = quote{kind: changedWord, q: citations.Query{Document: pw.doc, Quote: text}, pages: []int{pw.page}}
		case k < 8:
			if len(digitPages) == 0 {
				continue
			}
			pw := pages[digitPages[r.IntN(len(digitPages))]]
			a, b := window(pw)
			text := pw.text[pw.words[a][0]:pw.words[b-1][1]]
			var ds []int
			for i, c := range text {
				if c >= '0' && c <= '9' {
					ds = append(ds, i)
				}
			}
			if len(ds) == 0 {
				continue
			}
			i := ds[r.IntN(len(ds))]
			d := '0' + (rune(text[i]-'0')+1+rune(r.IntN(9)))%10
			text = text[:i] + string(d) + text[i+1:]
			q = quote{kind: changedDigit, q: citations.Query{Document: pw.doc, Quote: text}, pages: []int{pw.page}}
		default:
			if len(pairs) == 0 {
				continue
			}
			pi := pairs[r.IntN(len(pairs))]
			p1, p2 := pages[pi], pages[pi+1]
			ta, hb := 4+r.IntN(9), 4+r.IntN(9)
			tail := p1.text[p1.words[len(p1.words)-ta][0]:p1.words[len(p1.words)-1][1]]
			head := p2.text[p2.words[0][0]:p2.words[hb-1][1]]
			if strings.HasSuffix(tail, "-") {
				continue // a word split across the page break: not how anyone quotes
			}
			q = quote{kind: crossPage, q: citations.Query{Document: p1.doc, Quote: tail + "\n" + head}, pages: []int{p1.page, p2.page}}
		}
		if r.IntN(2) == 0 {
			q.q.Page = q.pages[0]
		}
		out = append(out, q)
	}
	return out
}
