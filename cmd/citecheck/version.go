package main

import (
	"io"
	"strings"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/corpus/ingest"
	"github.com/citecheck/citecheck/freeze"
	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/metrics"
	"github.com/citecheck/citecheck/pdftext"
	"github.com/citecheck/citecheck/plan"
	"github.com/citecheck/citecheck/review"
	"github.com/citecheck/citecheck/spans"
	"github.com/citecheck/citecheck/textnorm"
)

const versionAbout = `
Print what decides citecheck's output, one "kind value..." line each, named
as a lock names them where it pins them: the tool (module path and version,
from the build information; "(devel)" for a source build) and its VCS
revision when the build recorded one, the Go version, the extractor's name
and version, the quote and value normalization profiles, the Unicode
tables, and the version of every file format citecheck reads or writes.
The first line is "citecheck VERSION". The output depends only on the
binary. "citecheck --version" prints the same.

Example:
  citecheck version

Exit status: 0 printed; 2 bad usage.`

func runVersion(e *env, args []string) error {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet(stderr, "version", "version", versionAbout)
	rest, err := parseFlags(fs, stdout, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageErrorf("version: unexpected arguments %q", rest)
	}
	_, err = io.WriteString(stdout, versionText(e.toolchain()))
	return err
}

// versionText renders the version report of the toolchain tc.
func versionText(tc freeze.Toolchain) string {
	var b strings.Builder
	line := func(fields ...string) { b.WriteString(strings.Join(fields, " ") + "\n") }
	line("citecheck", tc.Version)
	line("tool", tc.Tool, tc.Version)
	if tc.VCS != "" {
		line("tool.vcs", tc.VCS)
	}
	line("go", tc.Go)
	line("extractor", pdftext.Name, pdftext.Version)
	line("normalization", textnorm.ProfileQuoteV2)
	line("normalization", textnorm.ProfileValueV2)
	line("unicode", "go", tc.UnicodeGo)
	line("unicode", "norm", tc.UnicodeNorm)
	for _, f := range []struct{ kind, format string }{
		{"corpus", corpus.Format},
		{"boxes", corpus.BoxesFormat},
		{"orders", corpus.OrdersFormat},
		{"quote-index", citations.IndexFormat},
		{"shard", ingest.ShardFormat},
		{"reference", spans.Format},
		{"plan", plan.Format},
		{"lock", freeze.Format},
		{"results", grade.ResultsFormat},
		{"summary", metrics.Format},
		{"summary-reviewed", metrics.FormatReviewed},
		{"decisions", review.DecisionsFormat},
	} {
		line("format", f.kind, f.format)
	}
	return b.String()
}
