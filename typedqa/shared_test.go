package typedqa

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// sharedPath locates a file under ../shared beside the module root (the
// cross-check vectors and specs live there, outside the repository) and
// skips the test when it is absent.
func sharedPath(t testing.TB, rel string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skipf("shared data: no go.mod above %s, cannot locate ../shared", dir)
		}
		dir = parent
	}
	p := filepath.Join(dir, "..", "shared", filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared data absent: %s not found (the vectors live in ../shared beside the repository root): %v", p, err)
	}
	return p
}

// loadShared decodes a JSON file under ../shared.
func loadShared(t testing.TB, rel string, v any) {
	t.Helper()
	data, err := os.ReadFile(sharedPath(t, rel))
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
