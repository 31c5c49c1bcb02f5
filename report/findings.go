package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/citecheck/citecheck/metrics"
)

// flagShown is how many attempts a line of the plan's accounting names
// before it counts the rest.
const flagShown = 8

// WriteFindings says in words what the summary shows, as the console and
// summary.md print it after the tables: how many planned attempts were
// graded and answered; per arm, the sessions that qualify and, for every
// one that does not, each reason (a bound under its threshold, each class
// of failed attempt); the paired comparison; then one line per accounting
// flag of the plan (missing, duplicate, extra, out_of_order) with its
// count and the attempts it flags. The text is Markdown that reads as
// plain text.
func WriteFindings(w io.Writer, s *metrics.Summary) error {
	var b strings.Builder
	planned, answered, outside := 0, 0, 0
	for _, g := range s.Sessions {
		planned += g.Planned
		answered += g.Attempts.OK
	}
	for _, g := range s.OutsidePlan {
		outside += len(g.Failures)
	}
	fmt.Fprintf(&b, "In short: %d planned attempts graded, %d answered", planned, answered)
	if outside > 0 {
		fmt.Fprintf(&b, "; %s outside the plan (listed apart, counted as failures of the arm)", plural(outside, "attempt"))
	}
	b.WriteString(".\n\n")
	for _, arm := range s.Arms {
		writeQualified(&b, s, arm.Arm, automatic)
	}
	if c := s.Comparison; c != nil {
		writeComparisonFinding(&b, c, "")
	}
	writeReviewedFindings(&b, s)
	b.WriteString("\nPlan accounting:\n")
	for _, f := range s.Accounting() {
		fmt.Fprintf(&b, "- %s: %d", f.Name, len(f.Attempts))
		if n := len(f.Attempts); n > 0 {
			shown := f.Attempts[:min(n, flagShown)]
			fmt.Fprintf(&b, " (%s", strings.Join(shown, ", "))
			if n > len(shown) {
				fmt.Fprintf(&b, " and %d more", n-len(shown))
			}
			b.WriteString(")")
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeComparisonFinding says the paired comparison in one line; after
// names the figures ("" for the automatic ones).
func writeComparisonFinding(b *strings.Builder, c *metrics.Comparison, after string) {
	fmt.Fprintf(b, "- %s - %s on %s over %d questions%s: %+.3f to %+.3f (unresolved as fail / as pass), bootstrap 95%% envelopes [%+.3f, %+.3f] and [%+.3f, %+.3f]: a %s.\n",
		c.Arms[0], c.Arms[1], c.Metric, c.Clusters, after, c.LB.MeanDiff, c.UB.MeanDiff, c.LB.Interval[0], c.LB.Interval[1],
		c.UB.Interval[0], c.UB.Interval[1], c.Note)
}

// qualification is a session's qualification and its reasons, as one
// kind of figures (automatic, or after review) has them.
type qualification func(g *metrics.Group) (qualified *bool, reasons []string)

func automatic(g *metrics.Group) (*bool, []string) { return g.Qualified, g.Qualification }

// writeQualified writes one arm's line of findings: the sessions that
// qualify and, for every one that does not, each reason.
func writeQualified(b *strings.Builder, s *metrics.Summary, arm string, q qualification) {
	var pass, fail []string
	var why []string
	for _, g := range s.Sessions {
		ok, reasons := q(g)
		if g.Arm != arm || ok == nil {
			continue
		}
		if *ok {
			pass = append(pass, fmt.Sprint(g.Session))
			continue
		}
		fail = append(fail, fmt.Sprint(g.Session))
		why = append(why, fmt.Sprintf("  - session %d: %s\n", g.Session, strings.Join(reasons, "; ")))
	}
	switch {
	case len(pass) == 0 && len(fail) == 0:
		fmt.Fprintf(b, "- Arm %s has no planned session.\n", arm)
	case len(fail) == 0:
		fmt.Fprintf(b, "- Arm %s qualifies in every session.\n", arm)
	case len(pass) == 0:
		fmt.Fprintf(b, "- Arm %s qualifies in no session:\n", arm)
	default:
		fmt.Fprintf(b, "- Arm %s qualifies in %s %s, not in %s %s:\n", arm, sessionWord(pass), list(pass, "and"), sessionWord(fail), list(fail, "or"))
	}
	b.WriteString(strings.Join(why, ""))
}

func sessionWord(xs []string) string {
	if len(xs) == 1 {
		return "session"
	}
	return "sessions"
}

// list joins "a", "b" and "c" as "a, b or c" (conj "or").
func list(xs []string, conj string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " " + conj + " " + xs[len(xs)-1]
}
