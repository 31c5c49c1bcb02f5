package main

import (
	"bytes"
	"os"
	"testing"
	"time"
)

// TestProgressLines drives a line-mode progress with a fake clock: no line
// before 10 s, then at most one per 10 s, with the count done so far.
func TestProgressLines(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	now := start
	var w bytes.Buffer
	p := newLineProgress(&w, "extract", "documents", 249, func() time.Time { return now })
	step := func(d time.Duration, done int) {
		now = now.Add(d)
		for p.done < done {
			p.add("x.pdf")
		}
		p.tick()
	}
	step(3*time.Second, 40)
	step(6*time.Second, 80) // 9 s
	if w.Len() != 0 {
		t.Fatalf("a line before 10 s: %q", w.String())
	}
	step(1*time.Second, 120) // 10 s
	step(9*time.Second, 150) // 19 s: 9 s after the last line
	step(1*time.Second, 170) // 20 s
	step(0, 171)             // the same instant: no second line
	step(25*time.Second, 249)
	p.finish()
	want := "citecheck: extract: 120/249 documents\n" +
		"citecheck: extract: 170/249 documents\n" +
		"citecheck: extract: 249/249 documents\n"
	if w.String() != want {
		t.Errorf("lines:\n%s\nwant:\n%s", w.String(), want)
	}
}

// TestProgressShortRun: a run shorter than 10 s prints nothing, not even
// when it finishes; an unknown total shows the count alone.
func TestProgressShortRun(t *testing.T) {
	now := time.Unix(0, 0)
	var w bytes.Buffer
	p := newLineProgress(&w, "grade", "records graded", -1, func() time.Time { return now })
	for n := 1; n <= 1000; n++ {
		p.set(n)
		now = now.Add(9 * time.Millisecond)
		p.tick()
	}
	p.finish()
	if w.Len() != 0 {
		t.Errorf("a 9 s run printed %q", w.String())
	}
	now = now.Add(time.Second)
	p.tick()
	if got := w.String(); got != "citecheck: grade: 1000 records graded\n" {
		t.Errorf("unknown total: %q", got)
	}
}

// TestProgressNotAFile: stderr that is no file (a buffer, as in-process
// callers pass) gets no progress at all, so outputs stay reproducible.
func TestProgressNotAFile(t *testing.T) {
	var w bytes.Buffer
	p := startProgress(&w, "extract", "documents", 3)
	p.add("a.pdf")
	p.set(2)
	p.tick()
	p.finish()
	if w.Len() != 0 || p.bar != nil || p.stop != nil {
		t.Errorf("progress on a buffer: %q", w.String())
	}
}

// TestProgressOnAFile: a file that is not a terminal (a CI log) gets line
// mode, driven by its own ticker until finish.
func TestProgressOnAFile(t *testing.T) {
	f, err := openTemp(t)
	if err != nil {
		t.Fatal(err)
	}
	p := startProgress(f, "extract", "documents", 3)
	if p.bar != nil || p.w == nil || p.stop == nil {
		t.Fatalf("a plain file: bar %v, line writer %v", p.bar != nil, p.w != nil)
	}
	p.add("a.pdf")
	p.finish()
	p.finish() // idempotent
	b, _ := f.Seek(0, 1)
	if b != 0 {
		t.Errorf("a run shorter than 10 s wrote %d bytes", b)
	}
}

func openTemp(t *testing.T) (*os.File, error) {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err == nil {
		t.Cleanup(func() { f.Close() })
	}
	return f, err
}
