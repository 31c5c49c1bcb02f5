package cmap

import (
	"sync"
	"unicode/utf8"
)

// Code is one character code taken from a shown string.
type Code struct {
	// Value is the code's bytes read as a big-endian number.
	Value uint32
	// Len is the number of bytes the code took from the string, 1 to 4.
	Len int
	// Valid is false when the bytes fall in no codespace range of the CMap
	// that split them (PDF 32000-1:2008 §9.7.6.3: such a code maps to the
	// .notdef character, CID 0).
	Valid bool
}

// key is the lookup key of a code: its length in the high bits, its value in
// the low 32, so codes of different lengths never collide (<41> and <0041>
// are different codes).
func (c Code) key() uint64 { return uint64(c.Len)<<32 | uint64(c.Value) }

func makeKey(n int, v uint32) uint64 { return uint64(n)<<32 | uint64(v) }

// seg maps the codes lo..hi (keys of one length) to values: val for lo,
// val+1 for lo+1 and so on when the segment increments, val for all codes
// otherwise (notdef ranges).
type seg struct {
	lo, hi uint64
	val    uint32
}

// find returns the segment holding key, by binary search over segments
// sorted by lo and not overlapping.
func find(segs []seg, key uint64) (*seg, bool) {
	lo, hi := 0, len(segs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if segs[m].hi < key {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(segs) && segs[lo].lo <= key {
		return &segs[lo], true
	}
	return nil, false
}

// uniKind says whether the code bytes are themselves Unicode (the
// predefined Uni*-UCS2 and Uni*-UTF16 CMaps).
type uniKind uint8

const (
	uniNone   uniKind = iota
	uniUCS2           // 2-byte codes are UTF-16 code units (no surrogates)
	uniUTF16          // 2- or 4-byte codes are UTF-16BE (4 bytes: a surrogate pair)
	uniLegacy         // codes are a national character set's bytes (legacy.go)
)

// CMap is a parsed or predefined CMap. It is immutable and safe for
// concurrent use.
type CMap struct {
	name    string
	useCMap string
	wmode   int
	wmodeOK bool // /WMode was given

	cs codespace

	// bf mappings: text of entry e is text[offs[e]:offs[e+1]].
	uni  []seg
	text string
	offs []uint32

	cid    []seg // incrementing
	notdef []seg // constant

	identity bool           // CID = code for 2-byte codes (Identity-H/V)
	ucs      uniKind        // code bytes are Unicode
	legacy   *legacyCharset // with uniLegacy

	warnings []string
}

// Name returns the /CMapName, or the predefined name; "" if none was given.
func (c *CMap) Name() string { return c.name }

// UseCMap returns the name given to usecmap, or "" if there was none. The
// caller resolves it (with Predefined, or by parsing the referenced stream)
// and combines the two with Merge.
func (c *CMap) UseCMap() string { return c.useCMap }

// WMode returns the writing mode: 0 horizontal, 1 vertical.
func (c *CMap) WMode() int { return c.wmode }

// Warnings returns what Parse skipped or repaired, in input order, at most
// maxWarnings of them (the last one then says how many more there were).
func (c *CMap) Warnings() []string { return c.warnings }

// CodesAreUnicode reports whether the code bytes themselves give the
// Unicode text, as in the predefined Uni*-UCS2-* and Uni*-UTF16-* CMaps
// and, through their character set, the legacy ones (90ms-RKSJ-H, GBK-EUC-H,
// ...): Unicode then answers for every code of the codespace, with no
// mapping table.
func (c *CMap) CodesAreUnicode() bool { return c.ucs != uniNone }

// NumUnicodeMappings returns the number of codes that bfchar and bfrange
// mappings define (after later definitions replaced earlier ones).
func (c *CMap) NumUnicodeMappings() int { return countCodes(c.uni) }

// NumCIDMappings returns the number of codes that cidchar and cidrange
// mappings define, not counting notdef ranges.
func (c *CMap) NumCIDMappings() int { return countCodes(c.cid) }

func countCodes(segs []seg) int {
	n := 0
	for _, s := range segs {
		n += int(s.hi-s.lo) + 1
	}
	return n
}

// Unicode returns the text a code maps to: from the bfchar and bfrange
// mappings, else, for CMaps whose codes are Unicode (CodesAreUnicode), from
// the code itself. It reports false for an unmapped code.
//
// The lookup uses the code's Len and Value and ignores Valid, so a code
// split with one CMap (a font's encoding) can be looked up in another (its
// ToUnicode CMap). The result aliases the CMap's storage; it does not
// allocate, except for a code beyond the BMP in a UTF-16 predefined CMap.
func (c *CMap) Unicode(code Code) (string, bool) {
	if code.Len < 1 || code.Len > 4 {
		return "", false
	}
	k := code.key()
	if s, ok := find(c.uni, k); ok {
		e := s.val + uint32(k-s.lo)
		return c.text[c.offs[e]:c.offs[e+1]], true
	}
	switch c.ucs {
	case uniUCS2:
		if code.Len == 2 {
			return bmpString(rune(code.Value))
		}
	case uniLegacy:
		return legacyUnicode(c.legacy, code)
	case uniUTF16:
		switch code.Len {
		case 2:
			return bmpString(rune(code.Value))
		case 4:
			hi, lo := rune(code.Value>>16), rune(code.Value&0xFFFF)
			if 0xD800 <= hi && hi <= 0xDBFF && 0xDC00 <= lo && lo <= 0xDFFF {
				return string((hi-0xD800)<<10 | (lo - 0xDC00) + 0x10000), true
			}
		}
	}
	return "", false
}

// CID returns the CID a code selects: from cidchar and cidrange mappings,
// else for Identity-H/V the 2-byte code's value, else from notdef ranges
// (the range's CID). It reports false when none of them covers the code;
// the spec then selects CID 0. Like Unicode, CID ignores Code.Valid.
//
// The predefined Unicode-based CMaps have no CID mappings: CID reports false
// for all their codes (see the BUG notes).
func (c *CMap) CID(code Code) (uint32, bool) {
	if cid, ok := c.CIDMapping(code); ok {
		return cid, true
	}
	if code.Len < 1 || code.Len > 4 {
		return 0, false
	}
	if c.identity && code.Len == 2 {
		return code.Value, true
	}
	if s, ok := find(c.notdef, code.key()); ok {
		return s.val, true
	}
	return 0, false
}

// CIDMapping returns the CID that a cidchar or cidrange mapping gives the
// code, and nothing else: not Identity's code value, not a notdef range.
// pdftext reads such mappings in a ToUnicode CMap, which may not hold them
// (PDF 32000-1:2008 §9.10.3) but does in some producers' files.
func (c *CMap) CIDMapping(code Code) (uint32, bool) {
	if code.Len < 1 || code.Len > 4 {
		return 0, false
	}
	k := code.key()
	if s, ok := find(c.cid, k); ok {
		return s.val + uint32(k-s.lo), true
	}
	return 0, false
}

// NextCode returns the first code of s (which must not be empty) by the
// codespace ranges, as PDF 32000-1:2008 §9.7.6.2 describes: the shortest
// code, 1 to 4 bytes, whose bytes fall within a codespace range of its
// length. If no range matches, the code is invalid and takes the length of
// the shortest codespace range whose first byte range holds s[0] (1 if there
// is none), at most len(s). Advance by the returned Len.
func (c *CMap) NextCode(s []byte) Code {
	return c.cs.next(s)
}

// AppendCodes appends the codes of s to dst and returns the extended slice.
// The codes cover s exactly, in order.
func (c *CMap) AppendCodes(dst []Code, s []byte) []Code {
	for len(s) > 0 {
		code := c.cs.next(s)
		dst = append(dst, code)
		s = s[code.Len:]
	}
	return dst
}

// Split splits a shown string into codes (see NextCode). The codes cover s
// exactly; Split allocates only the result.
func (c *CMap) Split(s []byte) []Code {
	if len(s) == 0 {
		return nil
	}
	n := len(s)
	if c.cs.minLen > 1 {
		n = len(s)/int(c.cs.minLen) + 1
	}
	return c.AppendCodes(make([]Code, 0, n), s)
}

// bmp holds every BMP character in UTF-8, in code point order, with U+FFFD
// standing in for the surrogates, so that a BMP code point's string is a
// substring at a computable offset: no allocation per lookup.
var (
	bmpOnce sync.Once
	bmp     string
)

const (
	bmp1 = 0x80               // bytes of U+0000..U+007F
	bmp2 = (0x800 - 0x80) * 2 // bytes of U+0080..U+07FF
)

func bmpString(r rune) (string, bool) {
	if r < 0 || r > 0xFFFF || (0xD800 <= r && r <= 0xDFFF) {
		return "", false
	}
	bmpOnce.Do(func() {
		b := make([]byte, 0, bmp1+bmp2+(0x10000-0x800)*3)
		for r := rune(0); r <= 0xFFFF; r++ {
			if 0xD800 <= r && r <= 0xDFFF {
				b = utf8.AppendRune(b, utf8.RuneError)
			} else {
				b = utf8.AppendRune(b, r)
			}
		}
		bmp = string(b)
	})
	switch {
	case r < 0x80:
		return bmp[r : r+1], true
	case r < 0x800:
		o := bmp1 + (r-0x80)*2
		return bmp[o : o+2], true
	default:
		o := bmp1 + bmp2 + (r-0x800)*3
		return bmp[o : o+3], true
	}
}
