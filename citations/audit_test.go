package citations

import (
	"strings"
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/internal/testcorpus"
	"github.com/citecheck/citecheck/runs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAuditFixtureRun(t *testing.T) {
	ix := testIndex(t)
	recs, err := runs.ReadRecords(strings.NewReader(string(fixtures.Run())), "run.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	rep := ix.Audit(recs)
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

// TestAuditRelaxedByChosenLocation: a quote found at a strict level is not
// counted relaxed, even where a joined-words copy of it exists (stages stop
// at the strictest level that finds the quote in the document).
func TestAuditRelaxedByChosenLocation(t *testing.T) {
	ix, err := Build(testcorpus.Memory(t, []corpus.MemoryDocument{{Name: "r.pdf", Pages: []corpus.PageText{
		{Text: "Ordersmustbedeliveredwithin ten working days here."},
		{Text: "Orders must be delivered within ten working days here."},
	}}}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	q := "Orders must be delivered within ten working days here."
	recs := []runs.Record{{Arm: "A", Session: 1, Question: "q", Status: "ok", Citations: []runs.Citation{{ID: "c", Document: "r.pdf", Quote: &q, Page: ptr(2)}}}}
	rep := ix.Audit(recs)
	if rep.Entries[0].Grounding != GroundedUnique || rep.Totals[0].Relaxed != 0 {
		t.Errorf("%+v %+v", rep.Entries[0], rep.Totals[0])
	}
}

// TestFromRun: a run record's citation reaches the classifier with its
// pages and quote, and NoQuote where the record has none.
func TestFromRun(t *testing.T) {
	recs, err := runs.ReadRecords(strings.NewReader(`{"arm": "A", "session": 1, "question": "q01", "status": "ok", "response": "x", "citations": [{"id": "c1", "document": "a.pdf", "page": 2, "last_page": 3, "quote": "y"}, {"id": "c2", "document": "b.pdf", "quote": null}]}`+"\n"), "run.jsonl")
	require.NoError(t, err)
	assert.Equal(t, Citation{ID: "c1", Document: "a.pdf", Page: 2, LastPage: 3, Quote: "y"}, FromRun(recs[0].Citations[0]))
	assert.Equal(t, Citation{ID: "c2", Document: "b.pdf", NoQuote: true}, FromRun(recs[0].Citations[1]))
}
