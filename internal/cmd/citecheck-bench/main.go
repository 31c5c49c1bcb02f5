// Command citecheck-bench measures citecheck against the reference tools
// installed on the machine; "make bench" runs it. It prints figures, it does
// not judge them: targets live in the issue notes and the README.
//
//	citecheck-bench extract --citecheck BIN --corpus DIR [--jobs N]
//	    wall time, user and system CPU time and peak memory of "citecheck
//	    extract" over DIR (its extraction workers included), beside pdftotext
//	    over the same files with the same parallelism, and ratios.
//	citecheck-bench spacing --corpus-store STORE
//	    word spacing: how many 8-word windows of pdftotext's page text are
//	    found, spaces included, in citecheck's stored page text and in
//	    ledongthuc/pdf's GetPlainText of the same page.
//	citecheck-bench fidelity --corpus-store STORE [--cache DIR] [--misses FILE]
//	    extraction fidelity (package internal/fidelity): windows of 6-14 words
//	    from each installed reference extractor's page text, looked up in
//	    citecheck's text and in every other extractor's text of the same page,
//	    after quote/v1 normalization; a matrix of text source x quote source.
//	    With --locate, also the share of windows unique in their source's
//	    document that citecheck locate places uniquely on their page.
//	citecheck-bench grade --citecheck BIN [--grading DIR] [--attempts 10000,100000]
//	    wall time, attempts per second and peak memory of "citecheck grade"
//	    on runs made by repeating the worked examples of ../shared/grading.
//	citecheck-bench locate --citecheck BIN --store STORE [--runs 21]
//	    wall and CPU time of whole "citecheck locate" processes of one quote
//	    taken from STORE, alternated with "citecheck version".
//	citecheck-bench store --store STORE
//	    the store's bytes by kind of file, per byte of the PDFs it was
//	    extracted from and per byte of its page texts.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/corpus/ingest"
	"github.com/ledongthuc/pdf"
)

func main() {
	if len(os.Args) > 2 && os.Args[1] == ledongthucChild {
		os.Exit(runLedongthuc(os.Stdout, os.Args[2]))
	}
	if err := run(os.Stdout, os.Stderr, os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "citecheck-bench: %v\n", err)
		os.Exit(1)
	}
}

func run(stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 {
		return errors.New("usage: citecheck-bench extract|spacing|fidelity|grade|locate|store [flags]")
	}
	switch args[0] {
	case "extract":
		return benchExtract(stdout, args[1:])
	case "spacing":
		return benchSpacing(stdout, args[1:])
	case "fidelity":
		return benchFidelity(stdout, stderr, args[1:])
	case "grade":
		return benchGrade(stdout, args[1:])
	case "locate":
		return benchLocate(stdout, args[1:])
	case "store":
		return benchStore(stdout, args[1:])
	}
	return fmt.Errorf("unknown bench %q", args[0])
}

// measured is one command's cost.
type measured struct {
	wall      time.Duration
	user, sys time.Duration // CPU time of the processes and every descendant they waited for
	maxRSS    int64         // bytes, of the largest single process
}

// add counts the CPU time and peak memory of a finished process.
func (m *measured) add(ps *os.ProcessState) {
	m.user += ps.UserTime()
	m.sys += ps.SystemTime()
	m.maxRSS = max(m.maxRSS, maxRSS(ps))
}

// runMeasured runs a command and returns its wall time and the peak
// resident memory of it or any descendant it waited for.
func runMeasured(name string, args ...string) (measured, error) {
	start := time.Now()
	cmd := exec.Command(name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	m := measured{wall: time.Since(start)}
	if cmd.ProcessState != nil {
		m.add(cmd.ProcessState)
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		err = nil // failing on some files is part of what is measured
	}
	return m, err
}

func benchExtract(stdout io.Writer, args []string) error {
	fs := flag.NewFlagSet("extract", flag.ContinueOnError)
	bin := fs.String("citecheck", "bin/citecheck", "citecheck binary")
	dir := fs.String("corpus", "../shared/pdf-corpus", "folder of PDFs")
	jobs := fs.Int("jobs", 2, "parallel documents, for both tools")
	runs := fs.Int("runs", 3, "rounds, each running both tools; the figures are the medians")
	target := fs.Float64("target", 1.3, "the wall-time ratio aimed at, printed beside the ratio")
	if err := fs.Parse(args); err != nil {
		return err
	}
	files, err := ingest.Inputs([]string{*dir})
	if err != nil {
		return err
	}
	_, lookErr := exec.LookPath("pdftotext")
	fmt.Fprintf(stdout, "extraction over %s: %d PDFs, %d in parallel, %d rounds (the tool that goes first alternates)\n\n", *dir, len(files), *jobs, *runs)
	fmt.Fprintf(stdout, "%-22s %9s %9s %9s %12s %s\n", "tool", "wall", "user", "system", "peak RSS", "result")
	var ours, ref []measured
	// Every round writes into a fresh folder, all removed at the end, not
	// between rounds: ext4 without a journal (this machine's) makes each
	// file creation skip the inodes freed in the minutes before (see
	// docs/benchmarks.md), so removing a round's 5,000 files would slow
	// the next round's creations several times over.
	work, err := os.MkdirTemp("", "citecheck-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	for round := range max(*runs, 1) {
		out := filepath.Join(work, strconv.Itoa(round))
		order := []string{"citecheck", "pdftotext"}
		if round%2 == 1 {
			order[0], order[1] = order[1], order[0]
		}
		for _, tool := range order {
			switch {
			case tool == "citecheck":
				m, err := runMeasured(*bin, "extract", "--out", filepath.Join(out, "corpus"), "--jobs", strconv.Itoa(*jobs), *dir)
				if err != nil {
					return fmt.Errorf("citecheck: %w", err)
				}
				ok, pages, err := extracted(filepath.Join(out, "corpus"))
				if err != nil {
					return err
				}
				ours = append(ours, m)
				fmt.Fprintf(stdout, "%-22s %8.2fs %8.2fs %8.2fs %9.1f MiB %d ok, %d pages\n", "citecheck extract",
					m.wall.Seconds(), m.user.Seconds(), m.sys.Seconds(), mib(m.maxRSS), ok, pages)
			case lookErr == nil:
				m, opened := pdftotextAll(files, *jobs, filepath.Join(out, "ref"))
				ref = append(ref, m)
				fmt.Fprintf(stdout, "%-22s %8.2fs %8.2fs %8.2fs %9.1f MiB %d opened\n", "pdftotext",
					m.wall.Seconds(), m.user.Seconds(), m.sys.Seconds(), mib(m.maxRSS), opened)
			}
		}
	}
	if lookErr != nil {
		fmt.Fprintf(stdout, "%-22s not installed (Debian: poppler-utils): no ratio\n", "pdftotext")
		return nil
	}
	a, b := median(ours), median(ref)
	fmt.Fprintf(stdout, "\nmedians: citecheck %.2fs wall, %.2fs system; pdftotext %.2fs wall, %.2fs system\n", a.wall.Seconds(), a.sys.Seconds(), b.wall.Seconds(), b.sys.Seconds())
	fmt.Fprintf(stdout, "ratio citecheck/pdftotext: time %.2fx, user %.2fx, system %.2fx, peak memory %.2fx (target: time <= %.2fx)\n",
		a.wall.Seconds()/b.wall.Seconds(), a.user.Seconds()/b.user.Seconds(), a.sys.Seconds()/b.sys.Seconds(),
		float64(a.maxRSS)/float64(max(b.maxRSS, 1)), *target)
	return nil
}

// extracted counts the documents extracted and their pages in a store.
func extracted(dir string) (ok, pages int, err error) {
	store, err := corpus.Open(dir)
	if err != nil {
		return 0, 0, err
	}
	for _, d := range store.Manifest().Documents {
		if d.Status == corpus.StatusOK {
			ok++
			pages += d.PageCount
		}
	}
	return ok, pages, nil
}

// median returns the median of each figure of ms separately (the upper
// one of an even count).
func median(ms []measured) measured {
	pick := func(f func(measured) int64) int64 {
		v := make([]int64, len(ms))
		for i, m := range ms {
			v[i] = f(m)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	return measured{
		wall:   time.Duration(pick(func(m measured) int64 { return int64(m.wall) })),
		user:   time.Duration(pick(func(m measured) int64 { return int64(m.user) })),
		sys:    time.Duration(pick(func(m measured) int64 { return int64(m.sys) })),
		maxRSS: pick(func(m measured) int64 { return m.maxRSS }),
	}
}

// pdftotextAll runs pdftotext on every file with jobs workers, as citecheck
// does, and returns the total wall time, the CPU time of all the processes
// and the largest process's memory.
func pdftotextAll(files []string, jobs int, outDir string) (measured, int) {
	os.MkdirAll(outDir, 0o755)
	start := time.Now()
	var mu sync.Mutex
	var m measured
	opened := 0
	work := make(chan int)
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				cmd := exec.Command("pdftotext", "-q", files[i], filepath.Join(outDir, fmt.Sprintf("%d.txt", i)))
				err := cmd.Run()
				mu.Lock()
				if err == nil {
					opened++
				}
				if cmd.ProcessState != nil {
					m.add(cmd.ProcessState)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range files {
		work <- i
	}
	close(work)
	wg.Wait()
	m.wall = time.Since(start)
	return m, opened
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

// ledongthucChild is the argument with which the bench re-executes itself
// to run ledongthuc/pdf on one file: that library can loop forever or
// exhaust memory on hostile files, so it runs in a limited child too.
const ledongthucChild = "__ledongthuc"

func runLedongthuc(w io.Writer, path string) int {
	limitAddressSpace(3 << 30)
	defer func() { recover() }()
	f, r, err := pdf.Open(path)
	if err != nil {
		return 1
	}
	defer f.Close()
	for i := 1; i <= r.NumPage(); i++ {
		if i > 1 {
			io.WriteString(w, "\f")
		}
		p := r.Page(i)
		if p.V.IsNull() {
			continue
		}
		text, _ := p.GetPlainText(nil)
		io.WriteString(w, strings.ReplaceAll(text, "\f", " "))
	}
	return 0
}

func benchSpacing(stdout io.Writer, args []string) error {
	fs := flag.NewFlagSet("spacing", flag.ContinueOnError)
	storeDir := fs.String("corpus-store", "", "a corpus built by citecheck extract")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		fmt.Fprintln(stdout, "word spacing: pdftotext not installed (Debian: poppler-utils), nothing to compare against")
		return nil
	}
	store, err := corpus.Open(*storeDir)
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	var total, ours, theirs, docs int
	for _, d := range store.Manifest().Documents {
		if _, fromText := corpus.TextSource(d.Source); d.Status != corpus.StatusOK || fromText {
			continue // no text, or no PDF to compare with (imported page texts)
		}
		path := filepath.Join(*storeDir, filepath.FromSlash(d.Source))
		ref := pagesOf(commandOutput(60*time.Second, "pdftotext", "-q", path, "-"))
		lt := pagesOf(commandOutput(30*time.Second, self, ledongthucChild, path))
		docs++
		for i := range d.Pages {
			if i >= len(ref) {
				break
			}
			text, err := store.Text(&d, i+1)
			if err != nil {
				return err
			}
			l := ""
			if i < len(lt) {
				l = lt[i]
			}
			n, a, b := windowHits(ref[i], text, l)
			total, ours, theirs = total+n, ours+a, theirs+b
		}
	}
	fmt.Fprintf(stdout, "\nword spacing over %d documents: 8-word windows of pdftotext's page text found verbatim (spaces collapsed)\n", docs)
	fmt.Fprintf(stdout, "  windows:                         %d\n", total)
	fmt.Fprintf(stdout, "  citecheck text:                  %d (%.1f%%)\n", ours, pct(ours, total))
	fmt.Fprintf(stdout, "  ledongthuc/pdf GetPlainText:     %d (%.1f%%)\n", theirs, pct(theirs, total))
	return nil
}

// windowHits samples 8-word windows of ref (every fourth word) and counts
// how many occur verbatim, white space collapsed, in each candidate text.
func windowHits(ref, a, b string) (total, inA, inB int) {
	ca := " " + strings.Join(strings.Fields(a), " ") + " "
	cb := " " + strings.Join(strings.Fields(b), " ") + " "
	words := strings.Fields(ref)
	for k := 0; k+8 <= len(words); k += 4 {
		win := " " + strings.Join(words[k:k+8], " ") + " "
		total++
		if strings.Contains(ca, win) {
			inA++
		}
		if strings.Contains(cb, win) {
			inB++
		}
	}
	return total, inA, inB
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

func pagesOf(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\f")
}

// commandOutput runs a command with a timeout and returns its stdout, empty
// when it failed.
func commandOutput(timeout time.Duration, name string, args ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).Output()
	if err != nil && len(out) == 0 {
		return ""
	}
	return string(out)
}
