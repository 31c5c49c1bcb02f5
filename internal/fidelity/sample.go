package fidelity

import (
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/zeebo/blake3"
)

// Seed is the fixed seed of the window sample; changing it changes every
// figure, so it is part of the benchmark's identity.
const Seed = 20261130

// Window lengths, in words.
const (
	MinWords = 6
	MaxWords = 14
)

// Windows cuts a page text into consecutive, non-overlapping windows of
// MinWords to MaxWords words, lengths drawn from a PCG generator seeded by
// Seed and key. Each window is the raw text from its first word's start to
// its last word's end, line breaks included. Windows where the source
// could not decode a glyph are left out (see undecoded): it offers no quote
// there.
func Windows(text, key string) []string {
	words := wordSpans(text)
	// A word broken by a line-end hyphen is one word: a window never
	// starts or ends inside it, as no one quotes half a word.
	merged := words[:0]
	for _, w := range words {
		if n := len(merged); n > 0 && lineEndHyphen(text[merged[n-1][0]:merged[n-1][1]], text[merged[n-1][1]:w[0]], text[w[0]:w[1]]) {
			merged[n-1][1] = w[1]
			continue
		}
		merged = append(merged, w)
	}
	words = merged
	sum := blake3.Sum256([]byte(key))
	rng := rand.New(rand.NewPCG(Seed, binary.LittleEndian.Uint64(sum[:8])))
	var out []string
	for k := 0; k+MinWords <= len(words); {
		n := MinWords + rng.IntN(MaxWords-MinWords+1)
		if k+n > len(words) {
			n = len(words) - k
		}
		w := text[words[k][0]:words[k+n-1][1]]
		if !undecoded(w) {
			out = append(out, w)
		}
		k += n
	}
	return out
}

// lineEndHyphen reports whether word, then the white space gap, then next
// are a word hyphenated across a line break.
func lineEndHyphen(word, gap, next string) bool {
	last, _ := utf8.DecodeLastRuneInString(word)
	first, _ := utf8.DecodeRuneInString(next)
	return (last == '-' || last == 0x2010 || last == 0xAD) && strings.ContainsAny(gap, "\n\r") && unicode.IsLetter(first)
}

// undecoded reports whether a window holds a source's mark for a glyph it
// could not decode: U+FFFD; pdfminer's "(cid:N)"; or a C0 control
// character other than white space, which poppler emits for a glyph that
// maps to nothing (a TeX symbol font's code 4, say).
func undecoded(w string) bool {
	if strings.ContainsRune(w, utf8.RuneError) {
		return true
	}
	for i := strings.Index(w, "(cid:"); i >= 0; {
		j := i + len("(cid:")
		k := j
		for k < len(w) && w[k] >= '0' && w[k] <= '9' {
			k++
		}
		if k > j && k < len(w) && w[k] == ')' {
			return true
		}
		n := strings.Index(w[j:], "(cid:")
		if n < 0 {
			break
		}
		i = j + n
	}
	for _, r := range w {
		if r < 0x20 && !unicode.IsSpace(r) || r == 0x7f {
			return true
		}
	}
	return false
}
