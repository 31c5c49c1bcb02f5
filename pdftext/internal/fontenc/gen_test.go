package fontenc

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedUpToDate reruns gen.go and compares its output with the
// committed std14_afm.go. It needs the go command and the AFM files in the
// module cache, and is skipped without them or in -short mode.
func TestGeneratedUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	cache, err := exec.Command(goBin, "env", "GOMODCACHE").Output()
	if err != nil {
		t.Skipf("go env GOMODCACHE: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(cache)), "github.com", "pdfcpu", "pdfcpu@v0.15.0", "internal", "corefont", "Core14_AFMs")
	if _, err := os.Stat(filepath.Join(dir, "Helvetica.afm")); err != nil {
		t.Skipf("AFM files not in the module cache (go mod download github.com/pdfcpu/pdfcpu): %v", err)
	}
	out := filepath.Join(t.TempDir(), "std14_afm.go")
	cmd := exec.Command(goBin, "run", "gen.go", "-dir", dir, "-o", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run gen.go: %v\n%s", err, msg)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("std14_afm.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("std14_afm.go is stale: run go generate ./pdftext/internal/fontenc/")
	}
}
