package citations

import (
	"sync"
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/testcorpus"
)

// testDocuments are the demo PDFs' page texts as extraction stores them
// (testcorpus.DemoDocuments), so offsets here are those "citecheck show"
// prints, and extraDocuments.
func testDocuments() []corpus.MemoryDocument {
	return append(testcorpus.DemoDocuments(), extraDocuments()...)
}

// extraDocuments add what the demo lacks: page labels, pages without text, a
// document without text, and the same sentence in two documents.
func extraDocuments() []corpus.MemoryDocument {
	return []corpus.MemoryDocument{
		{Name: "annual-report.pdf", Pages: []corpus.PageText{
			{Text: "Annual Report 2023\nContents", Label: "i"},
			{Text: "Foreword by the chair.\nWe grew revenue by 3.5% to 1,200 million.\nii", Label: "ii"},
			{Text: "1. Results\nOperating margin was 12.4% in the year.\nNet debt fell to 310 million.", Label: "1"},
			{Text: "2. Outlook\nWe expect margin of at least 12% next year.", Label: "2"},
			{Text: "", Label: "3", Flags: []string{corpus.FlagNoTextLayer}},
		}},
		{Name: "board-minutes.pdf", Pages: []corpus.PageText{
			{Text: "Minutes of the board.\nOperating margin was 12.4% in the year.\nThe board approved the dividend."},
			{Text: "Any other business: none."},
		}},
		{Name: "locked.pdf", Status: corpus.StatusEncrypted},
		{Name: "columns.pdf", Pages: []corpus.PageText{
			{Text: "The left column starts here and\ncontinues with more words below.\nThe right column begins on top\nand ends with a final sentence.\nPage 4"},
			{Text: "Next page opens with a heading\nand then some running text."},
		}},
		{Name: "table.pdf", Pages: []corpus.PageText{
			{Text: "State Permit Handgun Long Gun Totals\nAlabama 18,870 23,022 22,650 71,137\nAlaska 209 3,062 3,209 7,095\nNew York 0 4,235 3,209 12,400\nOhio 4,100 9,800 11,611 30,002\nGuam 1,000 5 6 1,000 2,005\nIdaho 1,000 7 8 1,000 2,007\nUtah 1,000 9 4 1,000 2,009"},
		}},
		{Name: "survey.pdf", Pages: []corpus.PageText{
			{Text: "Results of the survey are\nshown in the table below.\nAlpha 12 7\nBeta 30 9\nGamma 41 2"},
		}},
		{Name: "processes.pdf", Pages: []corpus.PageText{
			{Text: "Table 1 Processes\n16 Spectral selection, 8-bit Annex G, process 2\n17 Full progression, 8-bit Annex G, process 3\n18 Full progression, arithmetic, 12-bit Annex G, process 4"},
		}},
		{Name: "contents.pdf", Pages: []corpus.PageText{
			{Text: "Contents\n3 Baz 2\n4 Foo 2\n5 Bar 3\n6 Baz 4\n7 Foo 5"},
		}},
		{Name: "numbered.pdf", Pages: []corpus.PageText{
			{Text: "12\nThe committee met twice in March and\nagreed on the budget for the coming year.\nTable 13 lists the members present.\n7\nAppendix A lists the voting rules."},
		}},
	}
}

var (
	demoOnce sync.Once
	demoIx   *Index
)

// testIndex indexes the demo and the extra documents once for all tests.
// levelOf is the level of a result's one location, "" when it has none.
func levelOf(r Result) string {
	if l, ok := r.Location(); ok {
		return l.Level.String()
	}
	return ""
}

func testIndex(t testing.TB) *Index {
	t.Helper()
	demoOnce.Do(func() {
		m, err := corpus.NewMemory(testDocuments()...)
		if err != nil {
			panic(err)
		}
		ix, err := Build(m, Options{})
		if err != nil {
			panic(err)
		}
		demoIx = ix
	})
	return demoIx
}

func ptr[T any](v T) *T { return &v }
