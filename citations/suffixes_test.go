package citations

import (
	"bytes"
	"index/suffixarray"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSuffixesLookupAsSuffixarray: the 32-bit suffix array, built or read
// from an index file in 24 or 32 bits (mapped in place, or decoded from
// unaligned bytes), answers every lookup exactly as
// index/suffixarray does, limits and order included, so the locator's
// hits (and which maxHits it keeps) are unchanged. Arrays
// from prefixMinSuffixes on search within remembered two-byte prefix
// ranges: the wide alphabet gives many ranges, some prefixes absent
// ("zz"), and the 600 lookups meet most ranges again once remembered;
// half of them are 8 bytes or more, which those arrays search through
// their sampled keys (the narrow alphabet: runs of equal keys).
func TestSuffixesLookupAsSuffixarray(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 2))
	for _, c := range []struct {
		n        int
		alphabet string
	}{{0, "ab \fc"}, {1, "ab \fc"}, {2, "ab \fc"}, {50, "ab \fc"}, {4000, "ab \fc"}, {70000, "ab \fc"}, {200000, "abcdefghijklmnopqrstuvwxy 0123456789\f"}} {
		n := c.n
		data := make([]byte, n)
		for i := range data {
			data[i] = c.alphabet[r.IntN(len(c.alphabet))] // few letters: many repeats
		}
		want := suffixarray.New(data)
		got := newSuffixes(data)
		require.Equal(t, n, got.len())
		read24, read32 := reopened(t, &got, kindInt24, false), reopened(t, &got, kindInt32, true)
		require.Equal(t, n, read24.len())
		require.Equal(t, n, read32.len())
		for q := range 600 {
			l := r.IntN(6)
			if q%2 == 1 { // 8 bytes or more: searched through the sampled keys
				l = 8 + r.IntN(12)
			}
			var pat []byte
			if n > 0 {
				at := r.IntN(n)
				pat = data[at:min(n, at+l)]
			}
			switch r.IntN(8) {
			case 0, 1:
				pat = append([]byte(nil), "abcab"[:l%5]...)
			case 2:
				pat = append([]byte(nil), "zzab"[:l%4]...) // a prefix absent from data
			case 3:
				if len(pat) > 0 { // absent, after a common start
					pat = append(bytes.Clone(pat[:len(pat)-1]), 'q')
				}
			}
			for _, lim := range []int{-1, 0, 1, 3, 2049} {
				for k, x := range []*suffixes{&got, read24, read32} {
					if g, w := x.Lookup(pat, lim), want.Lookup(pat, lim); !reflect.DeepEqual(g, w) {
						t.Fatalf("array %d, n %d, %q limit %d: got %v, want %v", k, n, pat, lim, g, w)
					}
					if g, w := x.Count(pat, lim), len(want.Lookup(pat, lim)); g != w {
						t.Fatalf("array %d, n %d, %q limit %d: counted %d, want %d", k, n, pat, lim, g, w)
					}
				}
			}
		}
	}
}

// reopened writes x's array to an index file in entries of kind bytes and
// reads it back as OpenIndex does; unaligned, from bytes at an odd
// address, which it decodes instead of using in place.
func reopened(t *testing.T, x *suffixes, kind uint32, unaligned bool) *suffixes {
	t.Helper()
	var fw writer
	fw.suffixesAs(x, kind)
	var buf bytes.Buffer
	_, err := fw.write(&buf, "test", [32]byte{})
	require.NoError(t, err)
	b := buf.Bytes()
	if unaligned {
		b = append(make([]byte, 1, len(b)+1), b...)[1:]
	}
	info, err := ReadIndexInfo(b)
	require.NoError(t, err)
	r, err := newReader(b[:info.Blocks], nil)
	require.NoError(t, err)
	got := r.suffixes(x.data)
	require.NoError(t, r.err)
	if kind == kindInt24 {
		require.NotNil(t, got.sa24)
	}
	return &got
}

// TestSuffixArrayWidth: an index file keeps a suffix array in 24-bit
// entries when every offset fits (data of at most 16 MiB: a shard holds
// about 8), in 32 bits beyond.
func TestSuffixArrayWidth(t *testing.T) {
	for _, c := range []struct {
		n    int
		kind uint32
	}{{0, kindInt24}, {maxSuffixes24, kindInt24}, {maxSuffixes24 + 1, kindInt32}} {
		var fw writer
		fw.suffixes(&suffixes{data: make([]byte, c.n), sa: make([]int32, c.n)})
		assert.Equal(t, c.kind, fw.arrays[0].kind, "%d bytes", c.n)
	}
}
