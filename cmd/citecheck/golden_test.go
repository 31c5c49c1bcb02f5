package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// testdata is the golden folder, made absolute before any test changes
// directory (t.Chdir).
var testdata, _ = filepath.Abs("testdata")

// checkGolden compares got with the golden file testdata/<name> (name uses
// forward slashes), or rewrites it when the test runs with -update. On a
// mismatch it reports the first differing line.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join(testdata, filepath.FromSlash(name))
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file: %v (run go test -update to create it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(gl) || i < len(wl); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w || i >= len(gl) || i >= len(wl) {
			t.Errorf("%s differs at line %d (run go test -update to accept):\n got: %q\nwant: %q", path, i+1, g, w)
			return
		}
	}
	t.Errorf("%s differs (run go test -update to accept)", path)
}
