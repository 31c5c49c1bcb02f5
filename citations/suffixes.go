package citations

import (
	"bytes"
	"encoding/binary"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/citecheck/citecheck/internal/sais"
)

// suffixes is a suffix array over data. Its Lookup finds what
// index/suffixarray's does (the same order, the same range), but the
// array is a plain []int32 that a persisted index can map from a file
// instead of building (indexfile.go); there, an array over at most 16 MiB
// (every shard that holds no larger document) is stored in 24-bit
// entries, sa24, a quarter less to read and to keep resident.
type suffixes struct {
	data []byte
	sa   []int32
	sa24 []byte // 3 bytes per entry, little-endian; used when sa is nil
	// keys samples the array: keys[m] is the first 8 bytes of the suffix
	// at rank m*keyStep, big-endian (zeros past the data's end), so that a
	// lookup of 8 bytes or more first searches this small array, which
	// stays in the processor's caches, and then at most the ranks between
	// two samples, instead of searching the whole array with two cache
	// misses a step. nil for arrays too small to need it.
	keys []uint64
	pre  *prefixRanges // nil for arrays too small to need it
	chk  *blockCheck   // an opened index file's: verifies what is read
}

// maxSuffixes24 is the largest data whose suffix array fits 24-bit entries.
const maxSuffixes24 = 1 << 24

// len is the number of entries.
func (x *suffixes) len() int {
	if x.sa == nil {
		return len(x.sa24) / 3
	}
	return len(x.sa)
}

// entry is the suffix at rank i, its block verified in an opened index.
func (x *suffixes) entry(i int) int {
	if x.sa == nil {
		b := x.sa24[3*i : 3*i+3 : 3*i+3]
		if x.chk != nil {
			x.chk.bytes(b)
		}
		return int(b[0]) | int(b[1])<<8 | int(b[2])<<16
	}
	if x.chk != nil {
		x.chk.int32s(x.sa[i : i+1])
	}
	return int(x.sa[i])
}

// keyStep is the rank distance between two samples of keys.
const keyStep = 64

// suffixKey is the first 8 bytes of suffix v of data, big-endian, zeros
// past its end: keys so made are in the order of their suffixes.
func suffixKey(data []byte, v int) uint64 {
	var b [8]byte
	copy(b[:], data[min(v, len(data)):])
	return binary.BigEndian.Uint64(b[:])
}

// sampleKeys returns the keys of sa over data (nil below prefixMinSuffixes).
func sampleKeys(data []byte, sa []int32) []uint64 {
	if len(sa) < prefixMinSuffixes {
		return nil
	}
	keys := make([]uint64, (len(sa)+keyStep-1)/keyStep)
	for m := range keys {
		keys[m] = suffixKey(data, int(sa[m*keyStep]))
	}
	return keys
}

// key is keys[m], its block verified in an opened index.
func (x *suffixes) key(m int) uint64 {
	if x.chk != nil {
		x.chk.uint64s(x.keys[m : m+1])
	}
	return x.keys[m]
}

// keyRange narrows the ranks [lo, hi) to search for s, of 8 bytes or
// more: every suffix with prefix s has s's key, so lies after the last
// sample with a smaller key and before the first with a larger one. Runs
// of equal keys are short, so the end of s's run gallops from its start.
func (x *suffixes) keyRange(s []byte, lo, hi int) (int, int) {
	k := binary.BigEndian.Uint64(s)
	m0, m1 := lo/keyStep, min((hi+keyStep-1)/keyStep, len(x.keys))
	a := m0 + sort.Search(m1-m0, func(m int) bool { return x.key(m0+m) >= k })
	b, end := a, m1 // keys in [a, b) equal k; the first larger is in [b, end]
	for step := 1; b < end; step *= 2 {
		if m := min(b+step, end) - 1; x.key(m) > k {
			end = m
			break
		} else {
			b = m + 1
		}
	}
	b += sort.Search(end-b, func(m int) bool { return x.key(b+m) > k })
	if a > 0 {
		lo = max(lo, (a-1)*keyStep+1)
	}
	if b < len(x.keys) {
		hi = min(hi, b*keyStep)
	}
	return min(lo, hi), hi
}

// prefixRanges remembers, per two-byte prefix, the range of the suffix
// array holding it, found on first use: a lookup then searches that range
// (about a 65,000th of the array) instead of the whole array, and a
// prefix absent from the array costs one load. It is filled lazily, not
// stored in the index file, so opening stays as cheap as mapping.
type prefixRanges struct {
	once sync.Once
	r    []atomic.Uint64 // known<<63 | lo<<32 | hi; 0 while not yet found
}

// prefixMinSuffixes is the array size from which prefixRanges pays for
// its 512 KiB.
const prefixMinSuffixes = 1 << 16

func mkSuffixes(data []byte, sa []int32, sa24 []byte, keys []uint64) suffixes {
	x := suffixes{data: data, sa: sa, sa24: sa24, keys: keys}
	if x.len() >= prefixMinSuffixes {
		x.pre = &prefixRanges{}
	}
	return x
}

// newSuffixes builds the suffix array of data (SA-IS, internal/sais).
func newSuffixes(data []byte) suffixes {
	if len(data) >= 1<<31-1 {
		panic("citations: suffix array over 2 GiB") // layout refuses such shards first
	}
	sa := make([]int32, len(data))
	sais.Build(data, sa)
	return mkSuffixes(data, sa, nil, sampleKeys(data, sa))
}

// at is the suffix at rank i, of which the caller reads at most n bytes.
// An entry past the data (only a damaged index file holds one) reads as
// the empty suffix.
func (x *suffixes) at(i, n int) []byte {
	v := x.entry(i)
	if v < 0 || v > len(x.data) {
		return nil
	}
	if x.chk != nil {
		x.chk.bytes(x.data[v:min(v+n, len(x.data))])
	}
	return x.data[v:]
}

// Lookup returns at most n (all, if n < 0) offsets where s occurs in data,
// in suffix order, as suffixarray.Index.Lookup does.
func (x *suffixes) Lookup(s []byte, n int) []int {
	if len(s) == 0 || n == 0 {
		return nil
	}
	lo, hi := x.prefixRange(s)
	i := lo + sort.Search(hi-lo, func(i int) bool { return bytes.Compare(x.at(lo+i, len(s)), s) >= 0 })
	j := x.prefixEnd(i, hi, s)
	if n < 0 || j-i < n {
		n = j - i
	}
	if n == 0 {
		return nil
	}
	out := make([]int, n)
	for k := range out {
		out[k] = min(max(x.entry(i+k), 0), len(x.data)) // in range, damaged or not
	}
	return out
}

// Count is len(x.Lookup(s, n)), without making the offsets.
func (x *suffixes) Count(s []byte, n int) int {
	if len(s) == 0 || n == 0 {
		return 0
	}
	lo, hi := x.prefixRange(s)
	i := lo + sort.Search(hi-lo, func(i int) bool { return bytes.Compare(x.at(lo+i, len(s)), s) >= 0 })
	c := x.prefixEnd(i, hi, s) - i
	if n >= 0 {
		c = min(c, n)
	}
	return c
}

// prefixRange returns a range of the array holding every suffix that
// starts with s: the range of s's first two bytes (the whole array for a
// one-byte s or a small array), narrowed by the sampled keys for an s of
// 8 bytes or more.
func (x *suffixes) prefixRange(s []byte) (lo, hi int) {
	lo, hi = x.pairRange(s)
	if x.keys != nil && len(s) >= 8 && lo < hi {
		return x.keyRange(s, lo, hi)
	}
	return lo, hi
}

// pairRange returns the range of the array whose suffixes start with s's
// first two bytes (the whole array for a one-byte s or a small array).
func (x *suffixes) pairRange(s []byte) (lo, hi int) {
	if x.pre == nil || len(s) < 2 {
		return 0, x.len()
	}
	x.pre.once.Do(func() { x.pre.r = make([]atomic.Uint64, 1<<16) })
	e := &x.pre.r[int(s[0])<<8|int(s[1])]
	if v := e.Load(); v != 0 {
		return int(v >> 32 & (1<<31 - 1)), int(v & (1<<32 - 1))
	}
	p := s[:2]
	lo = sort.Search(x.len(), func(i int) bool { return bytes.Compare(x.at(i, 2), p) >= 0 })
	hi = x.prefixEnd(lo, x.len(), p)
	e.Store(1<<63 | uint64(lo)<<32 | uint64(hi)) // racing goroutines store the same
	return lo, hi
}

// prefixEnd returns the first rank in [i, hi] whose suffix lacks prefix s,
// every suffix ranked from i up to it having it. Occurrences are few, so it
// gallops from i rather than searching up to hi.
func (x *suffixes) prefixEnd(i, hi int, s []byte) int {
	j, end := i, hi // every suffix in [i, j) has prefix s; the answer is in [j, end]
	for step := 1; j < end; step *= 2 {
		k := min(j+step, end) - 1
		if !bytes.HasPrefix(x.at(k, len(s)), s) {
			end = k
			break
		}
		j = k + 1
	}
	return j + sort.Search(end-j, func(m int) bool { return !bytes.HasPrefix(x.at(j+m, len(s)), s) })
}
