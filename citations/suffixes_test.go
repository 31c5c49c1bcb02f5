package citations

import (
	"index/suffixarray"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestSuffixesLookupAsSuffixarray: the 32-bit suffix array answers every
// lookup exactly as index/suffixarray does, limits and order included, so
// the locator's hits (and which maxHits it keeps) are unchanged.
func TestSuffixesLookupAsSuffixarray(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 2))
	for _, n := range []int{0, 1, 2, 50, 4000, 70000} {
		data := make([]byte, n)
		for i := range data {
			data[i] = "ab \fc"[r.IntN(5)] // few letters: many repeats
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
			if r.IntN(4) == 0 {
				pat = append([]byte(nil), "abcab"[:l%5]...)
			}
			for _, lim := range []int{-1, 0, 1, 3, 2049} {
				if g, w := got.Lookup(pat, lim), want.Lookup(pat, lim); !reflect.DeepEqual(g, w) {
					t.Fatalf("n %d, %q limit %d: got %v, want %v", n, pat, lim, g, w)
				}
			}
		}
	}
}
