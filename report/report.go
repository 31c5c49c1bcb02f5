package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/citecheck/citecheck/metrics"
)

// WriteJSON writes summary.json: the metrics, qualification, comparison
// and latency as other tools read them (format metrics.Format, schema
// docs/schema/summary.schema.json).
func WriteJSON(w io.Writer, s *metrics.Summary) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// WriteMarkdown writes summary.md: the per-session metric table with
// bounds and qualification, the arms pooled, the comparison and the
// latency audit, for people and for pasting into a review.
func WriteMarkdown(w io.Writer, s *metrics.Summary) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Evaluation summary (policy %s)\n\n", s.Policy)
	fmt.Fprintf(&b, "Bounds: LB counts unresolved verdicts as failures, UB as passes; [Wilson 95%%: lower end of LB, upper end of UB]. ")
	fmt.Fprintf(&b, "n/a: a zero denominator.\n\n")
	fmt.Fprintf(&b, "## Sessions\n\n")
	writeGroups(&b, s.Sessions, true)
	if len(s.OutsidePlan) > 0 {
		fmt.Fprintf(&b, "\n## Outside the plan\n\n")
		fmt.Fprintf(&b, "An arm or session the plan does not have: every attempt extra. Not a session, never qualified; counted as failures in the arm's pooled figures.\n\n")
		writeGroups(&b, s.OutsidePlan, true)
	}
	fmt.Fprintf(&b, "\n## Arms, all sessions pooled\n\n")
	writeGroups(&b, s.Arms, false)
	writeReviewedMarkdown(&b, s)
	fmt.Fprintf(&b, "\n## Findings\n\n")
	if err := WriteFindings(&b, s); err != nil {
		return err
	}
	var failures []string
	for _, g := range slices.Concat(s.Sessions, s.OutsidePlan) {
		failures = append(failures, g.Failures...)
	}
	if len(failures) > 0 {
		fmt.Fprintf(&b, "\nAttempts counted as failures (error, timeout, interrupted, missing, duplicate, extra): %s.\n", strings.Join(failures, ", "))
	}
	if c := s.Comparison; c != nil {
		fmt.Fprintf(&b, "\n## Paired comparison: %s - %s (%s)\n\n", c.Arms[0], c.Arms[1], c.Metric)
		fmt.Fprintf(&b, "%d question clusters, up to %d repeats per arm; bootstrap: %d whole-question replicates, PCG seed %d stream %d. ",
			c.Clusters, c.Repeats, c.Replicates, c.Seed[0], c.Seed[1])
		fmt.Fprintf(&b, "A %s.\n\n", c.Note)
		fmt.Fprintf(&b, "| bound | mean %s | mean %s | difference | bootstrap 95%% | SE paired | t-interval | SE clustered | correlation | MDE 80%% |\n", c.Arms[0], c.Arms[1])
		fmt.Fprintf(&b, "| --- | ---: | ---: | ---: | --- | ---: | --- | ---: | ---: | ---: |\n")
		for _, side := range []struct {
			name string
			s    metrics.Side
		}{{"LB", c.LB}, {"UB", c.UB}} {
			x := side.s
			fmt.Fprintf(&b, "| %s | %.4f | %.4f | %+.4f | [%+.4f, %+.4f] | %.4f | [%+.4f, %+.4f] | %s | %s | %.4f |\n", side.name,
				x.MeanA, x.MeanB, x.MeanDiff, x.Interval[0], x.Interval[1], x.SEPaired, x.TInterval[0], x.TInterval[1],
				optFloat(x.SEClustered, "%.4f"), optFloat(x.Correlation, "%.3f"), x.MDE80)
		}
		if len(c.Excluded) > 0 {
			fmt.Fprintf(&b, "\nQuestions in one arm only (not compared): %s.\n", strings.Join(c.Excluded, ", "))
		}
	}
	if len(s.Latency) > 0 {
		fmt.Fprintf(&b, "\n## Latency (ms)\n\n")
		fmt.Fprintf(&b, "| arm | phase | n | unavailable | median | p90 | max | over %d s |\n", metrics.DeadlineMS/1000)
		fmt.Fprintf(&b, "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |\n")
		for _, l := range s.Latency {
			if l.N == 0 && l.Phase != "total" {
				continue
			}
			over := ""
			if l.Phase == "total" {
				over = fmt.Sprint(len(l.OverDeadline))
				if len(l.OverDeadline) > 0 {
					over += ": " + strings.Join(l.OverDeadline, ", ")
				}
			}
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %s | %s | %s | %s |\n", l.Arm, l.Phase, l.N, l.Unavailable,
				optFloat(l.MedianMS, "%.0f"), optFloat(l.P90MS, "%.0f"), optFloat(l.MaxMS, "%.0f"), over)
		}
		fmt.Fprintf(&b, "\nStop reasons:")
		for _, g := range s.Arms {
			t := s.StopReason[g.Arm]
			var parts []string
			for _, k := range sortedKeys(t) {
				parts = append(parts, fmt.Sprintf("%s %d", k, t[k]))
			}
			fmt.Fprintf(&b, " %s: %s.", g.Arm, strings.Join(parts, ", "))
		}
		fmt.Fprintf(&b, "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeGroups(b *strings.Builder, gs []*metrics.Group, sessions bool) {
	head := "| arm |"
	sep := "| --- |"
	if sessions {
		head += " session |"
		sep += " ---: |"
	}
	head += " planned | supported | factual | citations | no citation | abstention |"
	sep += " ---: | --- | --- | --- | ---: | --- |"
	if sessions {
		head += " qualified |"
		sep += " --- |"
	}
	fmt.Fprintln(b, head)
	fmt.Fprintln(b, sep)
	for _, g := range gs {
		row := fmt.Sprintf("| %s |", g.Arm)
		if sessions {
			mark := ""
			if g.Attempts.Extra > 0 && !g.OutsidePlan() {
				mark = " (+" + plural(g.Attempts.Extra, "extra attempt") + ")"
			}
			row += fmt.Sprintf(" %d%s |", g.Session, mark)
		}
		row += fmt.Sprintf(" %d | %s | %s | %s%s | %d | %s |", g.Planned, cell(g.Supported), cell(g.Factual), cell(g.Citations),
			externalNote(g.ExternalCitations, ", "), g.MissingCitations, cell(g.Abstention))
		if sessions && g.Qualified == nil {
			row += " - |"
		}
		if sessions && g.Qualified != nil {
			if *g.Qualified {
				row += " PASS |"
			} else {
				row += " FAIL: " + g.Reasons() + " |"
			}
		}
		fmt.Fprintln(b, row)
	}
}

// externalNote says how many citations name sources outside the corpus
// (external_source): they are kept out of citation precision, so the
// reader learns of them beside it. Empty when there are none.
func externalNote(n int, sep string) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%s%d external (outside the corpus, not counted)", sep, n)
}

// cell renders a metric as "LB-UB (pass/unresolved/fail of n) [Wilson]".
func cell(m metrics.MetricJSON) string {
	if m.N == 0 {
		return "n/a (0)"
	}
	s := boundsRange(m, "-") + fmt.Sprintf(" (%d/%d/%d of %d)", m.Pass, m.Unresolved, m.Fail, m.N)
	if m.Wilson != nil {
		s += fmt.Sprintf(" [%.1f%%, %.1f%%]", 100*m.Wilson[0], 100*m.Wilson[1])
	}
	return s
}

// WriteTable writes the sessions and the arms pooled as an aligned text
// table for a terminal; a session that also holds extra attempts is marked
// "*". The groups outside the plan follow in a table of their own, never
// as sessions.
func WriteTable(w io.Writer, s *metrics.Summary) error {
	if s.Reviews != nil {
		fmt.Fprintf(w, "automatic (the rules alone):\n")
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "arm\tsession\tsupported\tfactual\tcitations\tabstention\tqualified\n")
	marked := 0
	for _, g := range s.Sessions {
		q := "-"
		if g.Qualified != nil {
			q = "PASS"
			if !*g.Qualified {
				q = "FAIL"
			}
		}
		session := fmt.Sprint(g.Session)
		if g.Attempts.Extra > 0 {
			session += "*"
			marked++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", g.Arm, session, bounds(g.Supported), bounds(g.Factual),
			bounds(g.Citations), bounds(g.Abstention), q)
	}
	for _, g := range s.Arms {
		fmt.Fprintf(tw, "%s\tall\t%s\t%s\t%s\t%s\t-\n", g.Arm, bounds(g.Supported), bounds(g.Factual), bounds(g.Citations), bounds(g.Abstention))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if marked > 0 {
		fmt.Fprintf(w, "* the session also holds extra attempts (questions its plan does not have), counted as failures\n")
	}
	if len(s.OutsidePlan) == 0 {
		return writeReviewedTable(w, s)
	}
	fmt.Fprintf(w, "\noutside the plan (an arm or session the plan does not have: not a session, counted as failures in the arm's \"all\" row):\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "arm\tsession\tattempts\tsupported\tfactual\tcitations\tabstention\n")
	for _, g := range s.OutsidePlan {
		fmt.Fprintf(tw, "%s\t%d\t%d extra\t%s\t%s\t%s\t%s\n", g.Arm, g.Session, g.Attempts.Extra, bounds(g.Supported), bounds(g.Factual),
			bounds(g.Citations), bounds(g.Abstention))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return writeReviewedTable(w, s)
}

// boundsRange renders a metric's lower and upper bounds, dash between,
// or one figure when they are equal.
func boundsRange(m metrics.MetricJSON, dash string) string {
	lb, ub := metrics.Percent(m.Metric.LB()), metrics.Percent(m.Metric.UB())
	if lb == ub {
		return lb
	}
	return lb + dash + ub
}

func bounds(m metrics.MetricJSON) string {
	if m.N == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%s of %d", boundsRange(m, "-"), m.N)
}

func optFloat(p *metrics.Float6, format string) string {
	if p == nil {
		return "n/a"
	}
	return fmt.Sprintf(format, *p)
}

func sortedKeys(t metrics.Tally) []string {
	ks := make([]string, 0, len(t))
	for k := range t {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
