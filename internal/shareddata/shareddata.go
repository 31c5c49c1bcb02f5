package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

// Path returns ../shared/rel beside the module root (rel in slash form; ""
// for the folder itself), skipping the test when it does not exist.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Skipf("shared test data: no go.mod above %s, cannot locate ../shared", dir)
		}
		dir = parent
	}
	p := filepath.Join(filepath.Dir(dir), "shared", filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("shared test data %s is absent: this test needs ../shared beside the checkout", p)
	}
	return p
}
