package report_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/metrics"
	"github.com/citecheck/citecheck/report"
)

// TestHTMLMatchesSummaryJSON: every group's bounds, counts and Wilson
// ends and the comparison's differences, as summary.json gives them, are
// on report.html and in summary.md.
func TestHTMLMatchesSummaryJSON(t *testing.T) {
	f := demo(t)
	page := html.UnescapeString(render(t, f.in))
	var js bytes.Buffer
	if err := report.WriteJSON(&js, f.in.Summary); err != nil {
		t.Fatal(err)
	}
	var s struct {
		Sessions, Arms []struct {
			Arm                                       string
			Session                                   int
			Supported, Factual, Citations, Abstention struct {
				Pass, Fail, Unresolved, N int
				LB, UB                    *float64
				Wilson95                  *[2]float64
			}
		}
		Comparison struct {
			LB, UB struct {
				MeanDiff float64 `json:"mean_diff"`
			}
		}
	}
	if err := json.Unmarshal(js.Bytes(), &s); err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	if err := report.WriteMarkdown(&md, f.in.Summary); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, g := range append(s.Sessions, s.Arms...) {
		for _, m := range []struct {
			Pass, Fail, Unresolved, N int
			LB, UB                    *float64
			Wilson95                  *[2]float64
		}{g.Supported, g.Factual, g.Citations, g.Abstention} {
			if m.N == 0 {
				continue
			}
			counts := fmt.Sprintf("%d/%d/%d of %d", m.Pass, m.Unresolved, m.Fail, m.N)
			text := fmt.Sprintf("%.1f%%", *m.LB*100)
			if *m.UB != *m.LB {
				text += fmt.Sprintf("–%.1f%%", *m.UB*100)
			}
			wil := fmt.Sprintf("Wilson %.1f–%.1f%%", 100*m.Wilson95[0], 100*m.Wilson95[1])
			for _, want := range []string{counts, text, wil} {
				if !strings.Contains(page, want) {
					t.Errorf("%s/%d: %q not on report.html", g.Arm, g.Session, want)
				}
			}
			if !strings.Contains(md.String(), strings.ReplaceAll(text, "–", "-")) {
				t.Errorf("%s/%d: %q not in summary.md", g.Arm, g.Session, text)
			}
			checked++
		}
	}
	for _, d := range []float64{s.Comparison.LB.MeanDiff, s.Comparison.UB.MeanDiff} {
		if want := fmt.Sprintf("%+.4f", d); !strings.Contains(page, want) {
			t.Errorf("mean difference %s not on report.html", want)
		}
	}
	t.Logf("%d metric cells checked", checked)
	_ = metrics.Percent
}
