package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/shareddata"
	"github.com/citecheck/citecheck/internal/testcorpus"
)

// TestMain lets the test binary serve as the extraction child of the
// corpus sweep.
func TestMain(m *testing.M) { testcorpus.Main(m) }

// TestCorpusSweep extracts ../shared/pdf-corpus, samples 20,000 quotes of
// every kind from it and checks the bars: changed words and digits
// caught at least 99.5% of the time, no changed quote ever excused by a
// relaxed level on the page it came from, genuine and cross-page quotes
// found on their pages.
func TestCorpusSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus sweep skipped in -short mode")
	}
	dir := filepath.Join(t.TempDir(), "corpus")
	if _, err := testcorpus.Extract(dir, []string{shareddata.Path(t, "pdf-corpus")}, testcorpus.Options{}); err != nil {
		t.Fatal(err)
	}
	st, err := corpus.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	srcs, err := readDocuments(st)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := citations.Build(st, citations.Options{})
	if err != nil {
		t.Fatal(err)
	}
	qs := sample(srcs, 20000, 6)
	rs := make([]citations.Result, len(qs))
	locateAll(ix, qs, rs, make([]time.Duration, len(qs)), 2)
	by := summarize(qs, rs)
	for _, k := range []kind{changedWord, changedDigit} {
		a := by[k]
		if rate := float64(a.caught()) / float64(a.n); rate < 0.995 {
			t.Errorf("%s: caught %.4f, want at least 0.995", k, rate)
		}
		if a.relaxedOnPage != 0 {
			t.Errorf("%s: %d found at a relaxed level on the page they were changed on", k, a.relaxedOnPage)
		}
	}
	for _, k := range []kind{genuine, crossPage} {
		a := by[k]
		if rate := float64(a.uniqueRight+a.ambiguousRight) / float64(a.n); rate < 0.99 {
			t.Errorf("%s: found on the right page %.4f, want at least 0.99", k, rate)
		}
	}
	var b strings.Builder
	report(&b, qs, rs)
	t.Logf("\n%s", b.String())
}

func TestPerturb(t *testing.T) {
	text := "Orders must be delivered within 10 working days of the purchase order date."
	a, b := perturb(text, 1), perturb(text, 2)
	if a == text || b == text || a == b || perturb(text, 1) != a {
		t.Errorf("copies must differ from the original and each other, deterministically:\n%s\n%s", a, b)
	}
	if len([]rune(a)) != len([]rune(text)) {
		t.Error("a perturbed page keeps its length")
	}
}

func TestSampleDeterministic(t *testing.T) {
	srcs := []corpus.MemoryDocument{{Name: "a.pdf", Pages: []corpus.PageText{
		{Text: "one two three four five six seven eight nine ten 11 twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty"},
		{Text: "alpha beta gamma delta epsilon zeta eta theta iota kappa 12 lambda mu nu xi omicron pi rho sigma tau upsilon"},
	}}}
	a, b := sample(srcs, 200, 1), sample(srcs, 200, 1)
	if len(a) != 200 {
		t.Fatalf("%d quotes", len(a))
	}
	for i := range a {
		if a[i].q != b[i].q || a[i].kind != b[i].kind {
			t.Fatalf("quote %d differs between two runs", i)
		}
	}
}
