package citations

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/testcorpus"
)

// manyQueries are windows of every page of the test documents, each as
// sampled, with a digit changed, on the wrong page, under another document
// and elided: every stage of the locator and every status, a few thousand
// queries in all.
func manyQueries() []Query { return queriesOf(testDocuments()) }

// queriesOf makes those queries from windows of the documents' page texts,
// and of their reading orders and alternative texts.
func queriesOf(srcs []corpus.MemoryDocument) []Query {
	var qs []Query
	for _, s := range srcs {
		for p, sp := range s.Pages {
			texts := []string{sp.Text}
			texts = append(texts, sp.Alts...)
			for _, o := range sp.Orders {
				texts = append(texts, o.Text)
			}
			var w []string
			for _, t := range texts {
				w = append(w, strings.Fields(t)...)
			}
			for i := 0; i < len(w); i += 2 {
				q := strings.Join(w[i:min(i+7, len(w))], " ")
				qs = append(qs,
					Query{Document: s.Name, Quote: q, Page: p + 1},
					Query{Document: s.Name, Quote: strings.NewReplacer("1", "7", "2", "8").Replace(q)},
					Query{Document: s.Name, Quote: q, Page: p + 2},
					Query{Document: s.Name, Quote: strings.Replace(q, " ", "", 2)},
					Query{Document: "supplier-policy.pdf", Quote: q},
					Query{Document: s.Name, Quote: strings.Join(w[i:min(i+3, len(w))], " ") + " … " + strings.Join(w[min(i+5, len(w)):min(i+9, len(w))], " ")},
				)
			}
		}
	}
	return qs
}

// TestLocateAllSameAsSequential: locating on several goroutines gives, in
// input order, exactly what Locate gives for each query alone: the output
// must not depend on scheduling.
func TestLocateAllSameAsSequential(t *testing.T) {
	ix := testIndex(t)
	qs := manyQueries()
	if len(qs) < 1000 {
		t.Fatalf("only %d queries", len(qs))
	}
	want := make([]Result, len(qs))
	for i, q := range qs {
		want[i] = ix.Locate(q)
	}
	for _, workers := range []int{1, 3, 8} {
		got := ix.LocateAll(qs, workers)
		for i := range qs {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("workers %d, query %d %+v:\n got %+v\nwant %+v", workers, i, qs[i], got[i], want[i])
			}
		}
	}
}

// TestGroundAllSameAsGround: grounding on several goroutines gives, in
// input order, what Ground gives each citation alone, mappings included.
func TestGroundAllSameAsGround(t *testing.T) {
	ix := testIndex(t)
	var cs []Citation
	var ms []map[string][]string
	for i, q := range manyQueries() {
		cs = append(cs, Citation{ID: fmt.Sprint(i), Document: q.Document, Quote: q.Quote, Page: q.Page})
		ms = append(ms, map[string][]string{"supplier-policy.pdf": {"supplier-qa.pdf"}})
	}
	for _, workers := range []int{1, 3} {
		var told []int
		got := ix.GroundAll(cs, ms, workers, func(n int) { told = append(told, n) })
		if len(told) != len(cs) || !slices.IsSorted(told) || told[len(told)-1] != len(cs) {
			t.Fatalf("workers %d: done told %d counts, last %v, for %d citations (want 1 to %d in order)", workers, len(told), told[len(told)-1:], len(cs), len(cs))
		}
		for i, c := range cs {
			if want := ix.Ground(c, ms[i]); !reflect.DeepEqual(got[i], want) {
				t.Fatalf("workers %d, citation %+v:\n got %+v\nwant %+v", workers, c, got[i], want)
			}
		}
	}
}

// TestWriteLocatedSameBytes: located on several goroutines, in batches,
// the records are the bytes of one goroutine's run, in input order, and
// the clean verdict the same; more requests than a batch holds.
func TestWriteLocatedSameBytes(t *testing.T) {
	srcs := testcorpus.DemoDocuments()
	ix, err := Build(testcorpus.Memory(t, srcs), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var reqs []LocateRequest
	for len(reqs) < 2*locateBatch+100 {
		for _, s := range srcs {
			for p, sp := range s.Pages {
				w := strings.Fields(sp.Text)
				for i := 0; i+6 <= len(w); i += 3 {
					q := strings.Join(w[i:i+6], " ")
					if len(reqs)%4 == 3 {
						q = strings.ReplaceAll(q, "1", "4") // some quotes not found
					}
					page := p + 1 + len(reqs)%2 // every other on the wrong page
					reqs = append(reqs, LocateRequest{ID: fmt.Sprint(len(reqs)), Document: s.Name, Quote: q, Page: &page})
				}
			}
		}
	}
	var want bytes.Buffer
	var told []int
	wantClean, err := ix.WriteLocated(&want, reqs, 1, func(n int) { told = append(told, n) })
	if want := []int{locateBatch, 2 * locateBatch, len(reqs)}; !slices.Equal(told, want) {
		t.Errorf("done told %v, want %v: once per batch written", told, want)
	}
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(want.Bytes(), []byte("\n")); n != len(reqs) {
		t.Fatalf("%d records for %d requests", n, len(reqs))
	}
	for _, workers := range []int{2, 5} {
		var got bytes.Buffer
		clean, err := ix.WriteLocated(&got, reqs, workers, nil)
		if err != nil || clean != wantClean || !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("workers %d: err %v, clean %v (want %v), output equal %v", workers, err, clean, wantClean, bytes.Equal(got.Bytes(), want.Bytes()))
		}
	}
}
