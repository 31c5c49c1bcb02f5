package freeze_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/citecheck/citecheck/freeze"
)

// TestEditedLockNamingFIFODoesNotHang: a lock edited to name a FIFO as
// its reference (root no longer matching) must be refused, not hang Check.
func TestEditedLockNamingFIFODoesNotHang(t *testing.T) {
	dir := frozen(t)
	lock := inputs(dir).LockPath
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.json"), 0o644); err != nil {
		t.Skip(err)
	}
	b, err := os.ReadFile(lock)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "reference" {
			f[1] = "fifo.json"
			line = strings.Join(f, " ")
		}
		out = append(out, line)
	}
	if err := os.WriteFile(lock, []byte(strings.Join(out, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		rep, err := freeze.Check(lock, freeze.CurrentToolchain())
		if err == nil && rep.OK() {
			t.Error("edited lock accepted")
		}
		done <- err
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		// unblock the reader so the test process can exit
		if f, err := os.OpenFile(filepath.Join(dir, "fifo.json"), os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		t.Fatal("freeze.Check hung reading a FIFO named by an edited lock (root mismatch already known)")
	}
}

// TestPageTextFIFODoesNotHang: a FIFO put in a corpus store in place of a
// page text reads as empty (a changed page), never blocks verification.
func TestPageTextFIFODoesNotHang(t *testing.T) {
	dir := frozen(t)
	pages, err := filepath.Glob(filepath.Join(inputs(dir).CorpusDir, "text", "*", "0001.txt"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no page text to replace: %v", err)
	}
	if err := os.Remove(pages[0]); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(pages[0], 0o644); err != nil {
		t.Skip(err)
	}
	done := make(chan bool, 1)
	go func() {
		rep, err := freeze.Check(inputs(dir).LockPath, freeze.CurrentToolchain())
		done <- err == nil && rep.OK()
	}()
	select {
	case ok := <-done:
		if ok {
			t.Error("a FIFO in place of a page text verified")
		}
	case <-time.After(10 * time.Second):
		if f, err := os.OpenFile(pages[0], os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		t.Fatal("freeze.Check hung reading a FIFO in the corpus")
	}
}
