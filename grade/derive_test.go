package grade

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDeriveIsGrades: Derive on a graded result gives the derived
// verdicts Grade gave it, so that a review's recomputation follows the
// grader's rules.
func TestDeriveIsGrades(t *testing.T) {
	g := decisionGrader(t)
	good := cite("qa.pdf", "The supplier shall draw 12 samples per batch for dimensional checks.", 1)
	bad := cite("qa.pdf", "Samples are drawn by the buyer.", 1)
	bad.ID = "c2"
	for _, tc := range []struct {
		why string
		rec func() Result
	}{
		{"pass, a failing extra citation beside it", func() Result {
			return g.Grade(attempt("samples", "Samples: 12 samples per batch", good, bad), "t", AttemptOK, 1)
		}},
		{"unresolved field", func() Result {
			return g.Grade(attempt("samples", "Samples: 12 samples per lot", good), "t", AttemptOK, 1)
		}},
		{"no citation", func() Result { return g.Grade(attempt("samples", "Samples: 12 samples per batch"), "t", AttemptOK, 1) }},
		{"unknown question", func() Result { return g.Grade(attempt("coolant", "UNKNOWN"), "t", AttemptOK, 1) }},
		{"missing attempt", func() Result { return g.Missing("A", 1, "samples", 1) }},
	} {
		r := tc.rec()
		want := r
		r.Factual, r.Supported = nil, nil
		if r.Kind != KindAnswerable || r.Attempt != AttemptOK {
			r.Factual, r.Supported = want.Factual, want.Supported
		}
		r.Derive()
		assert.Equal(t, want.Factual, r.Factual, tc.why)
		assert.Equal(t, want.Supported, r.Supported, tc.why)
	}
}

// TestDeriveFromParts: the three-valued ANDs, one case per way a part
// decides.
func TestDeriveFromParts(t *testing.T) {
	fv := func(o Outcome) FieldVerdict { return FieldVerdict{Verdict: o} }
	for _, tc := range []struct {
		why                string
		fields             []Outcome
		claims             []Outcome
		factual, supported Outcome
	}{
		{"every part passes", []Outcome{Correct, Correct}, []Outcome{Pass}, Pass, Pass},
		{"an unresolved field leaves both open", []Outcome{Correct, Unresolved}, []Outcome{Pass}, Unresolved, Unresolved},
		{"an incorrect field fails both, whatever else is open", []Outcome{Incorrect, Unresolved}, []Outcome{Unresolved}, Fail, Fail},
		{"a claim without support fails supported only", []Outcome{Correct}, []Outcome{Fail}, Pass, Fail},
		{"an open claim leaves supported open", []Outcome{Correct}, []Outcome{Pass, Unresolved}, Pass, Unresolved},
	} {
		r := Result{Kind: KindAnswerable, Attempt: AttemptOK, Fields: map[string]FieldVerdict{}}
		for i, o := range tc.fields {
			r.Fields[string(rune('a'+i))] = fv(o)
		}
		for _, o := range tc.claims {
			r.Claims = append(r.Claims, ClaimResult{Field: "a", Supported: o})
		}
		r.Derive()
		assert.Equal(t, tc.factual, *r.Factual, tc.why)
		assert.Equal(t, tc.supported, *r.Supported, tc.why)
	}
}
