package citations

import (
	"index/suffixarray"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestSuffixesLookupAsSuffixarray: the 32-bit suffix array answers every
// lookup exactly as index/suffixarray does, limits and order included, so
// the locator's hits (and which maxHits it keeps) are unchanged. Arrays
// from prefixMinSuffixes on search within remembered two-byte prefix
// ranges: the wide alphabet gives many ranges, some prefixes absent
// ("zz"), and the 300 lookups meet most ranges again once remembered.
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
		if len(got.sa) != n {
			t.Fatalf("n %d: %d entries", n, len(got.sa))
		}
		for range 300 {
			l := r.IntN(6)
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
			}
			for _, lim := range []int{-1, 0, 1, 3, 2049} {
				if g, w := got.Lookup(pat, lim), want.Lookup(pat, lim); !reflect.DeepEqual(g, w) {
					t.Fatalf("n %d, %q limit %d: got %v, want %v", n, pat, lim, g, w)
				}
				if g, w := got.Count(pat, lim), len(want.Lookup(pat, lim)); g != w {
					t.Fatalf("n %d, %q limit %d: counted %d, want %d", n, pat, lim, g, w)
				}
			}
		}
	}
}
