package textnorm

import (
	"bytes"
	"math"
	"slices"
	"sort"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Options configures QuoteV2.
type Options struct {
	// FooterNames are the corpus documents' file names ("report.pdf"). The
	// footer repair separates "<name> Page <N>" from text glued to it. The
	// same names must be given when normalizing page texts and quotes.
	FooterNames []string
	// NoFooterRepair switches the footer repair off; Name gains "+nofooter".
	NoFooterRepair bool
}

// Profile is an immutable, versioned rule set; build one with QuoteV2.
// Normalize is safe for concurrent use.
type Profile struct {
	name   string
	lim    Level
	footer bool
	opts   Options
	names  [][]byte // normalized footer names, longest first
}

// QuoteV2 returns the quote-matching profile "quote/v2" described in the
// package documentation, with every rule on.
func QuoteV2(opts Options) *Profile {
	return newProfile(opts, Ligature)
}

func newProfile(opts Options, lim Level) *Profile {
	opts.FooterNames = slices.Clone(opts.FooterNames) // the caller may reuse its slice
	p := &Profile{lim: lim, opts: opts, footer: !opts.NoFooterRepair && lim >= Whitespace}
	p.name = ProfileQuoteV2
	if opts.NoFooterRepair {
		p.name += "+nofooter"
	}
	if lim < Ligature {
		p.name += "@" + lim.String()
	}
	if p.footer {
		// Names are matched against normalized text, so they are normalized
		// by the same rules (without the footer rule itself).
		plain := &Profile{lim: lim}
		seen := map[string]bool{}
		for _, n := range opts.FooterNames {
			s := plain.Normalize(n).String()
			if s == "" || seen[s] {
				continue
			}
			seen[s] = true
			p.names = append(p.names, []byte(s))
		}
		sort.Slice(p.names, func(i, j int) bool {
			a, b := p.names[i], p.names[j]
			if len(a) != len(b) {
				return len(a) > len(b)
			}
			return bytes.Compare(a, b) < 0
		})
	}
	return p
}

// Name is the profile's identity: "quote/v2", with "+nofooter" when the
// footer repair is off and "@<level>" when limited. The footer names are
// corpus data, not part of the name.
func (p *Profile) Name() string { return p.name }

// MaxLevel is the most relaxed level whose rules this profile applies.
func (p *Profile) MaxLevel() Level { return p.lim }

// Limit returns a profile applying only the rules charged to levels up to l
// (l is clamped to Ligature). Limit(Exact) only replaces invalid UTF-8.
func (p *Profile) Limit(l Level) *Profile {
	if l > Ligature {
		l = Ligature
	}
	return newProfile(p.opts, l)
}

// Normalize applies the profile to raw, a page text or a quote alike.
func (p *Profile) Normalize(raw string) *Text {
	if len(raw) > math.MaxInt32 {
		panic("textnorm: raw text of 2^31 bytes or more")
	}
	b := builder{p: p, lim: p.lim}
	// One allocation for the text and its levels, one for both maps: a
	// quote is normalized once per lookup, and its allocations are a good
	// part of the cost. Each slice is capped, so outgrowing it copies.
	n := len(raw) + len(raw)/16
	buf := make([]byte, n+len(raw))
	b.out, b.lev = buf[:0:n], buf[n:n:n+len(raw)]
	m := make([]int32, 2*len(raw))
	b.rs, b.re = m[:0:len(raw)], m[len(raw):len(raw):2*len(raw)]
	b.scan(raw)
	b.finishWhitespace()
	if b.accents {
		b.composeAccents()
	}
	if b.cjkSpace {
		b.joinCJK()
	}
	if b.lim >= Canonical && b.modified && b.nonASCII && !norm.NFC.IsNormal(b.out) {
		b.renormalize()
	}
	if p.footer && len(p.names) > 0 {
		b.repairFooters()
	}
	return newText(raw, b.out, b.rs, b.re, b.lev)
}

// builder carries the state of one Normalize call.
type builder struct {
	p   *Profile
	lim Level

	out    []byte
	rs, re []int32 // raw byte span of each normalized code point
	lev    []uint8

	gap uint8 // gap byte for the next emitted code point

	// The pending whitespace run, emitted as one space (or dropped) when the
	// next code point arrives.
	inWS        bool
	wsS, wsE    int32 // raw span of the run's first code point
	wsOwn       Level
	wsN         int
	wsBreaks    int
	wsCR        bool
	gapBeforeWS uint8
	shyBeforeWS bool

	// Facts about the last emitted code point.
	lastLen    int  // its UTF-8 length
	lastLetter bool // letter or mark
	lastHyph   bool // hyphen (U+002D/U+2010) after a letter or mark
	lastDash   bool // dash after a non-space code point
	shyAfter   bool // a soft hyphen was removed after it (and after a letter)
	lastCJK    bool // a character of a script written without word spaces (isCJK)
	lastQuote  rune // ' or ` when it is a single quote mark (as folded), else 0

	accents  bool // a spacing accent or a dotless i or j was emitted: composeAccents runs
	cjkSpace bool // a space followed a CJK character: joinCJK runs

	seg []byte // scratch for NFC segments

	modified bool // some rule other than NFC changed something
	nonASCII bool // out holds a non-ASCII code point
}

// scan feeds raw to push as NFC code points with their raw byte spans.
func (b *builder) scan(raw string) {
	if b.lim < Canonical || utf8.ValidString(raw) {
		b.scanValid(raw, 0)
		return
	}
	// Invalid bytes are hard boundaries: each becomes U+FFFD.
	start := 0
	for i := 0; i < len(raw); {
		r, w := utf8.DecodeRuneInString(raw[i:])
		if r == utf8.RuneError && w == 1 {
			b.scanValid(raw[start:i], start)
			b.push(utf8.RuneError, int32(i), int32(i+1), Canonical)
			i++
			start = i
			continue
		}
		i += w
	}
	b.scanValid(raw[start:], start)
}

// scanValid handles a stretch of raw (starting at byte base) that is valid
// UTF-8, or any text when NFC is off.
func (b *builder) scanValid(s string, base int) {
	if b.lim < Canonical {
		for i := 0; i < len(s); {
			r, w := utf8.DecodeRuneInString(s[i:])
			lv := Exact
			if r == utf8.RuneError && w == 1 {
				lv = Canonical // an invalid byte, shown as U+FFFD
			}
			b.push(r, int32(base+i), int32(base+i+w), lv)
			i += w
		}
		return
	}
	var it *norm.Iter // made on first use: it is large, and most text needs none
	pos := 0
	for pos < len(s) {
		// The normalized prefix is emitted code point by code point.
		n := pos + norm.NFC.QuickSpanString(s[pos:])
		for i := pos; i < n; {
			c := s[i]
			if c < utf8.RuneSelf {
				if asciiClass[c] == clPlain && b.quiet() {
					// Fast path: a run of ASCII no rule touches, single
					// spaces between words included.
					j := i + 1
					for j < n {
						if c := s[j]; c < utf8.RuneSelf && asciiClass[c] == clPlain {
							j++
						} else if c == ' ' && j+1 < n && s[j+1] < utf8.RuneSelf && asciiClass[s[j+1]] == clPlain {
							j += 2
						} else {
							break
						}
					}
					b.appendPlain(s[i:j], base+i)
					i = j
					continue
				}
				b.push(rune(c), int32(base+i), int32(base+i+1), Exact)
				i++
				continue
			}
			r, w := utf8.DecodeRuneInString(s[i:])
			b.push(r, int32(base+i), int32(base+i+w), Exact)
			i += w
		}
		pos = n
		if pos >= len(s) {
			break
		}
		// One segment that may change under NFC: all its output code points
		// map to the whole raw segment.
		if it == nil {
			it = new(norm.Iter)
		}
		it.InitString(norm.NFC, s[pos:])
		var end int
		b.seg, end = nextSegment(it, b.seg)
		end += pos
		seg := b.seg
		if string(seg) == s[pos:end] {
			for i := pos; i < end; {
				r, w := utf8.DecodeRuneInString(s[i:])
				b.push(r, int32(base+i), int32(base+i+w), Exact)
				i += w
			}
		} else {
			b.pushChanged(s[pos:end], seg, base+pos)
		}
		pos = end
	}
}

// nextSegment returns the NFC form of the first segment of the iterator's
// input and that segment's length in bytes. Iter may hand out the expansion
// of one code point over several calls before its position moves (U+0F4D
// gives U+0F4C, then U+0FB7), so output is gathered until it does.
func nextSegment(it *norm.Iter, buf []byte) ([]byte, int) {
	buf = buf[:0]
	for {
		buf = append(buf, it.Next()...)
		if it.Pos() > 0 || it.Done() {
			return buf, it.Pos()
		}
	}
}

// pushChanged emits the NFC form out of the raw segment in (at byte base).
// Code points that NFC left in place at either end (a starter before
// decomposed marks, a trailing mark) keep their own raw spans; the changed
// middle maps as a whole to the raw middle.
func (b *builder) pushChanged(in string, out []byte, base int) {
	pre := 0 // common prefix in bytes, whole runes
	for pre < len(in) && pre < len(out) {
		r1, w1 := utf8.DecodeRuneInString(in[pre:])
		r2, _ := utf8.DecodeRune(out[pre:])
		if r1 != r2 {
			break
		}
		pre += w1
	}
	suf := 0 // common suffix in bytes, whole runes, leaving both middles non-empty
	for suf < len(in)-pre-1 && suf < len(out)-pre-1 {
		r1, w1 := utf8.DecodeLastRuneInString(in[:len(in)-suf])
		r2, _ := utf8.DecodeLastRune(out[:len(out)-suf])
		if r1 != r2 || len(in)-suf-w1 <= pre || len(out)-suf-w1 <= pre {
			break
		}
		suf += w1
	}
	for i := 0; i < pre; {
		r, w := utf8.DecodeRuneInString(in[i:])
		b.push(r, int32(base+i), int32(base+i+w), Exact)
		i += w
	}
	ms, me := int32(base+pre), int32(base+len(in)-suf)
	for m := out[pre : len(out)-suf]; len(m) > 0; {
		r, w := utf8.DecodeRune(m)
		b.push(r, ms, me, Canonical)
		m = m[w:]
	}
	for i := len(in) - suf; i < len(in); {
		r, w := utf8.DecodeRuneInString(in[i:])
		b.push(r, int32(base+i), int32(base+i+w), Exact)
		i += w
	}
}

// Character classes for the hot path.
const (
	clPlain = iota
	clSpace
	clLineBreak
	clHyphen // U+002D
	clQuote  // ' and `: doubled, they are a double quote
)

var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for _, c := range "\t\v\f \n\r" {
		t[c] = clSpace
	}
	t['\n'], t['\v'], t['\f'], t['\r'] = clLineBreak, clLineBreak, clLineBreak, clLineBreak
	t['-'] = clHyphen
	t['\''], t['`'] = clQuote, clQuote
	return t
}()

var asciiLetter = func() (t [utf8.RuneSelf]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	return t
}()

func isLetter(r rune) bool {
	if uint32(r) < utf8.RuneSelf {
		return asciiLetter[r]
	}
	return unicode.IsLetter(r)
}

func isLetterOrMark(r rune) bool {
	if uint32(r) < utf8.RuneSelf {
		return asciiLetter[r]
	}
	return unicode.IsLetter(r) || unicode.IsMark(r)
}

// isSpace is Unicode White_Space.
func isSpace(r rune) bool {
	if uint32(r) < utf8.RuneSelf {
		return asciiClass[r] == clSpace || asciiClass[r] == clLineBreak
	}
	switch r {
	case 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

func isLineBreak(r rune) bool {
	if uint32(r) < utf8.RuneSelf {
		return asciiClass[r] == clLineBreak
	}
	return r == 0x85 || r == 0x2028 || r == 0x2029
}

// joinCJK removes every space between two CJK characters (isCJK): white
// space inside text written without word spaces (Chinese, Japanese) is
// layout, not a word space: a line break, or a gap one extractor reads as
// a space and another does not. The space's raw text becomes a gap before
// the next code point, at Whitespace. It runs after the accent rule, on
// the code points as they end up, so that it is idempotent.
func (b *builder) joinCJK() {
	if b.lim < Whitespace {
		return
	}
	out := make([]byte, 0, len(b.out))
	rs := make([]int32, 0, len(b.rs))
	re := make([]int32, 0, len(b.re))
	lev := make([]uint8, 0, len(b.lev))
	prev := rune(-1)
	for i, k := 0, 0; i < len(b.out); k++ {
		r, w := utf8.DecodeRune(b.out[i:])
		if r == ' ' && isCJK(prev) && i+1 < len(b.out) {
			if next, _ := utf8.DecodeRune(b.out[i+1:]); isCJK(next) {
				// The next code point absorbs the space and what was
				// removed around it.
				g := mergeGap(b.lev[k]&^ownMask, b.lev[k+1]&^ownMask)
				g = withGap(g, max(ownOf(b.lev[k]), Whitespace))
				b.lev[k+1] = b.lev[k+1]&ownMask | g
				i += w
				continue
			}
		}
		out = append(out, b.out[i:i+w]...)
		rs, re, lev = append(rs, b.rs[k]), append(re, b.re[k]), append(lev, b.lev[k])
		prev = r
		i += w
	}
	if len(lev) < len(b.lev) {
		b.out, b.rs, b.re, b.lev = out, rs, re, lev
		b.modified = true
	}
}

// isCJK reports the characters of Chinese and Japanese text, written
// without spaces between words: white space between two of them is no
// space (quote/v2). Korean (Hangul), written with spaces, is not among
// them, nor are digits (fullwidth digits stay apart, as every digit does).
func isCJK(r rune) bool {
	switch {
	case r < 0x2E80, r >= 0xFF10 && r <= 0xFF19:
		return false
	case r >= 0x3001 && r <= 0x303F, // CJK symbols and punctuation (not U+3000, a space)
		r >= 0x3040 && r <= 0x30FF, // Hiragana, Katakana
		r >= 0x31F0 && r <= 0x31FF, // Katakana phonetic extensions
		r >= 0xFF01 && r <= 0xFF60, // fullwidth forms
		r >= 0xFF61 && r <= 0xFF9F: // halfwidth CJK punctuation and Katakana
		return true
	}
	return unicode.Is(unicode.Han, r)
}

// NoSpaceScript reports the letters of scripts written without spaces
// between words (Han, kana, Thai, Lao, Khmer, Myanmar, Tibetan): a word
// boundary there is no space.
func NoSpaceScript(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar, unicode.Tibetan)
}

// isDash reports the dashes after which a line break is not a word space.
func isDash(r rune) bool { return r == '-' || (r >= 0x2010 && r <= 0x2015) }

// typoFold maps typographic punctuation to ASCII; 0 means not folded.
func typoFold(r rune) byte {
	switch r {
	case 0x2018, 0x2019, 0x201A, 0x201B, 0x2032, 0x2039, 0x203A:
		return '\''
	case 0x201C, 0x201D, 0x201E, 0x201F, 0x2033, 0xAB, 0xBB:
		return '"'
	case 0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2015, 0x2212:
		return '-'
	}
	return 0
}

// typoRunes maps the typographic variants that are not ASCII-folded to
// the one form kept (quote/v2): brackets and bars that extractors read from
// the same glyph as different characters (pdf.js prints 〈 〉 ‖ where
// poppler, MuPDF and citecheck print ⟨ ⟩ ∥ for TeX's angle brackets and
// double bar) and the vertical presentation forms of CJK punctuation, which
// pdf.js prints for vertically set text where the others print the
// ordinary forms.
var typoRunes = map[rune]rune{
	0x3008: 0x27E8, 0x3009: 0x27E9, // 〈 〉 (and U+2329/U+232A, NFC to them) -> ⟨ ⟩
	0x2016: 0x2225, // ‖ -> ∥
	0xFE10: 0xFF0C, 0xFE11: 0x3001, 0xFE12: 0x3002, 0xFE13: 0xFF1A, 0xFE14: 0xFF1B,
	0xFE15: 0xFF01, 0xFE16: 0xFF1F, 0xFE17: 0x3016, 0xFE18: 0x3017,
	0xFE35: 0xFF08, 0xFE36: 0xFF09, 0xFE37: 0xFF5B, 0xFE38: 0xFF5D,
	0xFE39: 0x3014, 0xFE3A: 0x3015, 0xFE3B: 0x3010, 0xFE3C: 0x3011,
	0xFE3D: 0x300A, 0xFE3E: 0x300B, 0xFE3F: 0x3008, 0xFE40: 0x3009,
	0xFE41: 0x300C, 0xFE42: 0x300D, 0xFE43: 0x300E, 0xFE44: 0x300F,
	0xFE47: 0xFF3B, 0xFE48: 0xFF3D,
}

// ligatures maps the whitelisted compatibility characters to what they
// are read as: the ligatures, the long s (pdf.js copies ﬅ as "ſt") and the
// micro sign (pdf.js prints µ as the Greek μ, its NFKC form).
var ligatures = map[rune]string{
	0xFB00: "ff", 0xFB01: "fi", 0xFB02: "fl", 0xFB03: "ffi", 0xFB04: "ffl",
	0xFB05: "st", 0xFB06: "st", 0x017F: "s", 0x00B5: "\u03bc",
}

// push applies rules 2-6 to one NFC code point with raw byte span [s, e).
func (b *builder) push(r rune, s, e int32, lv Level) {
	lim := b.lim
	if r < utf8.RuneSelf {
		switch asciiClass[r] {
		case clPlain, clHyphen:
			b.emit(r, r, s, e, lv)
			return
		case clQuote:
			if !b.doubleQuote(r, e, lv) {
				b.emit(r, r, s, e, lv)
			}
			return
		}
		if lim < Whitespace {
			b.emit(r, r, s, e, lv)
			return
		}
		b.space(r, s, e, lv)
		return
	}
	if lim >= Whitespace && isSpace(r) {
		b.space(r, s, e, lv)
		return
	}
	switch r {
	case 0xAD:
		if lim >= Hyphenation {
			b.modified = true
			b.gap = withGap(b.gap, Hyphenation)
			if !b.inWS && b.lastLetter && len(b.lev) > 0 {
				b.shyAfter = true
			}
			return
		}
	case 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF:
		if lim >= Whitespace {
			b.modified = true
			b.gap = withGap(b.gap, Whitespace)
			return
		}
	case 0x2026:
		if lim >= Typography {
			b.modified = true
			lv = max(lv, Typography)
			b.emit(r, '.', s, e, lv)
			b.emit(r, '.', s, e, lv)
			b.emit(r, '.', s, e, lv)
			return
		}
	}
	if lim >= Typography {
		c := typoFold(r)
		if c == '\'' && b.doubleQuote('\'', e, lv) {
			return
		}
		if c != 0 {
			b.modified = true
			b.emit(r, rune(c), s, e, max(lv, Typography))
			return
		}
		if c, ok := typoRunes[r]; ok {
			b.modified = true
			b.emit(r, c, s, e, max(lv, Typography))
			return
		}
	}
	if lim >= Ligature {
		if l, ok := ligatures[r]; ok {
			b.modified = true
			for _, c := range l {
				b.emit(r, c, s, e, max(lv, Ligature))
			}
			return
		}
	}
	b.emit(r, r, s, e, lv)
}

// doubleQuote folds a single quote mark (r, as folded: ' or `) that
// follows another one of the same fold with nothing between them (‘‘, ’’,
// two apostrophes, two grave accents) into one double quote, as
// typesetters and TeX write a double quote with two single ones. It reports whether r was taken.
func (b *builder) doubleQuote(r rune, e int32, lv Level) bool {
	if b.lim < Typography || b.lastQuote != r || b.inWS {
		return false
	}
	// Whatever was removed between the two (a zero-width character) is
	// inside the double quote's raw span.
	n := len(b.lev) - 1
	b.out[len(b.out)-1] = '"'
	b.re[n] = e
	b.lev[n] = b.lev[n]&^ownMask | uint8(max(ownOf(b.lev[n]), gapOf(b.gap), lv, Typography))
	b.gap, b.shyAfter = 0, false
	b.lastQuote = 0
	b.modified = true
	return true
}

// space records one whitespace code point of a run.
func (b *builder) space(r rune, s, e int32, lv Level) {
	if !b.inWS {
		b.inWS = true
		b.wsS, b.wsE = s, e
		b.wsOwn = lv
		if r != ' ' {
			b.wsOwn = max(lv, Whitespace)
		}
		b.wsN, b.wsBreaks, b.wsCR = 0, 0, false
		b.gapBeforeWS = b.gap
		b.gap = 0
		b.shyBeforeWS = b.shyAfter
	}
	b.wsN++
	if isLineBreak(r) && !(r == '\n' && b.wsCR) {
		b.wsBreaks++
	}
	b.wsCR = r == '\r'
}

// finishWhitespace drops trailing whitespace (trim).
func (b *builder) finishWhitespace() {
	if b.inWS {
		b.inWS = false
		b.modified = true
	}
}

// emit appends normalized code point c, produced from raw code point orig
// (before folding), resolving a pending whitespace run first.
func (b *builder) emit(orig, c rune, s, e int32, own Level) {
	if b.inWS {
		b.inWS = false
		b.modified = true
		switch {
		case len(b.lev) == 0:
			// Leading whitespace is trimmed; nothing before it to gap.
			b.gap = 0
		case b.wsBreaks == 1 && b.lim >= Hyphenation && (b.lastHyph || b.shyBeforeWS) && isLetter(c):
			// Line-end hyphenation between letters: drop hyphen and break.
			g := mergeGap(b.gapBeforeWS, b.gap)
			if b.lastHyph {
				n := len(b.lev) - 1
				g = mergeGap(g, b.lev[n]&^ownMask)
				b.out = b.out[:len(b.out)-b.lastLen]
				b.rs, b.re, b.lev = b.rs[:n], b.re[:n], b.lev[:n]
			}
			b.gap = withGap(g, Hyphenation) | flagHyphen
		case b.wsBreaks == 1 && b.lim >= Hyphenation && b.lastDash:
			// A dash ending a line keeps the dash and loses the break.
			b.gap = withGap(mergeGap(b.gapBeforeWS, b.gap), Hyphenation) | flagSpace
		default:
			b.appendCP(' ', b.wsS, b.wsE, uint8(b.wsOwn)|b.gapBeforeWS)
			b.cjkSpace = b.cjkSpace || b.lastCJK
			if b.wsN > 1 {
				b.gap = withGap(b.gap, Whitespace)
			}
			b.lastLen, b.lastLetter, b.lastHyph, b.lastDash = 1, false, false, false
		}
	} else if b.shyAfter && isLetter(c) {
		// A soft hyphen inside a word is an optional hyphen.
		b.gap |= flagHyphen
	}
	prevLetter := b.lastLetter
	prevNonSpace := len(b.lev) > 0 && b.lastLen > 0 && !(b.lastLen == 1 && b.out[len(b.out)-1] == ' ')
	b.appendCP(c, s, e, uint8(own)|b.gap)
	b.gap = 0
	b.shyAfter = false
	b.lastLetter = isLetterOrMark(c)
	b.lastHyph = (orig == '-' || orig == 0x2010) && prevLetter && e-s == int32(utf8.RuneLen(orig))
	b.lastDash = isDash(orig) && prevNonSpace
	b.lastCJK = c >= 0x2E80 && isCJK(c)
	b.lastQuote = 0
	if c == '\'' || c == '`' {
		b.lastQuote = c
	}
	if c >= 0x60 && b.lim >= Typography && (spacingAccent(c) != 0 || c == 0x131 || c == 0x237) {
		b.accents = true
	}
}

// quiet reports that nothing is pending, so that plain ASCII can be copied.
func (b *builder) quiet() bool {
	return !b.inWS && b.gap == 0 && !b.shyAfter && len(b.lev) > 0
}

// appendPlain copies plain ASCII (no hyphens; single spaces between plain
// code points only) at raw byte base.
func (b *builder) appendPlain(s string, base int) {
	k, m := len(b.lev), len(s)
	b.out = append(b.out, s...)
	b.rs = slices.Grow(b.rs, m)[:k+m]
	b.re = slices.Grow(b.re, m)[:k+m]
	b.lev = slices.Grow(b.lev, m)[:k+m]
	rs, re, lev := b.rs[k:], b.re[k:], b.lev[k:]
	for i := range m {
		rs[i] = int32(base + i)
		re[i] = int32(base + i + 1)
		lev[i] = 0
	}
	b.lastLen, b.lastHyph, b.lastDash, b.lastCJK, b.lastQuote = 1, false, false, false, 0
	b.lastLetter = asciiLetter[s[m-1]]
}

func (b *builder) appendCP(c rune, s, e int32, lv uint8) {
	if c < utf8.RuneSelf {
		b.out = append(b.out, byte(c))
		b.lastLen = 1
	} else {
		n := len(b.out)
		b.out = utf8.AppendRune(b.out, c)
		b.lastLen = len(b.out) - n
		b.nonASCII = true
	}
	b.rs = append(b.rs, s)
	b.re = append(b.re, e)
	b.lev = append(b.lev, lv)
}

// renormalize applies NFC again after rules 2-6 left a combining mark next
// to a new base (for example "e", ZWSP, U+0301). A changed segment maps to
// the union of its code points' raw spans.
func (b *builder) renormalize() {
	src, rs, re, lev := b.out, b.rs, b.re, b.lev
	out := make([]byte, 0, len(src)+8)
	nrs := make([]int32, 0, len(rs))
	nre := make([]int32, 0, len(re))
	nlev := make([]uint8, 0, len(lev))
	var it norm.Iter
	pos, k := 0, 0
	for pos < len(src) {
		n := pos + norm.NFC.QuickSpan(src[pos:])
		cnt := utf8.RuneCount(src[pos:n])
		out = append(out, src[pos:n]...)
		nrs, nre, nlev = append(nrs, rs[k:k+cnt]...), append(nre, re[k:k+cnt]...), append(nlev, lev[k:k+cnt]...)
		k += cnt
		pos = n
		if pos >= len(src) {
			break
		}
		it.Init(norm.NFC, src[pos:])
		var end int
		b.seg, end = nextSegment(&it, b.seg)
		end += pos
		seg := b.seg
		cnt = utf8.RuneCount(src[pos:end])
		if bytes.Equal(seg, src[pos:end]) {
			out = append(out, seg...)
			nrs, nre, nlev = append(nrs, rs[k:k+cnt]...), append(nre, re[k:k+cnt]...), append(nlev, lev[k:k+cnt]...)
		} else {
			own := Canonical
			flags := lev[k] &^ ownMask
			for i := k; i < k+cnt; i++ {
				own = max(own, ownOf(lev[i]))
				if i > k {
					own = max(own, gapOf(lev[i]))
				}
			}
			first := true
			for len(seg) > 0 {
				_, w := utf8.DecodeRune(seg)
				out = append(out, seg[:w]...)
				nrs = append(nrs, rs[k])
				nre = append(nre, re[k+cnt-1])
				l := uint8(own)
				if first {
					l |= flags
					first = false
				}
				nlev = append(nlev, l)
				seg = seg[w:]
			}
		}
		k += cnt
		pos = end
	}
	b.out, b.rs, b.re, b.lev = out, nrs, nre, nlev
}

// repairFooters inserts a space between a "<name> Page <N>" footer and a
// non-space code point glued to it, on either side.
func (b *builder) repairFooters() {
	const page = " Page "
	out := b.out
	var ins []int // code point indexes before which a space goes
	// cpAt converts byte offsets (visited in increasing order) to code
	// point indexes without rescanning.
	cb, ck := 0, 0
	cpAt := func(off int) int {
		if !b.nonASCII {
			return off
		}
		if off < cb {
			cb, ck = 0, 0
		}
		ck += utf8.RuneCount(out[cb:off])
		cb = off
		return ck
	}
	for from := 0; ; {
		i := bytes.Index(out[from:], []byte(page))
		if i < 0 {
			break
		}
		i += from
		from = i + 1
		j := i + len(page)
		for j < len(out) && out[j] >= '0' && out[j] <= '9' {
			j++
		}
		if j == i+len(page) {
			continue
		}
		start := -1
		for _, n := range b.p.names {
			if bytes.HasSuffix(out[:i], n) {
				start = i - len(n)
				break
			}
		}
		if start < 0 {
			continue
		}
		if start > 0 && out[start-1] != ' ' {
			ins = append(ins, cpAt(start))
		}
		if j < len(out) && out[j] != ' ' {
			ins = append(ins, cpAt(j))
		}
	}
	if len(ins) == 0 {
		return
	}
	sort.Ints(ins)
	n := len(b.lev)
	out2 := make([]byte, 0, len(out)+len(ins))
	rs := make([]int32, 0, n+len(ins))
	re := make([]int32, 0, n+len(ins))
	lev := make([]uint8, 0, n+len(ins))
	pos, k := 0, 0
	last := -1
	for _, at := range ins {
		if at == last {
			continue
		}
		last = at
		// Copy code points k..at-1.
		end := pos
		for c := k; c < at; c++ {
			_, w := utf8.DecodeRune(out[end:])
			end += w
		}
		out2 = append(out2, out[pos:end]...)
		rs, re, lev = append(rs, b.rs[k:at]...), append(re, b.re[k:at]...), append(lev, b.lev[k:at]...)
		pos, k = end, at
		// The space maps to an empty raw span where it goes, or, when it
		// splits the expansion of one raw code point (a ligature), to that
		// code point, which keeps the map monotonic. It takes over whatever
		// was removed before code point at, so that the gap still sits
		// between the same two raw neighbours.
		out2 = append(out2, ' ')
		e := max(b.rs[at], b.re[at-1])
		rs, re, lev = append(rs, b.rs[at]), append(re, e), append(lev, uint8(Whitespace)|b.lev[at]&^ownMask)
		b.lev[at] &= ownMask
	}
	out2 = append(out2, out[pos:]...)
	rs, re, lev = append(rs, b.rs[k:]...), append(re, b.re[k:]...), append(lev, b.lev[k:]...)
	b.out, b.rs, b.re, b.lev = out2, rs, re, lev
}
