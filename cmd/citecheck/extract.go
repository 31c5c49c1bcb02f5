package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/pdftext"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

const childCommand = pdftext.ChildCommand

// runChild is the hidden verb the extractor re-executes itself with.
func runChild(stdout, stderr io.Writer, args []string) error {
	if code := pdftext.ChildMain(os.Stdin, stdout, stderr); code != 0 {
		return &exitError{code: code, err: errors.New("extraction child failed"), silent: true}
	}
	return nil
}

func runExtract(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(stderr, "extract", "extract --out CORPUS [flags] PATH...", `
Extract the page text of PDFs (files, or folders searched recursively for
*.pdf) into the corpus folder CORPUS. Each PDF is read in its own child
process under a timeout and memory limit; a PDF that fails is recorded with
its outcome class (encrypted, malformed, unsupported, timeout, resource_limit,
crash) and the others go on. A PDF already in the corpus with the same bytes
is not extracted again.

Prints a summary table; exits 1 when any document did not extract ok.`)
	out := fs.String("out", "", "corpus `folder` to create or update (required)")
	jobs := fs.Int("jobs", runtime.NumCPU(), "PDFs to extract in parallel")
	passwordFile := fs.String("password-file", "", "`file` of passwords to try on encrypted PDFs, one per line")
	timeout := fs.Duration("timeout", pdftext.DefaultLimits.Timeout, "wall-clock limit per PDF")
	memory := fs.Int64("memory", pdftext.DefaultLimits.AddressSpace>>20, "address-space limit per PDF, in MiB")
	asJSON := fs.Bool("json", false, "print the per-document results as JSON instead of tables")
	paths, err := parseFlags(fs, stdout, args)
	if err != nil {
		return err
	}
	if *out == "" {
		return usageErrorf("extract: --out CORPUS is required")
	}
	if len(paths) == 0 {
		return usageErrorf("extract: no PDF files or folders given")
	}
	if *jobs < 1 || *timeout <= 0 || *memory < 64 {
		return usageErrorf("extract: --jobs must be at least 1, --timeout positive and --memory at least 64 MiB")
	}
	var passwords []string
	if *passwordFile != "" {
		b, err := os.ReadFile(*passwordFile)
		if err != nil {
			return inputError(fmt.Errorf("extract: --password-file: %w", err))
		}
		for _, line := range strings.Split(string(b), "\n") {
			if line = strings.TrimRight(line, "\r"); line != "" {
				passwords = append(passwords, line)
			}
		}
	}
	files, err := corpus.Inputs(paths)
	if err != nil {
		return inputError(fmt.Errorf("extract: %w", err))
	}
	if len(files) == 0 {
		return inputError(fmt.Errorf("extract: no PDF files found in %s", strings.Join(paths, ", ")))
	}
	lim := pdftext.DefaultLimits
	lim.Timeout = *timeout
	lim.AddressSpace = *memory << 20
	runner := &pdftext.Runner{Limits: lim, Passwords: passwords}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	bar := newProgress(stderr, len(files))
	start := time.Now()
	report, err := corpus.Build(ctx, *out, files, corpus.BuildOptions{
		Extractor: runner.Extractor(),
		Extract:   runner.Extract,
		Jobs:      *jobs,
		Progress: func(p corpus.Progress) {
			if bar != nil {
				bar.Describe(p.Result.Name)
				bar.Add(1)
			}
		},
	})
	if bar != nil {
		bar.Finish()
		fmt.Fprintln(stderr)
	}
	if err != nil {
		if errors.Is(err, corpus.ErrDuplicateName) || errors.Is(err, corpus.ErrNotCorpus) || errors.Is(err, corpus.ErrMixedCorpus) {
			return inputError(fmt.Errorf("extract: %w", err))
		}
		return fmt.Errorf("extract: %w", err)
	}
	if *asJSON {
		if err := writeJSON(stdout, struct {
			Results []corpus.Result `json:"results"`
		}{report.Results}); err != nil {
			return err
		}
	} else {
		printExtractReport(stdout, report, time.Since(start))
	}
	if report.Count(corpus.StatusOK) != len(report.Results) {
		return errChecksFailed
	}
	return nil
}

// newProgress returns a progress bar on stderr when it is a terminal.
func newProgress(stderr io.Writer, total int) *progressbar.ProgressBar {
	f, ok := stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(stderr),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish())
}

// printExtractReport prints the summary table and the documents that did not
// extract; a negative elapsed leaves the time out, for reproducible output.
func printExtractReport(w io.Writer, r *corpus.Report, elapsed time.Duration) {
	fmt.Fprintf(w, "%-16s %9s\n", "status", "documents")
	for _, s := range corpus.Statuses {
		fmt.Fprintf(w, "%-16s %9d\n", s, r.Count(s))
	}
	fmt.Fprintf(w, "%-16s %9d\n", "total", len(r.Results))
	reused := 0
	for _, res := range r.Results {
		if res.Reused {
			reused++
		}
	}
	fmt.Fprintf(w, "\npages: %d   unchanged (not re-extracted): %d", r.Pages(), reused)
	if elapsed >= 0 {
		fmt.Fprintf(w, "   time: %.1fs", elapsed.Seconds())
	}
	fmt.Fprintln(w)
	var failed []corpus.Result
	for _, res := range r.Results {
		if res.Status != corpus.StatusOK {
			failed = append(failed, res)
		}
	}
	if len(failed) == 0 {
		return
	}
	fmt.Fprintf(w, "\nnot extracted:\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, res := range failed {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", res.Name, res.Status, oneLine(res.Error, 160))
	}
	tw.Flush()
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len([]rune(s)) > max {
		s = string([]rune(s)[:max-1]) + "…"
	}
	return s
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
