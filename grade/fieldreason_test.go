package grade

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// listedOutcome is the verdict FieldReasons gives r; r must be listed.
func listedOutcome(t *testing.T, r FieldReason) Outcome {
	t.Helper()
	for _, l := range FieldReasons {
		if l.Reason == r {
			return l.Outcome
		}
	}
	t.Errorf("field reason %s is not in FieldReasons", r)
	return ""
}

// TestFieldReasonsListed: each reason once, with a field verdict and a
// meaning that fits on a line of the docs' table.
func TestFieldReasonsListed(t *testing.T) {
	seen := map[FieldReason]bool{}
	for _, r := range FieldReasons {
		assert.False(t, seen[r.Reason], "%s listed twice", r.Reason)
		seen[r.Reason] = true
		assert.Contains(t, []Outcome{Correct, Incorrect, Unresolved}, r.Outcome, "%s: a field verdict", r.Reason)
		assert.NotEmpty(t, r.Meaning, r.Reason)
		assert.NotContains(t, r.Meaning, "|", "%s: the meaning is a cell of a Markdown table", r.Reason)
		assert.NotContains(t, r.Meaning, "\n", r.Reason)
	}
}

// TestDecisionAttemptReasons: an attempt that did not answer or must not
// count fails every field with its status's reason, whichever way it
// reaches the grader.
func TestDecisionAttemptReasons(t *testing.T) {
	g := decisionGrader(t)
	// run is a record with the run's status; planned a correct answer the
	// plan says is a duplicate or an extra.
	run := func(status string) Result {
		rec := attempt("samples", "Samples: 12 samples per batch")
		rec.Status = status
		return g.Grade(rec, "t", AttemptOK, 1)
	}
	planned := func(status string) Result {
		return g.Grade(attempt("samples", "Samples: 12 samples per batch"), "t", status, 1)
	}
	tests := []struct {
		result Result
		want   FieldReason
		why    string
	}{
		{run(AttemptError), FieldAttemptError, "the run's status"},
		{run(AttemptTimeout), FieldAttemptTimeout, "the run's status"},
		{run(AttemptInterrupted), FieldAttemptInterrupted, "the run's status"},
		{g.Missing("A", 1, "samples", 1), FieldAttemptMissing, "planned, no record"},
		{planned(AttemptDuplicate), FieldAttemptDuplicate, "a second record for one planned attempt"},
		{planned(AttemptExtra), FieldAttemptExtra, "a record the plan does not have"},
	}
	for _, tt := range tests {
		fv := tt.result.Fields["samples"]
		assert.Equal(t, []FieldReason{tt.want}, fv.Reasons, tt.why)
		assert.Equal(t, listedOutcome(t, tt.want), fv.Verdict, tt.why)
	}
}

// TestFieldReasonsInGradingDoc holds docs/grading.md's table of field
// reasons to FieldReasons, row for row.
func TestFieldReasonsInGradingDoc(t *testing.T) {
	doc, err := os.ReadFile("../docs/grading.md")
	require.NoError(t, err)
	var got []string
	in := false
	for _, line := range strings.Split(string(doc), "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == "## Field reasons"
		case in && strings.HasPrefix(line, "| `"):
			// The last column, the readings a reason rests on, is the
			// doc's own.
			got = append(got, line[:strings.LastIndex(strings.TrimSuffix(line, " |"), " |")+2])
		}
	}
	want := make([]string, len(FieldReasons))
	for i, r := range FieldReasons {
		want[i] = fmt.Sprintf("| `%s` | %s | %s |", r.Reason, r.Outcome, r.Meaning)
	}
	row := func(rows []string, i int) string {
		if i < len(rows) {
			return rows[i]
		}
		return "(none)"
	}
	for i := range max(len(want), len(got)) {
		if !assert.Equal(t, row(want, i), row(got, i), "docs/grading.md's field reasons, row %d", i+1) {
			t.Logf("the rows FieldReasons gives:\n%s", strings.Join(want, "\n"))
			return
		}
	}
}
