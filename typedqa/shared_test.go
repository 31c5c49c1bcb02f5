package typedqa

import (
	"github.com/citecheck/citecheck/internal/shareddata"

	"encoding/json"
	"fmt"
	"math"
	"os"
	"testing"
)

// loadShared decodes a JSON file under ../shared.
func loadShared(t testing.TB, rel string, v any) {
	t.Helper()
	data, err := os.ReadFile(shareddata.Path(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
}

// vfloat is a vector number: a JSON number, or "inf", "-inf", "nan".
type vfloat float64

func (f *vfloat) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		switch s {
		case "inf":
			*f = vfloat(math.Inf(1))
		case "-inf":
			*f = vfloat(math.Inf(-1))
		case "nan":
			*f = vfloat(math.NaN())
		default:
			return fmt.Errorf("unexpected number string %q", s)
		}
		return nil
	}
	var x float64
	if err := json.Unmarshal(b, &x); err != nil {
		return err
	}
	*f = vfloat(x)
	return nil
}
