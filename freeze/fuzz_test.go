package freeze_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/citecheck/citecheck/freeze"
)

// FuzzParseLock: Parse never panics, refuses with a *ParseError, and since
// it accepts only canonical lines, what it accepts encodes back to the same
// bytes.
func FuzzParseLock(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "fixtures.lock")); err == nil {
		f.Add(b)
	}
	f.Add([]byte("citecheck-lock/1\nquestion \"Q 1\" blake3:00\nroot x\n"))
	f.Add([]byte("citecheck-lock/1\nroot \n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := freeze.Parse(data, "f.lock")
		if err != nil {
			var pe *freeze.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("refusal is not a *ParseError: %T %v", err, err)
			}
			return
		}
		if got := l.Encode(); !bytes.Equal(got, data) {
			t.Fatalf("accepted %q but encodes as %q", data, got)
		}
	})
}
