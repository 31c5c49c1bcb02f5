package citations

import (
	"fmt"
	"testing"
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
