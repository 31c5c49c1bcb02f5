package cmap

// csRange is one codespace range: codes of n bytes whose i-th byte lies in
// lo[i]..hi[i] for every i (PDF 32000-1:2008 §9.7.6.2: the ranges are
// byte-wise, so <8140> <9FFC> is first byte 81-9F and second byte 40-FC).
//
// A range whose bounds are not byte-wise ordered but are as numbers (seen in
// the wild: <02E3> <70BB>) has numeric set and admits the codes whose value
// lies between the bounds' values, as older readers do.
type csRange struct {
	n       uint8
	numeric bool
	lo, hi  [4]byte
}

func (r csRange) contains(s []byte) bool {
	if r.numeric {
		v := beValue(s[:r.n])
		return beValue(r.lo[:r.n]) <= v && v <= beValue(r.hi[:r.n])
	}
	for i := 0; i < int(r.n); i++ {
		if s[i] < r.lo[i] || s[i] > r.hi[i] {
			return false
		}
	}
	return true
}

// codespace is the set of codespace ranges with tables for fast splitting.
type codespace struct {
	ranges []csRange
	// inferred is true when the CMap declared no codespace and Parse chose
	// one from its mappings.
	inferred bool
	// lens[b] has bit n-1 set when some n-byte range admits b as first byte.
	lens [256]uint8
	// shortest[b] is the least such n, 0 if none.
	shortest [256]uint8
	// two is a bitmap of all valid 2-byte codes, nil when there is no
	// 2-byte range.
	two *[1 << 16 / 64]uint64
	// minLen is the length of the shortest range (0 without ranges).
	minLen uint8
}

// maxCodespaceRanges bounds the ranges of one CMap (Adobe's largest
// predefined CMaps use a dozen; the spec allows 100 per section).
const maxCodespaceRanges = 1024

// build fills the tables from the ranges.
func (cs *codespace) build() {
	cs.lens = [256]uint8{}
	cs.shortest = [256]uint8{}
	cs.two = nil
	cs.minLen = 0
	for _, r := range cs.ranges {
		if cs.minLen == 0 || r.n < cs.minLen {
			cs.minLen = r.n
		}
		for b := int(r.lo[0]); b <= int(r.hi[0]); b++ {
			cs.lens[b] |= 1 << (r.n - 1)
			if cs.shortest[b] == 0 || r.n < cs.shortest[b] {
				cs.shortest[b] = r.n
			}
		}
		if r.n == 2 {
			if cs.two == nil {
				cs.two = new([1 << 16 / 64]uint64)
			}
			if r.numeric {
				setBits(cs.two[:], int(beValue(r.lo[:2])), int(beValue(r.hi[:2])))
				continue
			}
			for b0 := int(r.lo[0]); b0 <= int(r.hi[0]); b0++ {
				setBits(cs.two[:], b0<<8|int(r.lo[1]), b0<<8|int(r.hi[1]))
			}
		}
	}
}

// setBits sets bits lo..hi of a bitmap, a word at a time.
func setBits(words []uint64, lo, hi int) {
	for lo <= hi {
		w, b := lo>>6, lo&63
		n := min(64-b, hi-lo+1) // bits to set in this word
		mask := ^uint64(0)
		if n < 64 {
			mask = (1<<n - 1) << b
		}
		words[w] |= mask
		lo += n
	}
}

// add appends a range unless an identical one is there; it reports false
// when the range limit is reached.
func (cs *codespace) add(r csRange) bool {
	for _, x := range cs.ranges {
		if x == r {
			return true
		}
	}
	if len(cs.ranges) >= maxCodespaceRanges {
		return false
	}
	cs.ranges = append(cs.ranges, r)
	return true
}

// next splits the first code off s (len(s) > 0).
func (cs *codespace) next(s []byte) Code {
	b := s[0]
	m := cs.lens[b]
	if m&1 != 0 {
		return Code{Value: uint32(b), Len: 1, Valid: true}
	}
	if m&2 != 0 && len(s) >= 2 {
		v := uint32(b)<<8 | uint32(s[1])
		if cs.two[v>>6]&(1<<(v&63)) != 0 {
			return Code{Value: v, Len: 2, Valid: true}
		}
	}
	for n := 3; n <= 4; n++ {
		if m&(1<<(n-1)) == 0 || len(s) < n {
			continue
		}
		for _, r := range cs.ranges {
			if int(r.n) == n && r.contains(s) {
				return Code{Value: beValue(s[:n]), Len: n, Valid: true}
			}
		}
	}
	n := int(cs.shortest[b])
	if n == 0 {
		n = 1
	}
	if n > len(s) {
		n = len(s)
	}
	return Code{Value: beValue(s[:n]), Len: n}
}

func beValue(b []byte) uint32 {
	var v uint32
	for _, c := range b {
		v = v<<8 | uint32(c)
	}
	return v
}

// fullRange is the codespace range of all n-byte codes.
func fullRange(n int) csRange {
	r := csRange{n: uint8(n)}
	for i := 0; i < n; i++ {
		r.hi[i] = 0xFF
	}
	return r
}
