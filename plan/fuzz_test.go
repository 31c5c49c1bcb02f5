package plan_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/plan"
)

// FuzzDecodePlan: the decoder never panics, refuses with *DecodeError, and
// whatever it accepts encodes back to a plan it accepts again, unchanged.
func FuzzDecodePlan(f *testing.F) {
	f.Add(fixtures.Plan())
	f.Add([]byte(`{"format": "citecheck-plan/1"}`))
	f.Add(bytes.Replace(fixtures.Plan(), []byte(`"Q06", "Q01"`), []byte(`"Q01", "Q06"`), 1))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := plan.Decode(data, "p.json")
		if err != nil {
			var de *plan.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("refusal is not a *DecodeError: %T %v", err, err)
			}
			return
		}
		back, err := plan.Decode(p.Encode(), "p.json")
		if err != nil {
			t.Fatalf("re-encoded plan refused: %v", err)
		}
		if !bytes.Equal(back.Encode(), p.Encode()) {
			t.Fatal("encode/decode is not stable")
		}
	})
}
