package audit

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/internal/testcorpus"
	"github.com/citecheck/citecheck/runs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// demoIndex indexes the demo documents' page texts as extraction stores
// them: what the fixture run cites.
func demoIndex(t *testing.T) *citations.Index {
	t.Helper()
	ix, err := citations.Build(testcorpus.Memory(t, testcorpus.DemoDocuments()), citations.Options{})
	require.NoError(t, err)
	return ix
}

func TestRunFixture(t *testing.T) {
	recs, err := runs.ReadRecords(strings.NewReader(string(fixtures.Run())), "run.jsonl")
	require.NoError(t, err)
	rep := Run(demoIndex(t), recs, 0, nil)
	if rep.Clean() {
		t.Error("the fixture run has failures")
	}
	var got []string
	for _, e := range rep.Entries {
		got = append(got, e.Arm+"/"+string(e.Grounding))
	}
	want := "A/unique A/unique A/fabricated A/wrong_document B/unverifiable B/wrong_page B/page_convention B/unverifiable"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	last := rep.Totals[len(rep.Totals)-1]
	assert.Empty(t, last.Arm, "the overall totals are of no arm")
	assert.Equal(t, []int{0, 8, 8, 2, 1, 2}, []int{last.Session, last.Attempts, last.Citations, last.Unique, last.Fabricated, last.Unverifiable},
		"overall session, attempts, citations, unique, fabricated, unverifiable")
	var order []string
	for _, tt := range rep.Totals {
		order = append(order, tt.Arm+":"+string(rune('0'+tt.Session)))
	}
	if strings.Join(order, " ") != "A:1 A:2 A:0 B:1 B:2 B:0 :0" {
		t.Errorf("totals order %v", order)
	}
}

// TestRelaxedByChosenLocation: a quote found at a strict level is not
// counted relaxed, even where a joined-words copy of it exists (stages stop
// at the strictest level that finds the quote in the document).
func TestRelaxedByChosenLocation(t *testing.T) {
	ix, err := citations.Build(testcorpus.Memory(t, []corpus.MemoryDocument{{Name: "r.pdf", Pages: []corpus.PageText{
		{Text: "Ordersmustbedeliveredwithin ten working days here."},
		{Text: "Orders must be delivered within ten working days here."},
	}}}), citations.Options{})
	require.NoError(t, err)
	q := "Orders must be delivered within ten working days here."
	page := 2
	recs := []runs.Record{{Arm: "A", Session: 1, Question: "q", Status: "ok", Citations: []runs.Citation{{ID: "c", Document: "r.pdf", Quote: &q, Page: &page}}}}
	rep := Run(ix, recs, 0, nil)
	if rep.Entries[0].Grounding != citations.GroundedUnique || rep.Totals[0].Relaxed != 0 {
		t.Errorf("%+v %+v", rep.Entries[0], rep.Totals[0])
	}
}

// TestRunSameForEveryWorkers: an audit's report, entries and totals, is
// the same on one goroutine and on several. The runs cite windows of the
// demo pages as they are, on the page after, with a digit changed and
// under a document the corpus lacks, seven citations a run.
func TestRunSameForEveryWorkers(t *testing.T) {
	var cites []runs.Citation
	for _, d := range testcorpus.DemoDocuments() {
		for p, pt := range d.Pages {
			words := strings.Fields(pt.Text)
			for i := 0; i < len(words); i += 3 {
				q := strings.Join(words[i:min(i+6, len(words))], " ")
				changed := strings.NewReplacer("1", "7", "2", "8").Replace(q)
				here, after := p+1, p+2
				cites = append(cites,
					runs.Citation{Document: d.Name, Quote: &q, Page: &here},
					runs.Citation{Document: d.Name, Quote: &q, Page: &after},
					runs.Citation{Document: d.Name, Quote: &changed},
					runs.Citation{Document: "supplier-policy.pdf", Quote: &q})
			}
		}
	}
	var recs []runs.Record
	for i := 0; i < len(cites); i += 7 {
		run := runs.Record{Arm: fmt.Sprint("A", i%3), Session: 1 + i%2, Question: fmt.Sprint("q", i), Status: "ok", Line: i/7 + 1}
		for k, c := range cites[i:min(i+7, len(cites))] {
			c.ID = fmt.Sprint("c", k)
			run.Citations = append(run.Citations, c)
		}
		recs = append(recs, run)
	}
	ix := demoIndex(t)
	want := Run(ix, recs, 1, nil)
	if len(want.Entries) != len(cites) || len(cites) < 300 {
		t.Fatalf("%d entries for %d citations", len(want.Entries), len(cites))
	}
	for _, workers := range []int{0, 3, 8} {
		if got := Run(ix, recs, workers, nil); !reflect.DeepEqual(got, want) {
			t.Errorf("workers %d: the report differs from the sequential one", workers)
		}
	}
}

// TestFromRun: a run record's citation reaches the locator with its pages
// and quote, and NoQuote where the record has none.
func TestFromRun(t *testing.T) {
	recs, err := runs.ReadRecords(strings.NewReader(`{"arm": "A", "session": 1, "question": "q01", "status": "ok", "response": "x", "citations": [{"id": "c1", "document": "a.pdf", "page": 2, "last_page": 3, "quote": "y"}, {"id": "c2", "document": "b.pdf", "quote": null}]}`+"\n"), "run.jsonl")
	require.NoError(t, err)
	assert.Equal(t, citations.Citation{ID: "c1", Document: "a.pdf", Page: 2, LastPage: 3, Quote: "y"}, FromRun(recs[0].Citations[0]))
	assert.Equal(t, citations.Citation{ID: "c2", Document: "b.pdf", NoQuote: true}, FromRun(recs[0].Citations[1]))
}

// TestQuoteFromRetrievalAgrees: the locator and the run record spell a
// retrieval-sourced quote the same way, so a run's quote_from reaches
// the locator as written.
func TestQuoteFromRetrievalAgrees(t *testing.T) {
	if citations.QuoteFromRetrieval != runs.QuoteFromRetrieval {
		t.Fatalf("citations.QuoteFromRetrieval %q, runs.QuoteFromRetrieval %q", citations.QuoteFromRetrieval, runs.QuoteFromRetrieval)
	}
}
