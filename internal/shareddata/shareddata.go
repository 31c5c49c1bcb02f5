// Package shareddata finds the test data that lives beside the checkout, in
// ../shared next to the module root: the PDF corpora, the reference
// vectors, the specifications. It is never copied into the repository, so
// a test that needs it calls Path, which skips the test with a message
// naming the missing path when it is absent. Only tests import this
// package.
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
