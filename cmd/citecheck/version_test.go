package main

import (
	"strings"
	"testing"

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

// TestVersion: "version" and "--version" print the same report, the same
// on every run of a build, naming the tool, Go, the extractor, both
// normalization profiles and every format version.
func TestVersion(t *testing.T) {
	fixedToolchain(t)
	out, errOut, code := runCLI(t, "version")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	again, _, _ := runCLI(t, "--version")
	if again != out {
		t.Errorf("--version differs from version:\n%s\n%s", again, out)
	}
	if twice, _, _ := runCLI(t, "version"); twice != out {
		t.Errorf("not deterministic:\n%s\n%s", twice, out)
	}
	want := "citecheck v0.0.0-test\n" +
		"tool github.com/citecheck/citecheck v0.0.0-test\n" +
		"go go1.26.0\n" +
		"extractor " + pdftext.Name + " " + pdftext.Version + "\n" +
		"normalization " + textnorm.ProfileQuoteV2 + "\n" +
		"normalization " + textnorm.ProfileValueV2 + "\n" +
		"unicode go 15.0.0\n" +
		"unicode norm 15.0.0\n" +
		"format corpus " + corpus.Format + "\n" +
		"format boxes " + corpus.BoxesFormat + "\n" +
		"format orders " + corpus.OrdersFormat + "\n" +
		"format quote-index " + citations.IndexFormat + "\n" +
		"format shard " + ingest.ShardFormat + "\n" +
		"format reference " + spans.Format + "\n" +
		"format plan " + plan.Format + "\n" +
		"format lock " + freeze.Format + "\n" +
		"format results " + grade.ResultsFormat + "\n" +
		"format summary " + metrics.Format + "\n" +
		"format summary-reviewed " + metrics.FormatReviewed + "\n" +
		"format decisions " + review.DecisionsFormat + "\n"
	if out != want {
		t.Errorf("version:\n%s\nwant:\n%s", out, want)
	}
	// The VCS revision, when the build recorded one.
	tc := cliToolchain()
	tc.VCS = "0123abcd+dirty"
	if got := versionText(tc); !strings.Contains(got, "\ntool.vcs 0123abcd+dirty\n") {
		t.Errorf("no VCS line:\n%s", got)
	}
	// The running build's own report names the real Go version.
	if got := versionText(freeze.CurrentToolchain()); !strings.Contains(got, "\ngo go1.") {
		t.Errorf("running toolchain:\n%s", got)
	}
}
