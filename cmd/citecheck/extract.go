package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/corpus/ingest"
	"github.com/citecheck/citecheck/pdftext"
)

const childCommand = pdftext.ChildCommand

// runChild is the hidden verb the extractor re-executes itself with.
func runChild(e *env, args []string) error {
	if code := pdftext.ChildMain(e.stdin, e.stdout, e.stderr); code != 0 {
		return childExit(code)
	}
	return nil
}

const extractAbout = `
Extract the page text of PDFs (files, or folders searched recursively for
*.pdf, symbolic links followed) into the corpus folder CORPUS. PDFs are read by --jobs worker
processes, one PDF at a time each, under a timeout and memory limit per PDF;
a PDF that fails is recorded with its outcome class (encrypted, malformed,
unsupported, timeout, resource_limit, crash) and the others go on. A PDF
already in the corpus with the same bytes is not extracted again. Then the
corpus's quote index is built and stored (docs/formats.md#quote-index):
locate, audit and grade map it instead of building one.

With --shard K/N (K from 0 to N-1), only the PDFs of shard K are extracted,
into a folder of their own: those whose BLAKE3 hash, its first 8 bytes as a
big-endian number, leaves K when divided by N. Every PDF is still read, to
hash it; a PDF's shard does not change as the corpus grows. Run the N
shards anywhere (a Slurm job array, a Kubernetes indexed Job: see
docs/sharding.md), then "citecheck merge" makes the corpus one extract
would have made.

Prints a summary table and the documents that did not extract. Progress goes
to stderr: a bar on a terminal; otherwise (a CI log) a line every 10 seconds
once a run takes that long. Interrupted (Ctrl-C), a first extract into a
folder removes what it wrote, and an extract into a corpus leaves it as it
was: run it again. Killed outright (a crash), a first extract leaves its
marker, .citecheck-building, which the next one finds and starts over.

Example:
  citecheck extract --out corpus pdfs
  citecheck extract --shard 0/4 --out shards/0 pdfs

Exit status: 0 every document (of the shard) extracted ok; 1 some document
did not (each is listed with its class); 2 bad usage or inputs (a missing
PDF, two PDFs with one name, an --out that is not a corpus folder, a shard
into a whole corpus's folder or the reverse).`

func runExtract(e *env, args []string) error {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet(stderr, "extract", "extract --out CORPUS [flags] PATH...", extractAbout)
	out := fs.String("out", "", "corpus `folder` to create or update (required)")
	jobs := fs.Int("jobs", 0, "PDFs to extract in parallel; 0, the default: one per core")
	passwordFile := fs.String("password-file", "", "`file` of passwords to try on encrypted PDFs, one per line")
	timeout := fs.Duration("timeout", pdftext.DefaultLimits.Timeout, "wall-clock limit per PDF")
	memory := fs.Int64("memory", pdftext.DefaultLimits.AddressSpace>>20, "address-space limit per PDF, in MiB")
	asJSON := fs.Bool("json", false, "print the per-document results as JSON instead of tables")
	shardFlag := fs.String("shard", "", "extract only shard `K/N` (K from 0 to N-1) into --out, for citecheck merge")
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
	if *jobs < 0 || *timeout <= 0 || *memory < 64 {
		return usageErrorf("extract: --jobs cannot be negative, --timeout must be positive and --memory at least 64 MiB")
	}
	if *jobs == 0 {
		*jobs = runtime.NumCPU()
	}
	var shard ingest.Shard
	if *shardFlag != "" {
		if shard, err = ingest.ParseShard(*shardFlag); err != nil {
			return usageErrorf("extract: --shard: %v", err)
		}
	}
	var passwords []string
	if *passwordFile != "" {
		b, err := os.ReadFile(*passwordFile)
		if err != nil {
			return fmt.Errorf("extract: --password-file: %w", err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if line = strings.TrimRight(line, "\r"); line != "" {
				passwords = append(passwords, line)
			}
		}
	}
	if err := checkOutCorpus("extract", *out); err != nil {
		return err
	}
	files, err := ingest.Inputs(paths)
	if err != nil {
		return fmt.Errorf("extract: %w", err)
	}
	if len(files) == 0 {
		return usageErrorf("extract: no PDF files found in %s", strings.Join(paths, ", "))
	}
	lim := pdftext.DefaultLimits
	lim.Timeout = *timeout
	lim.AddressSpace = *memory << 20
	runner := &pdftext.Runner{Limits: lim, Passwords: passwords}
	defer runner.Close()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	bar := startProgress(stderr, "extract", "documents", len(files))
	start := time.Now()
	report, err := ingest.Build(ctx, *out, files, ingest.BuildOptions{
		Extractor: runner.ExtractorID(),
		Extract:   runner.Extract,
		Jobs:      *jobs,
		Progress:  func(p ingest.Progress) { bar.add(p.Result.Name) },
		Shard:     shard,
	})
	bar.finish()
	if err != nil {
		return buildError("extract", err)
	}
	if shard.Count == 0 {
		// A shard's folder is merged, not searched: merge indexes.
		if err := storeIndex("extract", *out); err != nil {
			return err
		}
	}
	if shard.Count > 0 && !*asJSON {
		fmt.Fprintf(stdout, "shard %s: %d of %d documents\n\n", shard, len(report.Results), len(files))
	}
	return finishBuild(stdout, report, *asJSON, time.Since(start))
}

// buildError is the error of verb (extract, merge) whose build of a corpus
// failed: an interruption says so.
func buildError(verb string, err error) error {
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("%s: interrupted: %w", verb, err)
	}
	return fmt.Errorf("%s: %w", verb, err)
}

// finishBuild renders what a build of a corpus (extract, merge) made: the
// per-document results as JSON, or the summary table; a document that did
// not extract ok makes the verb's checks fail.
func finishBuild(stdout io.Writer, report *ingest.Report, asJSON bool, elapsed time.Duration) error {
	if asJSON {
		if err := writeJSON(stdout, struct {
			Results []ingest.Result `json:"results"`
		}{report.Results}); err != nil {
			return err
		}
	} else {
		printExtractReport(stdout, report, elapsed)
	}
	if report.Count(corpus.StatusOK) != len(report.Results) {
		return errChecksFailed
	}
	return nil
}

// checkOutFolder refuses an --out that names an existing file: verb
// writes a folder there.
func checkOutFolder(verb, dir string) error {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return usageErrorf("%s: --out %s is a file; want a folder (new, or one %s wrote)", verb, dir, verb)
	}
	return nil
}

// checkOutCorpus refuses an --out that names an existing file, or a
// folder whose corpus manifest cannot be read (see openCorpus), before
// verb builds a corpus there.
func checkOutCorpus(verb, dir string) error {
	if err := checkOutFolder(verb, dir); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, corpus.ManifestFile)); err == nil {
		if _, err := corpus.Open(dir); err != nil {
			return fmt.Errorf("%s: %w", verb, err)
		}
	}
	return nil
}

// printExtractReport prints the summary table and the documents that did not
// extract; a negative elapsed leaves the time out, for reproducible output.
func printExtractReport(w io.Writer, r *ingest.Report, elapsed time.Duration) {
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
	var failed []ingest.Result
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
