package main

import (
	"fmt"
	"io"
	"slices"
	"text/tabwriter"

	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/metrics"
	"github.com/citecheck/citecheck/plan"
)

// gradeTally counts what grade writes with the report's counter
// (metrics.Builder), fed by grade.RunOptions.Written, and lists the
// results that ran but do not pass.
type gradeTally struct {
	b       *metrics.Builder
	failing *failingList // may be nil
	allPass bool
}

func newGradeTally(failing *failingList) *gradeTally {
	return &gradeTally{b: metrics.NewBuilder(), failing: failing, allPass: true}
}

func (t *gradeTally) add(r *grade.Result) {
	t.b.Add(r)
	if r.Passes() {
		return
	}
	t.allPass = false
	if t.failing != nil && r.Attempt != grade.AttemptMissing {
		t.failing.add(r) // missing work is counted, not listed
	}
}

// gradeSummary is what grade prints after grading: the table's rows,
// how many results it wrote and how many planned attempts never ran, and
// whether every result passes (none written is not a pass).
type gradeSummary struct {
	rows             []gradeRow
	results, missing int
	allPass          bool
	// hints say, for an arm whose every record was extra, which field
	// likely disagrees with the plan (grade.ArmHint).
	hints []string
}

func (t *gradeTally) summary(p *plan.Plan) *gradeSummary {
	s := t.b.Summary(metrics.DefaultThresholds())
	total := metrics.Pool("", s.Arms)
	n := total.Attempts.Total()
	return &gradeSummary{rows: gradeRows(s, total), results: n, missing: total.Attempts.Missing, allPass: t.allPass && n > 0,
		hints: armHints(p, s)}
}

// armHints are the hints of the arms none of whose records answered a
// planned attempt: every result of theirs outside the plan or missing.
func armHints(p *plan.Plan, s *metrics.Summary) []string {
	var hints []string
	for _, arm := range s.Arms {
		var sessions []int
		for _, g := range s.OutsidePlan {
			if g.Arm == arm.Arm {
				sessions = append(sessions, g.Session)
			}
		}
		ran := 0
		for _, g := range s.Sessions {
			if g.Arm == arm.Arm {
				ran += g.Attempts.Total() - g.Attempts.Missing - g.Attempts.Extra
			}
		}
		if len(sessions) > 0 && ran == 0 {
			if h := grade.ArmHint(p, arm.Arm, sessions); h != "" {
				hints = append(hints, h)
			}
		}
	}
	return hints
}

// gradeRow is one row of grade's table and of its --json output: an arm's
// session, the arm over its sessions (Session 0) or every arm (Arm "").
type gradeRow struct {
	Arm      string `json:"arm"`
	Session  int    `json:"session"`
	Attempts int    `json:"attempts"`
	// NotOK counts attempts that are not "ok", Extra the extra ones.
	NotOK int `json:"not_ok"`
	Extra int `json:"extra"`
	// OutsidePlan: a session whose every attempt is extra, an arm or
	// session the plan does not have.
	OutsidePlan bool `json:"outside_plan,omitempty"`
	// Answerable and Unknown count every result of the kind, duplicates
	// and extras too.
	Answerable int     `json:"answerable"`
	Factual    counts3 `json:"factual"`
	Supported  counts3 `json:"supported"`
	Unknown    int     `json:"unknown"`
	Abstention counts3 `json:"abstention"`
	Citations  counts3 `json:"citations"`
	// MissingCitations, External and Unread as metrics.Group counts them.
	MissingCitations int `json:"missing_citations"`
	External         int `json:"external_citations"`
	Unread           int `json:"unread"`
}

// counts3 is a metric's counts as the row shows them.
type counts3 struct {
	Pass       int `json:"pass"`
	Fail       int `json:"fail"`
	Unresolved int `json:"unresolved"`
}

func countsOf(m metrics.MetricJSON) counts3 {
	return counts3{Pass: m.Pass, Fail: m.Fail, Unresolved: m.Unresolved}
}

func rowOf(g *metrics.Group, outside bool) gradeRow {
	return gradeRow{Arm: g.Arm, Session: g.Session, Attempts: g.Attempts.Total(), NotOK: g.Attempts.Total() - g.Attempts.OK,
		Extra: g.Attempts.Extra, OutsidePlan: outside,
		// Every result counts in its kind's verdicts: factual for answerable
		// questions, abstention for unknown ones.
		Answerable: g.Factual.N, Factual: countsOf(g.Factual), Supported: countsOf(g.Supported),
		Unknown: g.Abstention.N, Abstention: countsOf(g.Abstention), Citations: countsOf(g.Citations),
		MissingCitations: g.MissingCitations, External: g.ExternalCitations, Unread: g.Unread}
}

// gradeRows lists, per arm in order, its sessions in order (those
// outside the plan among them, marked), then the arm over its sessions
// when it has several; last, total over every arm.
func gradeRows(s *metrics.Summary, total *metrics.Group) []gradeRow {
	sessions := slices.Concat(s.Sessions, s.OutsidePlan)
	slices.SortStableFunc(sessions, func(a, b *metrics.Group) int { return a.Session - b.Session })
	var rows []gradeRow
	for _, arm := range s.Arms {
		n := 0
		for _, g := range sessions {
			if g.Arm == arm.Arm {
				rows = append(rows, rowOf(g, g.OutsidePlan()))
				n++
			}
		}
		if n > 1 {
			rows = append(rows, rowOf(arm, false))
		}
	}
	return append(rows, rowOf(total, false))
}

// writeGradeTable prints the summary rows: "p/u/f" is pass, unresolved,
// fail. Rows outside the plan (every attempt extra) follow in a table of
// their own, never among the sessions.
func writeGradeTable(w io.Writer, sum *gradeSummary) {
	var planned, outside []gradeRow
	for _, r := range sum.rows {
		if r.OutsidePlan {
			outside = append(outside, r)
		} else {
			planned = append(planned, r)
		}
	}
	// External citations, counted apart, and results with citations not
	// read get a column when there are any.
	total := sum.rows[len(sum.rows)-1]
	external, unread := total.External > 0, total.Unread > 0
	writeGradeRows(w, planned, external, unread)
	if len(outside) > 0 {
		fmt.Fprintf(w, "\noutside the plan (an arm or session the plan does not have: not a session, counted in the arm's \"all\" row):\n")
		writeGradeRows(w, outside, external, unread)
	}
}

func writeGradeRows(w io.Writer, rows []gradeRow, external, unread bool) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	header := "arm\tsession\tattempts\tnot_ok\tanswerable\tfactual p/u/f\tsupported p/u/f\tunknown\tabstention p/u/f\tcitations p/u/f\t"
	if external {
		header += "external\t"
	}
	header += "no_citation\t"
	if unread {
		header += "unread\t"
	}
	fmt.Fprintln(tw, header)
	for _, r := range rows {
		arm, session := r.Arm, fmt.Sprint(r.Session)
		if arm == "" {
			arm = "all"
		}
		if r.Session == 0 {
			session = "all"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\t%d\t%s\t%s\t", arm, session, r.Attempts, r.NotOK, r.Answerable,
			puf(r.Factual), puf(r.Supported), r.Unknown, puf(r.Abstention), puf(r.Citations))
		if external {
			fmt.Fprintf(tw, "%d\t", r.External)
		}
		fmt.Fprintf(tw, "%d\t", r.MissingCitations)
		if unread {
			fmt.Fprintf(tw, "%d\t", r.Unread)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

func puf(c counts3) string { return fmt.Sprintf("%d/%d/%d", c.Pass, c.Unresolved, c.Fail) }
