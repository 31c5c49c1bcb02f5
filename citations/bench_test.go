package citations

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/testcorpus"
	"github.com/stretchr/testify/require"
)

// BenchmarkLocate locates a mix of found, relaxed and missing quotes in
// the test index; "make bench" runs the corpus-scale measurement
// (internal/cmd/citecheck-locbench).
func BenchmarkLocate(b *testing.B) {
	ix := testIndex(b)
	qs := []Query{
		{Document: "supplier-policy.pdf", Quote: "Orders must be delivered within 10 working days of the purchase order date.", Page: 1},
		{Document: "supplier-policy.pdf", Quote: "Orders must be delivered within 12 working days of the purchase order date."},
		{Document: "supplier-policy.pdf", Quote: "per working day. 3. Inspection Every batch is sampled"},
		{Document: "inspection-manual.pdf", Quote: "Torque wrenches are checked weekly. Calibration certificates are kept by the metrology lab."},
		{Document: "supplier-policy.pdf", Quote: "Invoices are paid within 45 calendar days … when payment is made within 10 calendar days."},
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, q := range qs {
			ix.Locate(q)
		}
	}
}

// BenchmarkLocateDegenerate locates what a model stuck in a loop writes:
// one line repeated thousands of times, in a named document and in none.
// The reordered level's splits of such a quote once cost n² (13 s for
// "the" on 10,000 lines); docs/benchmarks.md has the figures.
func BenchmarkLocateDegenerate(b *testing.B) {
	ix := genuineIndex(b)
	qs := []Query{
		{Document: "filing.pdf", Quote: strings.Repeat("the\n", 10000)},
		{Quote: strings.Repeat("a\n", 5000)},
		{Document: "filing.pdf", Quote: strings.Repeat("first quarter of 2023 were strong\n", 1800)},
	}
	for b.Loop() {
		for _, q := range qs {
			ix.Locate(q)
		}
	}
}

// BenchmarkLocateAll locates the windows of manyQueries on one goroutine
// and on two, the cores "citecheck locate" and "audit" use.
func BenchmarkLocateAll(b *testing.B) {
	ix := testIndex(b)
	qs := manyQueries()
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprint("workers=", workers), func(b *testing.B) {
			for b.Loop() {
				ix.LocateAll(qs, workers)
			}
			b.ReportMetric(float64(len(qs)*b.N)/b.Elapsed().Seconds(), "quotes/s")
		})
	}
}

// benchIndexFile is the index file of a generated corpus of 1,000 pages,
// a third of them with reading orders, and its block digest.
func benchIndexFile(b *testing.B) (*Index, []byte, string) {
	b.Helper()
	docs := make([]corpus.MemoryDocument, 100)
	for d := range docs {
		pages := make([]corpus.PageText, 10)
		for p := range pages {
			var sb strings.Builder
			for w := range 200 {
				fmt.Fprintf(&sb, "v%d ", ((d*10+p)*200+w)*7919%50021)
				if w%10 == 9 {
					sb.WriteString("\n")
				}
			}
			pages[p] = corpus.PageText{Text: sb.String()}
			if p%3 == 0 {
				pages[p].Orders = fuzzOrders(pages[p].Text)
			}
		}
		docs[d] = corpus.MemoryDocument{Name: fmt.Sprintf("doc%03d.pdf", d), Pages: pages}
	}
	ix, err := Build(testcorpus.Memory(b, docs), Options{})
	require.NoError(b, err)
	var buf bytes.Buffer
	blocks, err := WriteIndex(&buf, ix, [32]byte{})
	require.NoError(b, err)
	return ix, buf.Bytes(), blocks
}

// BenchmarkOpenIndex opens an index file as the reading verbs do: the
// tables decoded and verified, the texts and suffix arrays left in place.
func BenchmarkOpenIndex(b *testing.B) {
	_, file, blocks := benchIndexFile(b)
	b.SetBytes(int64(len(file)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := OpenIndex(file, [32]byte{}, blocks); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteIndex writes the generated corpus's index file.
func BenchmarkWriteIndex(b *testing.B) {
	ix, file, _ := benchIndexFile(b)
	b.SetBytes(int64(len(file)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := WriteIndex(io.Discard, ix, [32]byte{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLocateOpened locates quotes of the generated corpus through its
// opened index file, whose arrays are read in place.
func BenchmarkLocateOpened(b *testing.B) {
	_, file, blocks := benchIndexFile(b)
	ix, err := OpenIndex(file, [32]byte{}, blocks)
	require.NoError(b, err)
	var qs []Query
	for d := 0; d < 100; d += 7 {
		name := fmt.Sprintf("doc%03d.pdf", d)
		for p := 1; p <= 10; p += 3 {
			raw, _ := ix.PageText(name, p)
			words := strings.Fields(raw)
			qs = append(qs, Query{Document: name, Quote: strings.Join(words[40:52], " ")},
				Query{Document: name, Quote: strings.Join(words[100:106], " ") + " v1"})
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		ix.LocateAll(qs, 1)
	}
	require.NoError(b, ix.Err())
	b.ReportMetric(float64(len(qs)*b.N)/b.Elapsed().Seconds(), "quotes/s")
}
