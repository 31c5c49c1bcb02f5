package sais

import (
	"bytes"
	"fmt"
	"index/suffixarray"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
)

// want is the suffix array by definition: offsets sorted by their suffixes.
func want(text []byte) []int32 {
	sa := make([]int32, len(text))
	for i := range sa {
		sa[i] = int32(i)
	}
	sort.Slice(sa, func(i, j int) bool { return bytes.Compare(text[sa[i]:], text[sa[j]:]) < 0 })
	return sa
}

// TestBuildSortsSuffixes: Build's array is the sorted suffixes, for texts
// that exercise the recursion (long repeats, small and full alphabets).
func TestBuildSortsSuffixes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cases := []struct {
		why  string
		text []byte
	}{
		{"empty", nil},
		{"one byte", []byte("a")},
		{"one letter repeated: deepest recursion", bytes.Repeat([]byte("a"), 5000)},
		{"a period of three", bytes.Repeat([]byte("abc"), 3000)},
		{"text with form feeds, as the index holds", []byte("the quick brown fox\fjumps over\fthe lazy dog\f")},
	}
	for _, alphabet := range []int{2, 4, 26, 256} {
		b := make([]byte, 20000)
		for i := range b {
			b[i] = byte(r.IntN(alphabet))
		}
		cases = append(cases, struct {
			why  string
			text []byte
		}{fmt.Sprintf("random over an alphabet of %d bytes", alphabet), b})
	}
	for _, c := range cases {
		sa := make([]int32, len(c.text))
		Build(c.text, sa)
		require.Equal(t, want(c.text), sa, c.why)
	}
}

// TestBuildMatchesIndexSuffixarray: the copy answers lookups as the
// standard library's index does over the same text.
func TestBuildMatchesIndexSuffixarray(t *testing.T) {
	text := bytes.Repeat([]byte("citations locate quotes; quotes cite pages. "), 400)
	sa := make([]int32, len(text))
	Build(text, sa)
	for _, pat := range []string{"quotes", "c", "pages. cit", "absent"} {
		var got []int
		for _, off := range sa {
			if bytes.HasPrefix(text[off:], []byte(pat)) {
				got = append(got, int(off))
			}
		}
		// Lookup returns its hits in suffix order, as the array lists them.
		require.Equal(t, suffixarray.New(text).Lookup([]byte(pat), -1), got, pat)
	}
}

func FuzzBuild(f *testing.F) {
	f.Add([]byte("banana"))
	f.Add([]byte("mississippi\f"))
	f.Fuzz(func(t *testing.T, text []byte) {
		sa := make([]int32, len(text))
		Build(text, sa)
		require.Equal(t, want(text), sa)
	})
}
