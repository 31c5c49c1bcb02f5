package metrics_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/metrics"
)

// A tool that has results.jsonl (written by "citecheck grade", or by
// anything that writes the format) computes the metrics as "citecheck
// report" does: read every result, add it to a Builder, and take the
// summary under the policy's thresholds. Each metric has a lower bound
// (unresolved as fail) and an upper bound (unresolved as pass).
func ExampleBuilder() {
	results := `{"arm":"A","session":1,"question":"Q01","position":1,"attempt":"ok","kind":"answerable","fields":{},"citations":[],"factual":"pass","supported":"pass","abstention":null,"review":[],"normalization":{"quote":"quote/v2","value":"value/v2"},"response":"","frozen":true}
{"arm":"A","session":1,"question":"Q02","position":2,"attempt":"ok","kind":"answerable","fields":{},"citations":[],"factual":"pass","supported":"unresolved","abstention":null,"review":[],"normalization":{"quote":"quote/v2","value":"value/v2"},"response":"","frozen":true}
{"arm":"A","session":1,"question":"Q03","position":3,"attempt":"ok","kind":"unknown","fields":{},"citations":[],"factual":null,"supported":null,"abstention":"pass","review":[],"normalization":{"quote":"quote/v2","value":"value/v2"},"response":"UNKNOWN","frozen":true}
`
	b := metrics.NewBuilder()
	err := grade.ReadResults(strings.NewReader(results), "results.jsonl", func(_ int, r *grade.Result) error {
		b.Add(r)
		return nil
	})
	if err != nil {
		log.Fatal(err) // an *inputerr.Error naming the file, line and field
	}
	s := b.Summary(metrics.DefaultThresholds())
	for _, g := range s.Sessions {
		fmt.Printf("%s %d: supported %s to %s of %d, abstention %s of %d, qualified %v\n", g.Arm, g.Session,
			metrics.Percent(g.Supported.Metric.LB()), metrics.Percent(g.Supported.Metric.UB()), g.Supported.N,
			metrics.Percent(g.Abstention.Metric.LB()), g.Abstention.N, *g.Qualified)
	}
	// Output:
	// A 1: supported 50.0% to 100.0% of 2, abstention 100.0% of 1, qualified false
}
