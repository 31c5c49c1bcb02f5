package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/internal/testcorpus"
	"github.com/stretchr/testify/require"
)

func TestWindowHits(t *testing.T) {
	ref := "one two three four five six seven eight nine ten eleven twelve"
	// Windows start at words 1 and 5: "one..eight" and "five..twelve".
	total, a, b := windowHits(ref, "one two  three\nfour five six seven eight nine ten eleven twelve", "onetwo three four five six seven eight nine ten eleven twelve")
	if total != 2 || a != 2 || b != 1 {
		t.Errorf("got total %d, a %d, b %d; want 2, 2 (spaces collapsed), 1 (a lost space loses the window)", total, a, b)
	}
	if total, _, _ := windowHits("too short", "", ""); total != 0 {
		t.Errorf("fewer than 8 words make no window: %d", total)
	}
}

// TestOneQuote: the one-quote benchmark's quote is words 20-31 of page 2
// of the first document, after those skipped, of more than three pages
// with over 40 words there; none is an error.
func TestOneQuote(t *testing.T) {
	words := func(prefix string, n int) string {
		var w []string
		for i := range n {
			w = append(w, fmt.Sprintf("%s%d", prefix, i))
		}
		return strings.Join(w, " ")
	}
	store, remove, err := testcorpus.Import(map[string][]string{
		"a.pdf": {"one", words("a", 50), "three"},                 // three pages: passed over
		"b.pdf": {"one", words("b", 50), "three", "four"},         // skipped
		"c.pdf": {"one", words("c", 30), "three", "four"},         // too few words
		"d.pdf": {"one", words("d", 50), "three", "four", "five"}, // the one
	})
	require.NoError(t, err)
	defer remove()
	q, err := oneQuote(store, 1)
	require.NoError(t, err)
	require.Equal(t, quote1{ID: "q1", Document: "d.pdf", Quote: "d20 d21 d22 d23 d24 d25 d26 d27 d28 d29 d30 d31", Page: 2}, q)
	_, err = oneQuote(store, 3) // c.pdf counts among those skipped
	require.Error(t, err)
}
