package textnorm

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// ckStep is the spacing, in code points, of the byte-offset checkpoints that
// convert code point offsets to byte offsets and back.
const ckStep = 64

// Text is a normalized text with its map back to the raw text. It is
// immutable; the offset checkpoints are built on first use.
type Text struct {
	s string
	// The raw byte span of each normalized code point: in rs16 and re16
	// when the raw text is from 1 to 64 KiB long (nearly every page),
	// which halves what a page kept in memory costs, else in rs and re.
	rs, re     []int32
	rs16, re16 []uint16
	lev        []uint8 // own level, gap level and flags (see level.go)

	raw    string
	rawLen int // raw length in code points

	ckOnce, rawCkOnce sync.Once
	ck                []int32 // byte offset of code point k*ckStep in s; nil when s is ASCII
	rawCk             []int32 // same for raw; nil when raw is ASCII
}

// newText keeps the maps of a text of compactFrom raw bytes or more (a
// page, which an index may keep in memory) at their length, and in 16
// bits below 64 KiB: Normalize sizes them for the raw text, which
// whitespace runs make several times longer. A shorter text (a quote,
// normalized and dropped) keeps the builder's, its string included,
// saving the copies.
func newText(raw string, out []byte, rs, re []int32, lev []uint8) *Text {
	t := &Text{rs: rs, re: re, lev: lev, raw: raw}
	switch {
	case len(raw) < compactFrom:
		// out is the builder's and is not written again.
		t.s = unsafe.String(unsafe.SliceData(out), len(out))
	case len(raw) <= math.MaxUint16:
		t.s = string(out)
		t.rs, t.re, t.lev = nil, nil, slices.Clone(lev)
		t.rs16, t.re16 = make([]uint16, len(rs)), make([]uint16, len(re))
		for i := range rs {
			t.rs16[i], t.re16[i] = uint16(rs[i]), uint16(re[i])
		}
	default:
		t.s = string(out)
		t.rs, t.re, t.lev = slices.Clone(rs), slices.Clone(re), slices.Clone(lev)
	}
	t.rawLen = utf8.RuneCountInString(raw)
	return t
}

// compactFrom is the raw length from which a Text's maps are compacted.
const compactFrom = 1 << 10

// rsAt and reAt are the raw byte span of normalized code point i.
func (t *Text) rsAt(i int) int {
	if t.rs == nil {
		return int(t.rs16[i])
	}
	return int(t.rs[i])
}

func (t *Text) reAt(i int) int {
	if t.re == nil {
		return int(t.re16[i])
	}
	return int(t.re[i])
}

// norm checkpoints, built once.
func (t *Text) nck() []int32 {
	t.ckOnce.Do(func() {
		if len(t.s) != len(t.lev) {
			t.ck = checkpoints(t.s)
		}
	})
	return t.ck
}

func (t *Text) rck() []int32 {
	t.rawCkOnce.Do(func() {
		if len(t.raw) != t.rawLen {
			t.rawCk = checkpoints(t.raw)
		}
	})
	return t.rawCk
}

// checkpoints returns the byte offset of every ckStep-th code point,
// counting as utf8.DecodeRuneInString steps (an invalid byte is one).
func checkpoints(s string) []int32 {
	ck := make([]int32, 0, len(s)/ckStep+1)
	n := 0
	for i := 0; i < len(s); {
		if n%ckStep == 0 {
			ck = append(ck, int32(i))
		}
		if s[i] < utf8.RuneSelf {
			i++
		} else {
			_, w := utf8.DecodeRuneInString(s[i:])
			i += w
		}
		n++
	}
	return ck
}

// byteOf converts code point offset n of s (0 <= n <= count) to a byte offset.
func byteOf(s string, ck []int32, n int) int {
	if ck == nil {
		return n
	}
	k := n / ckStep
	if k >= len(ck) {
		k = len(ck) - 1
	}
	if k < 0 {
		return 0
	}
	b := int(ck[k])
	for c := k * ckStep; c < n && b < len(s); c++ {
		if s[b] < utf8.RuneSelf {
			b++
		} else {
			_, w := utf8.DecodeRuneInString(s[b:])
			b += w
		}
	}
	return b
}

// cpOf converts byte offset b of s (at a code point boundary) to a code
// point offset.
func cpOf(s string, ck []int32, b int) int {
	if ck == nil {
		return b
	}
	k := sort.Search(len(ck), func(i int) bool { return int(ck[i]) > b }) - 1
	if k < 0 {
		return 0
	}
	return k*ckStep + utf8.RuneCountInString(s[ck[k]:b])
}

// String is the normalized text, valid UTF-8 in NFC.
func (t *Text) String() string { return t.s }

// Len is the normalized length in code points.
func (t *Text) Len() int { return len(t.lev) }

// Raw is the text given to Normalize.
func (t *Text) Raw() string { return t.raw }

// RawLen is the raw length in code points.
func (t *Text) RawLen() int { return t.rawLen }

func (t *Text) checkRange(a, b int) {
	if a < 0 || b < a || b > len(t.lev) {
		panic(fmt.Sprintf("textnorm: normalized range [%d,%d) out of [0,%d]", a, b, len(t.lev)))
	}
}

// ByteOffset converts normalized code point offset n (0 <= n <= Len) to a
// byte offset in String.
func (t *Text) ByteOffset(n int) int {
	t.checkRange(n, n)
	return byteOf(t.s, t.nck(), n)
}

// CodePoint converts byte offset b of String (0 <= b <= len(String)) to the
// normalized code point offset of the code point containing it.
func (t *Text) CodePoint(b int) int {
	if b < 0 || b > len(t.s) {
		panic(fmt.Sprintf("textnorm: byte offset %d out of [0,%d]", b, len(t.s)))
	}
	for b > 0 && b < len(t.s) && !utf8.RuneStart(t.s[b]) {
		b--
	}
	return cpOf(t.s, t.nck(), b)
}

// Slice returns the normalized code points [a, b).
func (t *Text) Slice(a, b int) string {
	t.checkRange(a, b)
	ck := t.nck()
	return t.s[byteOf(t.s, ck, a):byteOf(t.s, ck, b)]
}

func (t *Text) rawCP(b int) int { return cpOf(t.raw, t.rck(), b) }

// RawSpan maps the normalized range [a, b) to the smallest raw code point
// range that produced it: characters removed inside the range (soft hyphens,
// extra spaces, a joined line-end hyphen) are covered, those removed before
// a or after b-1 are not. An empty range maps to an empty raw range at the
// corresponding raw position; so does a range holding only a space inserted
// by the footer repair.
func (t *Text) RawSpan(a, b int) (rawStart, rawEnd int) {
	t.checkRange(a, b)
	if a == b {
		var p int
		switch {
		case a < len(t.lev):
			p = t.rsAt(a)
		case a > 0:
			p = t.reAt(a - 1)
		}
		c := t.rawCP(p)
		return c, c
	}
	return t.rawCP(t.rsAt(a)), t.rawCP(t.reAt(b - 1))
}

// RawBreakAt reports whether normalized code point i is a space that
// stands for raw white space holding a line break (one of breaks): the raw
// text from i's start to the next code point's start (to the raw text's
// end after the last) contains one.
func (t *Text) RawBreakAt(i int, breaks string) bool {
	if i < 0 || i >= len(t.lev) || t.s[byteOf(t.s, t.nck(), i)] != ' ' {
		return false
	}
	from, to := t.rsAt(i), len(t.raw)
	if i+1 < len(t.lev) {
		to = t.rsAt(i + 1)
	}
	return from < to && strings.ContainsAny(t.raw[from:to], breaks)
}

// RawSlice returns the raw code points [rawStart, rawEnd).
func (t *Text) RawSlice(rawStart, rawEnd int) string {
	if rawStart < 0 || rawEnd < rawStart || rawEnd > t.rawLen {
		panic(fmt.Sprintf("textnorm: raw range [%d,%d) out of [0,%d]", rawStart, rawEnd, t.rawLen))
	}
	ck := t.rck()
	return t.raw[byteOf(t.raw, ck, rawStart):byteOf(t.raw, ck, rawEnd)]
}

// Level is the least relaxed level whose rules turn the raw text covered by
// [a, b) (RawSpan) into the normalized text [a, b): the most relaxed rule
// that produced a code point of the range or removed something between two
// of them. An empty range is Exact.
func (t *Text) Level(a, b int) Level {
	t.checkRange(a, b)
	if a == b {
		return Exact
	}
	l := ownOf(t.lev[a])
	for i := a + 1; i < b; i++ {
		v := t.lev[i]
		l = max(l, ownOf(v), gapOf(v))
	}
	return l
}

// OptionalHyphenAt reports whether a line-end hyphen (or a soft hyphen)
// between two letters was removed just before normalized position n
// (0 < n < Len): a quote may carry "-" or "- " there.
func (t *Text) OptionalHyphenAt(n int) bool {
	return n > 0 && n < len(t.lev) && t.lev[n]&flagHyphen != 0
}

// OptionalSpaceAt reports whether a line break after a dash was removed just
// before normalized position n (0 < n < Len): a quote may carry " " there.
func (t *Text) OptionalSpaceAt(n int) bool {
	return n > 0 && n < len(t.lev) && t.lev[n]&flagSpace != 0
}

// RawOf returns the raw text behind normalized code point i (several
// code points may share one: a ligature's letters).
func (t *Text) RawOf(i int) string {
	t.checkRange(i, i+1)
	return t.rawOwn(i)
}

// rawOwn and rawGap are the raw bytes behind normalized code point i and
// those removed between i-1 and i.
func (t *Text) rawOwn(i int) string { return t.raw[t.rsAt(i):t.reAt(i)] }

func (t *Text) rawGap(i int) string {
	if i == 0 {
		return ""
	}
	from, to := t.reAt(i-1), t.rsAt(i)
	if from >= to {
		return ""
	}
	return t.raw[from:to]
}

// runeAt decodes the normalized code point at byte offset b.
func (t *Text) runeAt(b int) (rune, int) {
	if c := t.s[b]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(t.s[b:])
}
