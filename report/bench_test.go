package report_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/metrics"
	"github.com/citecheck/citecheck/report"
)

// BenchmarkReport240 is what "citecheck report" does for a policy-sized
// evaluation, 240 attempts (2 arms x 3 sessions x 40 questions, copied
// from the demo's graded run): the metrics, the paired comparison with
// 10,000 replicates over 40 question clusters, and the three files.
func BenchmarkReport240(b *testing.B) {
	f := demo(b)
	results := scaleResults(f)
	var r240 []grade.Result
	for _, r := range results {
		if r.Session <= 3 {
			r240 = append(r240, r)
		}
	}
	if len(r240) != 240 {
		b.Fatalf("%d attempts", len(r240))
	}
	b.ResetTimer()
	for range b.N {
		bld := metrics.NewBuilder()
		for i := range r240 {
			bld.Add(&r240[i])
		}
		sum := bld.Summary(metrics.DefaultThresholds())
		c, err := metrics.Compare(r240, metrics.CompareOptions{Arms: [2]string{"A", "B"}, Seed: 20240601, Stream: 1, Replicates: 10_000})
		if err != nil {
			b.Fatal(err)
		}
		if c.Clusters != 40 {
			b.Fatal(fmt.Sprint(c.Clusters, " clusters"))
		}
		sum.Comparison = c
		var w bytes.Buffer
		if err := report.WriteJSON(&w, sum); err != nil {
			b.Fatal(err)
		}
		if err := report.WriteMarkdown(&w, sum); err != nil {
			b.Fatal(err)
		}
		in := f.in
		in.Results, in.Summary = r240, sum
		if err := report.WriteHTML(&w, in); err != nil {
			b.Fatal(err)
		}
	}
}
