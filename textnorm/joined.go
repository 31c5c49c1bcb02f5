package textnorm

import (
	"fmt"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// Joined is the whitespace-insensitive form of a Text: every U+0020 removed
// except one whose nearest non-space neighbours are both decimal digits
// (Unicode Nd), so that "1 000" never becomes "1000". It keeps a map to the
// normalized (and through it the raw) text. A match found only in this form
// is JoinedWords; see JoinedMinLen.
type Joined struct {
	t   *Text
	s   string
	idx []int32 // normalized code point behind each joined code point
	ck  []int32
}

func isDigit(r rune) bool {
	if uint32(r) < utf8.RuneSelf {
		return r >= '0' && r <= '9'
	}
	return unicode.IsDigit(r)
}

// Joined builds the whitespace-insensitive form. It is computed on each
// call; keep the result.
func (t *Text) Joined() *Joined {
	out := make([]byte, 0, len(t.s))
	idx := make([]int32, 0, len(t.lev))
	prev := rune(-1) // last non-space code point
	for bi, k := 0, 0; bi < len(t.s); k++ {
		if c := t.s[bi]; c < utf8.RuneSelf && c != ' ' {
			// Fast path: ASCII other than space is kept.
			out = append(out, c)
			idx = append(idx, int32(k))
			prev = rune(c)
			bi++
			continue
		}
		r, w := t.runeAt(bi)
		if r == ' ' {
			keep := false
			if isDigit(prev) {
				b := bi + w
				for b < len(t.s) && t.s[b] == ' ' {
					b++
				}
				next, _ := t.peek(b)
				keep = isDigit(next)
			}
			if !keep {
				bi += w
				continue
			}
		} else {
			prev = r
		}
		out = append(out, t.s[bi:bi+w]...)
		idx = append(idx, int32(k))
		bi += w
	}
	j := &Joined{t: t, s: unsafe.String(unsafe.SliceData(out), len(out)), idx: idx} // out is not written again
	if len(j.s) != len(idx) {
		j.ck = checkpoints(j.s)
	}
	return j
}

// String is the joined text.
func (j *Joined) String() string { return j.s }

// Len is the joined length in code points.
func (j *Joined) Len() int { return len(j.idx) }

// Text is the normalized text this form was built from.
func (j *Joined) Text() *Text { return j.t }

// Eligible reports whether this form, as a quote, is long enough
// (JoinedMinLen) for a JoinedWords match to be reported.
func (j *Joined) Eligible() bool { return len(j.idx) >= JoinedMinLen }

func (j *Joined) checkRange(a, b int) {
	if a < 0 || b < a || b > len(j.idx) {
		panic(fmt.Sprintf("textnorm: joined range [%d,%d) out of [0,%d]", a, b, len(j.idx)))
	}
}

// ByteOffset converts joined code point offset n (0 <= n <= Len) to a byte
// offset in String.
func (j *Joined) ByteOffset(n int) int {
	j.checkRange(n, n)
	return byteOf(j.s, j.ck, n)
}

// CodePoint converts byte offset b of String to the joined code point
// offset of the code point containing it.
func (j *Joined) CodePoint(b int) int {
	if b < 0 || b > len(j.s) {
		panic(fmt.Sprintf("textnorm: byte offset %d out of [0,%d]", b, len(j.s)))
	}
	for b > 0 && b < len(j.s) && !utf8.RuneStart(j.s[b]) {
		b--
	}
	return cpOf(j.s, j.ck, b)
}

// NormSpan maps the joined range [a, b) to the normalized range it came
// from (which includes the spaces removed inside it).
func (j *Joined) NormSpan(a, b int) (int, int) {
	j.checkRange(a, b)
	if a == b {
		p := 0
		switch {
		case a < len(j.idx):
			p = int(j.idx[a])
		case a > 0:
			p = int(j.idx[a-1]) + 1
		}
		return p, p
	}
	return int(j.idx[a]), int(j.idx[b-1]) + 1
}

// RawSpan maps the joined range [a, b) to raw code points.
func (j *Joined) RawSpan(a, b int) (int, int) {
	return j.t.RawSpan(j.NormSpan(a, b))
}

// Level is JoinedWords when a space was removed inside [a, b), else the
// normalized text's level there.
func (j *Joined) Level(a, b int) Level {
	j.checkRange(a, b)
	for k := a; k+1 < b; k++ {
		if j.idx[k+1] != j.idx[k]+1 {
			return JoinedWords
		}
	}
	return j.t.Level(j.NormSpan(a, b))
}
