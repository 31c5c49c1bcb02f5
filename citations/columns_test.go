package citations

import (
	"strings"
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/testcorpus"
)

// A page and a quote built to make a column run expensive: every row holds
// the quote's lines many times over. The run gives up rather than search
// on, and reports nothing: a search cut short could miss the second
// placement and call an ambiguous quote unique.
func TestColumnRunGivesUp(t *testing.T) {
	row := strings.TrimSpace(strings.Repeat("0 ", 100))
	page := strings.TrimSpace(strings.Repeat(row+"\n", 600))
	ix, err := Build(testcorpus.Memory(t, []corpus.MemoryDocument{{Name: "zeros.pdf", Pages: []corpus.PageText{{Text: page}}}}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	quote := strings.TrimSpace(strings.Repeat("0\n", 20))
	r := ix.Locate(Query{Document: "zeros.pdf", Quote: quote})
	if r.Status == StatusUnique {
		t.Fatalf("a column run over rows of repeated values came back unique: %v", r.Spans())
	}
	budget := maxRunWork
	lines := pageLines(ix.text(0))
	var words [][]string
	for _, w := range strings.Split(quote, "\n") {
		words = append(words, []string{w})
	}
	for first := 0; first+len(words) <= len(lines) && budget >= 0; first++ {
		placeRun(words, lines[first:first+len(words)], &budget)
	}
	if budget >= 0 {
		t.Fatalf("the run search finished within its budget (%d left); the test no longer exercises giving up", budget)
	}
}

// Rows holding a value hundreds of times overflow the partial placements;
// the run then gives up on the whole page rather than report the one
// placement found in plainer rows as unique.
func TestColumnRunOverflowGivesUpOnThePage(t *testing.T) {
	wide := strings.TrimSpace(strings.Repeat("10 x ", 200))
	page := strings.Repeat(wide+"\n", 6) + strings.TrimSpace(strings.Repeat("a 10 b\n", 6))
	ix, err := Build(testcorpus.Memory(t, []corpus.MemoryDocument{{Name: "wide.pdf", Pages: []corpus.PageText{{Text: page}}}}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := ix.Locate(Query{Document: "wide.pdf", Quote: strings.TrimSpace(strings.Repeat("10\n", 6))})
	if r.Status == StatusUnique {
		t.Fatalf("a column the wide rows also hold came back unique: %v", r.Spans())
	}
}
