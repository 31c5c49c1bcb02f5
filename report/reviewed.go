package report

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/citecheck/citecheck/metrics"
)

// reviewsText says in one line what the reviews decided: "38 items, 38
// decided (reviewer ana), 0 disagreements, 0 undecided".
func reviewsText(rv *metrics.Reviews) string {
	who := "no reviewer"
	if len(rv.Reviewers) > 0 {
		who = plural(len(rv.Reviewers), "reviewer") + ": " + strings.Join(rv.Reviewers, ", ")
	}
	return fmt.Sprintf("%s, %d decided (%s), %s, %d undecided", plural(rv.Items, "item"), rv.Decided, who,
		plural(len(rv.Disagreements), "disagreement"), rv.Undecided)
}

// reviewFiles names the decisions files applied.
func reviewFiles(rv *metrics.Reviews) string {
	var names []string
	for _, f := range rv.Files {
		names = append(names, f.File)
	}
	return strings.Join(names, ", ")
}

// reviewedOf is a group's figures after review, with the automatic ones
// standing in when the group has none (a summary without reviews).
func reviewedOf(g *metrics.Group) *metrics.Reviewed {
	if g.Reviewed != nil {
		return g.Reviewed
	}
	return &metrics.Reviewed{Supported: g.Supported, Factual: g.Factual, Abstention: g.Abstention, Citations: g.Citations,
		Qualified: g.Qualified, Qualification: g.Qualification}
}

func afterReview(g *metrics.Group) (*bool, []string) {
	r := reviewedOf(g)
	return r.Qualified, r.Qualification
}

// writeReviewedTable writes, when the summary applied reviews, the
// sessions and arms after review as WriteTable writes the automatic ones.
func writeReviewedTable(w io.Writer, s *metrics.Summary) error {
	rv := s.Reviews
	if rv == nil {
		return nil
	}
	fmt.Fprintf(w, "\nafter review (%s; %s):\n", reviewFiles(rv), reviewsText(rv))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "arm\tsession\tsupported\tfactual\tcitations\tabstention\tqualified\n")
	for _, g := range s.Sessions {
		r := reviewedOf(g)
		q := "-"
		if r.Qualified != nil {
			q = map[bool]string{true: "PASS", false: "FAIL"}[*r.Qualified]
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\n", g.Arm, g.Session, bounds(r.Supported), bounds(r.Factual), bounds(r.Citations), bounds(r.Abstention), q)
	}
	for _, g := range s.Arms {
		r := reviewedOf(g)
		fmt.Fprintf(tw, "%s\tall\t%s\t%s\t%s\t%s\t-\n", g.Arm, bounds(r.Supported), bounds(r.Factual), bounds(r.Citations), bounds(r.Abstention))
	}
	return tw.Flush()
}

// writeReviewedMarkdown writes summary.md's sections after review: the
// reviews applied, and the sessions and arms with their reviewed figures.
func writeReviewedMarkdown(b *strings.Builder, s *metrics.Summary) {
	rv := s.Reviews
	if rv == nil {
		return
	}
	fmt.Fprintf(b, "\n## After review\n\n")
	fmt.Fprintf(b, "The figures above are the rules' alone; these count the items a source review decided (docs/review.md): %s.\n\n", reviewsText(rv))
	for _, f := range rv.Files {
		fmt.Fprintf(b, "- `%s`: %s, %s\n", f.File, plural(f.Decisions, "decision"), f.BLAKE3)
	}
	fmt.Fprintf(b, "\n### Sessions after review\n\n")
	writeGroups(b, reviewedGroups(s.Sessions), true)
	fmt.Fprintf(b, "\n### Arms after review\n\n")
	writeGroups(b, reviewedGroups(s.Arms), false)
}

// reviewedGroups are copies of groups whose figures are their reviewed
// ones, for the tables that show them.
func reviewedGroups(gs []*metrics.Group) []*metrics.Group {
	out := make([]*metrics.Group, len(gs))
	for i, g := range gs {
		c := *g
		r := reviewedOf(g)
		c.Supported, c.Factual, c.Abstention, c.Citations = r.Supported, r.Factual, r.Abstention, r.Citations
		c.Qualified, c.Qualification = r.Qualified, r.Qualification
		out[i] = &c
	}
	return out
}

// writeReviewedFindings writes, when the summary applied reviews, each
// arm's qualification after review, the reviewers' agreement and the
// items they disagree on.
func writeReviewedFindings(b *strings.Builder, s *metrics.Summary) {
	rv := s.Reviews
	if rv == nil {
		return
	}
	fmt.Fprintf(b, "\nAfter review (%s; %s):\n", reviewFiles(rv), reviewsText(rv))
	for _, arm := range s.Arms {
		writeQualified(b, s, arm.Arm, afterReview)
	}
	if c := rv.Comparison; c != nil {
		writeComparisonFinding(b, c, " after review")
	}
	for _, a := range rv.Agreement {
		kappa := "undefined (one verdict throughout)"
		if a.Kappa.R != nil {
			kappa = metrics.Round6(a.Kappa.R)
		}
		fmt.Fprintf(b, "- Reviewers %s and %s agree on %d of %d items (%s), Cohen's kappa %s.\n", a.Reviewers[0], a.Reviewers[1], a.Agreed, a.Items,
			metrics.Percent(a.Share.R), kappa)
	}
	for _, d := range rv.Disagreements {
		var vs []string
		for _, who := range sortedNames(d.Verdicts) {
			vs = append(vs, who+" "+d.Verdicts[who])
		}
		fmt.Fprintf(b, "- Disagreement, left unresolved: %s %s %s (%s).\n", d.Question, d.Kind, d.Hash, strings.Join(vs, ", "))
	}
}

func sortedNames(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
