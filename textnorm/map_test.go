package textnorm

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"golang.org/x/text/unicode/norm"
)

// replaceInvalid replaces each invalid UTF-8 byte by U+FFFD, as Normalize
// does (strings.ToValidUTF8 would merge runs of them).
func replaceInvalid(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		sb.WriteRune(r)
		i += w
	}
	return sb.String()
}

// rawBoundaries marks the byte offsets of raw that start a code point (and
// len(raw)), counting an invalid byte as one code point.
func rawBoundaries(raw string) map[int]bool {
	m := map[int]bool{len(raw): true}
	for i := 0; i < len(raw); {
		m[i] = true
		_, w := utf8.DecodeRuneInString(raw[i:])
		i += w
	}
	return m
}

// checkInvariants asserts everything the package documentation promises about
// one Normalize result. It is shared by the table tests, the property test
// and the fuzz target.
func checkInvariants(t testing.TB, p *Profile, raw string, x *Text) {
	t.Helper()
	s := x.String()
	n := x.Len()
	if !utf8.ValidString(s) {
		t.Fatalf("normalized text is not valid UTF-8: %q", s)
	}
	if (x.rs == nil) != (compactFrom <= len(raw) && len(raw) <= math.MaxUint16) || (x.re == nil) != (x.rs == nil) {
		t.Fatalf("raw text of %d bytes: maps of 32 bits %v/%v", len(raw), x.rs != nil, x.re != nil)
	}
	if rsN, reN := len(x.rs)+len(x.rs16), len(x.re)+len(x.re16); utf8.RuneCountInString(s) != n || rsN != n || reN != n {
		t.Fatalf("length mismatch: %d runes, Len %d, maps %d/%d", utf8.RuneCountInString(s), n, rsN, reN)
	}
	if x.Raw() != raw || x.RawLen() != utf8.RuneCountInString(raw) {
		t.Fatalf("raw not kept: RawLen %d", x.RawLen())
	}
	if p.MaxLevel() >= Canonical && !norm.NFC.IsNormalString(s) {
		t.Fatalf("output not NFC: %q", s)
	}
	if p.MaxLevel() >= Whitespace && (strings.HasPrefix(s, " ") || strings.HasSuffix(s, " ") || strings.Contains(s, "  ")) {
		t.Fatalf("whitespace not collapsed/trimmed: %q", s)
	}
	bounds := rawBoundaries(raw)
	for i := 0; i < n; i++ {
		rs, re := x.rsAt(i), x.reAt(i)
		if rs > re || !bounds[rs] || !bounds[re] {
			t.Fatalf("cp %d: raw byte span [%d,%d) invalid", i, rs, re)
		}
		if i > 0 && (rs < x.rsAt(i-1) || re < x.reAt(i-1)) {
			t.Fatalf("map not monotonic at %d: [%d,%d) after [%d,%d)", i, rs, re, x.rsAt(i-1), x.reAt(i-1))
		}
		if i > 0 && gapOf(x.lev[i]) == Exact && x.rawGap(i) != "" {
			t.Fatalf("cp %d: raw %q removed before it but gap level is exact", i, x.rawGap(i))
		}
		if ownOf(x.lev[i]) == Exact && x.rawOwn(i) != x.Slice(i, i+1) {
			t.Fatalf("cp %d: own level exact but raw %q != %q", i, x.rawOwn(i), x.Slice(i, i+1))
		}
		if ownOf(x.lev[i]) > p.MaxLevel() || gapOf(x.lev[i]) > p.MaxLevel() {
			if !(ownOf(x.lev[i]) == Canonical && p.MaxLevel() == Exact) {
				t.Fatalf("cp %d: level %v/%v above the profile's %v", i, ownOf(x.lev[i]), gapOf(x.lev[i]), p.MaxLevel())
			}
		}
	}
	// Offsets: conversions round-trip, spans stay inside the raw text.
	for i := 0; i <= n; i++ {
		b := x.ByteOffset(i)
		if x.CodePoint(b) != i {
			t.Fatalf("CodePoint(ByteOffset(%d)) = %d", i, x.CodePoint(b))
		}
		if i < n {
			if r, _ := utf8.DecodeRuneInString(s[b:]); string(r) != x.Slice(i, i+1) {
				t.Fatalf("Slice(%d) = %q, rune %q", i, x.Slice(i, i+1), r)
			}
			if _, w := utf8.DecodeRuneInString(s[b:]); w > 1 && x.CodePoint(b+1) != i {
				t.Fatalf("CodePoint inside rune %d = %d", i, x.CodePoint(b+1))
			}
		}
		ra, rb := x.RawSpan(i, i)
		if ra != rb || ra < 0 || ra > x.RawLen() {
			t.Fatalf("RawSpan(%d,%d) = %d,%d", i, i, ra, rb)
		}
	}
	prevA, prevB := 0, 0
	for i := 0; i < n; i++ {
		ra, rb := x.RawSpan(i, i+1)
		if ra < 0 || rb > x.RawLen() || ra > rb || ra < prevA || rb < prevB {
			t.Fatalf("RawSpan(%d,%d) = %d,%d (prev %d,%d, raw len %d)", i, i+1, ra, rb, prevA, prevB, x.RawLen())
		}
		prevA, prevB = ra, rb
		if x.Level(i, i+1) == Exact && x.Slice(i, i+1) != x.RawSlice(ra, rb) {
			t.Fatalf("cp %d is Exact but %q != raw %q", i, x.Slice(i, i+1), x.RawSlice(ra, rb))
		}
	}
	if n > 0 {
		ra, rb := x.RawSpan(0, n)
		if x.Level(0, n) == Exact && s != x.RawSlice(ra, rb) {
			t.Fatalf("text is Exact but differs from its raw span %q", x.RawSlice(ra, rb))
		}
		// The limited profile at the text's level reproduces it from the raw
		// span alone: levels are cumulative and honest.
		if l := x.Level(0, n); l <= p.MaxLevel() && l >= Canonical {
			got := p.Limit(l).Normalize(x.RawSlice(ra, rb)).String()
			if got != s {
				t.Fatalf("Level %v, but Limit(%v) gives %q, want %q", l, l, got, s)
			}
		}
	}
	if p.MaxLevel() == Ligature {
		// Idempotent, and its own output is Exact.
		y := p.Normalize(s)
		if y.String() != s {
			t.Fatalf("not idempotent: %q -> %q", s, y.String())
		}
		if y.Level(0, y.Len()) != Exact {
			t.Fatalf("renormalized output is %v, want exact", y.Level(0, y.Len()))
		}
		// Matching the output against the input needs exactly the level the
		// map reports.
		if n > 0 {
			end, l, ok := Match(x, 0, y)
			if !ok || end != n || l != x.Level(0, n) {
				t.Fatalf("Match(text, own output) = %d,%v,%v; want %d,%v", end, l, ok, n, x.Level(0, n))
			}
			end, l, ok = Match(x, 0, x)
			if !ok || end != n || l != Exact {
				t.Fatalf("self match = %d,%v,%v", end, l, ok)
			}
		}
		checkJoined(t, x)
		vs, _ := x.Variants(16)
		if len(vs) == 0 || vs[0] != s {
			t.Fatalf("first variant %q", vs)
		}
	}
}

func checkJoined(t testing.TB, x *Text) {
	t.Helper()
	j := x.Joined()
	if utf8.RuneCountInString(j.String()) != j.Len() {
		t.Fatal("joined length")
	}
	rs := []rune(x.String())
	js := []rune(j.String())
	for k := range js {
		if k > 0 && j.idx[k] <= j.idx[k-1] {
			t.Fatal("joined map not increasing")
		}
		if rs[j.idx[k]] != js[k] {
			t.Fatalf("joined cp %d maps to %q, is %q", k, rs[j.idx[k]], js[k])
		}
		if k > 0 && isDigit(js[k-1]) && isDigit(js[k]) && j.idx[k] != j.idx[k-1]+1 {
			t.Fatalf("two digits joined at %d in %q", k, j.String())
		}
		if j.CodePoint(j.ByteOffset(k)) != k {
			t.Fatal("joined offsets")
		}
	}
	// Every removed code point is a space.
	kept := map[int32]bool{}
	for _, i := range j.idx {
		kept[i] = true
	}
	for i, r := range rs {
		if !kept[int32(i)] && r != ' ' {
			t.Fatalf("joined form dropped %q", r)
		}
	}
	if j.Len() > 0 {
		a, b := j.NormSpan(0, j.Len())
		if a < 0 || b > x.Len() || a > b {
			t.Fatalf("NormSpan %d,%d", a, b)
		}
		ra, rb := j.RawSpan(0, j.Len())
		if ra < 0 || rb > x.RawLen() || ra > rb {
			t.Fatalf("joined RawSpan %d,%d", ra, rb)
		}
	}
}

// pieces are the building blocks of the random property test: every rule's
// trigger, its near misses, and plain text.
var pieces = []string{
	"a", "b", "Z", "é", "e\u0301", "\u0301", "\u0323", "1", "2", "0", ".", ",", "-", "\u2010", "\u2013", "\u2014",
	"\u2212", " ", "  ", "\t", "\n", "\r\n", "\r", "\u00a0", "\u3000", "\u2028", "\u00ad", "\u200b", "\u200d", "\ufeff",
	"\u201c", "\u201d", "\u2018", "\u2019", "\u00ab", "\u2026", "\ufb01", "\ufb03", "\ufb05", "\u00b2", "\uff21", "\u1100", "\u1161",
	"report.pdf", " Page ", "Page", "7", "\xff", "\xe2\x82", "ac", "tual", "COVID", "word ", "\u2126", "\u0f73", "\u0344",
	"'", "`", "\u00a8", "\u00b4", "\u00b8", "\u02c6", "\u0131", "\u0308", "\u017f", "\u00b5", "\u691c", "\u3001", "\u2016", "\ufe35",
}

func randomText(r *rand.Rand, n int) string {
	var sb strings.Builder
	for range n {
		sb.WriteString(pieces[r.IntN(len(pieces))])
	}
	return sb.String()
}

// TestProperties runs the invariants over many random texts built from the
// rules' triggers, under the full profile and under every limit.
func TestProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 1))
	profiles := []*Profile{quote, QuoteV2(Options{FooterNames: []string{"report.pdf"}, NoFooterRepair: true})}
	for l := Exact; l < Ligature; l++ {
		profiles = append(profiles, quote.Limit(l))
	}
	iters := 4000
	if testing.Short() {
		iters = 400
	}
	for it := range iters {
		raw := randomText(r, 1+r.IntN(24))
		for _, p := range profiles {
			x := p.Normalize(raw)
			checkInvariants(t, p, raw, x)
			if t.Failed() {
				t.Fatalf("iteration %d, profile %s, raw %q", it, p.Name(), raw)
			}
		}
		// NFC alone equals the reference implementation.
		if got, want := quote.Limit(Canonical).Normalize(raw).String(), norm.NFC.String(replaceInvalid(raw)); got != want {
			t.Fatalf("NFC(%q) = %q, want %q", raw, got, want)
		}
	}
}

// TestRawSpanCoversRemoved checks that characters removed inside a range are
// inside its raw span and those outside are not.
func TestRawSpanCoversRemoved(t *testing.T) {
	raw := "  x ac\u00ad-\ntual\u200b, y  "
	x := quote.Normalize(raw)
	if x.String() != "x actual, y" {
		t.Fatalf("got %q", x.String())
	}
	// "actual" is normalized [2,8).
	a, b := x.RawSpan(2, 8)
	if got := x.RawSlice(a, b); got != "ac\u00ad-\ntual" {
		t.Fatalf("RawSpan(actual) covers %q", got)
	}
	// "actual," covers the ZWSP removed between l and ",".
	a, b = x.RawSpan(2, 9)
	if got := x.RawSlice(a, b); got != "ac\u00ad-\ntual\u200b," {
		t.Fatalf("RawSpan(actual,) covers %q", got)
	}
	// The whole text excludes the trimmed edges.
	a, b = x.RawSpan(0, x.Len())
	if a != 2 || b != x.RawLen()-2 {
		t.Fatalf("whole span %d,%d", a, b)
	}
	// A ligature half maps to the whole ligature.
	y := quote.Normalize("e\ufb03cient")
	a, b = y.RawSpan(2, 3) // the second f of ffi
	if y.RawSlice(a, b) != "\ufb03" {
		t.Fatalf("ligature half maps to %q", y.RawSlice(a, b))
	}
}

// TestRawSpanBeyond64KiB: a raw text of 64 KiB or more keeps its maps in
// 32 bits (shorter pages in 16, quotes the builder's); all give the same
// spans.
func TestRawSpanBeyond64KiB(t *testing.T) {
	unit := "  x ac\u00ad-\ntual\u200b, y  "
	for _, n := range []int{1, 100, 4000} { // 18, 1,800 and 72,000 raw bytes
		raw := strings.Repeat(unit, n)
		x := quote.Normalize(raw)
		checkInvariants(t, quote, raw, x)
		// The last "actual," covers the soft hyphen, line-end hyphen and
		// zero-width space removed inside it.
		end := x.Len() - len(" y")
		a, b := x.RawSpan(end-len("actual,"), end)
		assert.Equal(t, "ac\u00ad-\ntual\u200b,", x.RawSlice(a, b))
	}
}

func TestDecisionInsertedSpaceSpan(t *testing.T) {
	x := quote.Normalize("end.report.pdf Page 3")
	if x.String() != "end. report.pdf Page 3" {
		t.Fatalf("got %q", x.String())
	}
	if a, b := x.RawSpan(4, 5); a != 4 || b != 4 {
		t.Fatalf("inserted space maps to [%d,%d), want empty at 4", a, b)
	}
	if a, b := x.RawSpan(3, 6); x.RawSlice(a, b) != ".r" {
		t.Fatalf("span over the inserted space covers %q", x.RawSlice(a, b))
	}
}

func TestOffsetsNonASCII(t *testing.T) {
	// Long enough to cross several checkpoints, with multi-byte code points
	// on both sides.
	raw := strings.Repeat("ﬁé“x”\u00a0ab ", 100)
	x := quote.Normalize(raw)
	checkInvariants(t, quote, raw, x)
	for i := 0; i <= x.Len(); i += 7 {
		b := x.ByteOffset(i)
		if utf8.RuneCountInString(x.String()[:b]) != i {
			t.Fatalf("ByteOffset(%d) = %d", i, b)
		}
	}
	for rc := 0; rc <= x.RawLen(); rc += 5 {
		if got := x.RawSlice(0, rc); utf8.RuneCountInString(got) != rc {
			t.Fatalf("RawSlice(0,%d) has %d code points", rc, utf8.RuneCountInString(got))
		}
	}
}

func TestRangePanics(t *testing.T) {
	x := quote.Normalize("abc")
	for name, f := range map[string]func(){
		"RawSpan-neg":   func() { x.RawSpan(-1, 1) },
		"RawSpan-rev":   func() { x.RawSpan(2, 1) },
		"RawSpan-long":  func() { x.RawSpan(0, 4) },
		"Level-long":    func() { x.Level(0, 4) },
		"Byte-long":     func() { x.ByteOffset(4) },
		"CodePoint-neg": func() { x.CodePoint(-1) },
		"RawSlice-long": func() { x.RawSlice(0, 4) },
		"Align-long":    func() { Align(x, 4, x, 0, 1) },
		"Joined-long":   func() { x.Joined().NormSpan(0, 4) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			f()
		}()
	}
}

// TestConcurrentUse: a Text is shared by the locator's workers; the lazily
// built checkpoints must be safe (run with -race).
func TestConcurrentUse(t *testing.T) {
	x := quote.Normalize(strings.Repeat("ﬁé “x” ", 200))
	done := make(chan bool)
	for g := range 4 {
		go func() {
			for i := g; i < x.Len(); i += 4 {
				x.ByteOffset(i)
				x.RawSpan(i, i+1)
			}
			done <- true
		}()
	}
	for range 4 {
		<-done
	}
}

// TestRawBreakAt: RawBreakAt is the space test spelled through RawSpan and
// RawSlice (the raw text from the code point's start to the next one's),
// on texts whose spaces stand for line breaks, soft hyphens, joined
// hyphens, runs of white space and none.
func TestRawBreakAt(t *testing.T) {
	const breaks = "\n\r\f\v\u0085\u2028\u2029"
	p := QuoteV2(Options{FooterNames: []string{"report.pdf"}})
	seen := 0
	for _, raw := range []string{
		"one two\nthree  \r\n four\u00adfive",
		"a line-\nend hyphen and a dash \u2014\nthen",
		"no break at all",
		"ends with a break\n",
		"\nstarts with one, \u2028 and a line separator",
		"ﬁnal ligature\fform feed",
	} {
		tx := p.Normalize(raw)
		for i := range tx.Len() {
			want := false
			if tx.Slice(i, i+1) == " " {
				a, _ := tx.RawSpan(i, i+1)
				b := tx.RawLen()
				if i+1 < tx.Len() {
					b, _ = tx.RawSpan(i+1, i+2)
				}
				want = strings.ContainsAny(tx.RawSlice(a, b), breaks)
			}
			if want {
				seen++
			}
			if got := tx.RawBreakAt(i, breaks); got != want {
				t.Errorf("%q: code point %d (%q): RawBreakAt %v, want %v", raw, i, tx.Slice(i, i+1), got, want)
			}
		}
		if tx.RawBreakAt(-1, breaks) || tx.RawBreakAt(tx.Len(), breaks) {
			t.Errorf("%q: a position outside the text is a break", raw)
		}
	}
	if seen < 5 {
		t.Errorf("only %d spaces stand for line breaks: the texts test too little", seen)
	}
}
