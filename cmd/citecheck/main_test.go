package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/freeze"
	"github.com/citecheck/citecheck/internal/testcorpus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain lets the test binary serve as the extraction child: the runner
// re-executes its own executable, which under "go test" is this binary.
// With CITECHECK_TEST_CLI=1 it is the citecheck command itself, for tests
// that run documented scripts (TestShardingRecipesRun).
func TestMain(m *testing.M) {
	testcorpus.ServeChild()
	if os.Getenv(testCLIEnv) == "1" {
		os.Exit(exitCode(os.Stderr, run(os.Stdin, os.Stdout, os.Stderr, os.Args[1:])))
	}
	os.Exit(m.Run())
}

// cliToolchain is the toolchain runCLI's verbs run with: the running one,
// or the fixed one fixedToolchain pins for a test.
var cliToolchain = freeze.CurrentToolchain

// runCLI runs the CLI in process, with an empty stdin, and returns stdout,
// stderr and the exit code main would use.
func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return runCLIWithStdin(t, strings.NewReader(""), args...)
}

// runCLIWithStdin is runCLI reading stdin.
func runCLIWithStdin(t *testing.T, stdin io.Reader, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := runEnv(&env{stdin: stdin, stdout: &stdout, stderr: &stderr, toolchain: cliToolchain}, args)
	code := exitCode(&stderr, err)
	return stdout.String(), stderr.String(), code
}

var timeRE = regexp.MustCompile(`time: [0-9.]+s`)

func writeDemoPDFs(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range fixtures.Demo() {
		if err := os.WriteFile(filepath.Join(dir, d.Name), d.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestHelp(t *testing.T) {
	out, _, code := runCLI(t, "help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	checkGolden(t, "help.txt", []byte(out))
	for _, c := range commands {
		if c.hidden {
			continue
		}
		out, errOut, code := runCLI(t, c.name, "--help")
		if code != 0 || !strings.HasPrefix(out, "usage: citecheck ") || errOut != "" {
			t.Errorf("%s --help: exit %d, stdout %q, stderr %q", c.name, code, out, errOut)
		}
		// Every verb shows its exit status and one worked example: a
		// command line starting "citecheck VERB".
		if !strings.Contains(out, "Exit status") {
			t.Errorf("%s --help does not give its exit status", c.name)
		}
		example := false
		for _, line := range strings.Split(out, "\n") {
			example = example || strings.HasPrefix(strings.TrimSpace(line), "citecheck "+c.name)
		}
		if !example {
			t.Errorf("%s --help shows no example line starting \"citecheck %s\"", c.name, c.name)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{nil, "no verb"},
		{[]string{"frobnicate"}, "unknown verb"},
		{[]string{"extract", "x.pdf"}, "--out CORPUS is required"},
		{[]string{"extract", "--out", "c"}, "no PDF files"},
		{[]string{"extract", "--out", "c", "/no/such/file.pdf"}, "no such file"},
		{[]string{"extract", "--bogus"}, "flag provided but not defined"},
		{[]string{"show", "doc.pdf"}, "--corpus CORPUS is required"},
		{[]string{"show", "--corpus", "c", "--boxes", "doc.pdf"}, "--boxes needs a PAGE"},
		{[]string{"show", "--corpus", "/no/such/corpus", "doc.pdf"}, "not a citecheck corpus"},
	}
	for _, tc := range tests {
		_, errOut, code := runCLI(t, tc.args...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 mentioning %q", tc.args, code, errOut, tc.want)
		}
	}
}

func TestExtractAndShow(t *testing.T) {
	in := writeDemoPDFs(t)
	c := filepath.Join(t.TempDir(), "corpus")
	out, errOut, code := runCLI(t, "extract", "--out", c, "--jobs", "2", in)
	if code != 0 {
		t.Fatalf("extract: exit %d\n%s%s", code, out, errOut)
	}
	checkGolden(t, "extract.txt", timeRE.ReplaceAll([]byte(out), []byte("time: X")))

	// Again: nothing is re-extracted.
	out, _, _ = runCLI(t, "extract", "--out", c, in)
	if !strings.Contains(out, "unchanged (not re-extracted): 3") {
		t.Errorf("second extract re-extracted: %s", out)
	}

	out, _, code = runCLI(t, "show", "--corpus", c, "supplier-policy.pdf")
	if code != 0 || strings.Count(out, "\f") != 2 || !strings.HasPrefix(out, "Northwind Components") {
		t.Errorf("show DOC prints every page separated by form feeds: exit %d %q", code, out)
	}
	checkGolden(t, "show-all.txt", []byte(out))
	out, _, _ = runCLI(t, "show", "--corpus", c, "--ruler", "supplier-policy.pdf", "2")
	checkGolden(t, "show-ruler.txt", []byte(out))
	out, _, _ = runCLI(t, "show", "--corpus", c, "--json", "price-list.pdf")
	checkGolden(t, "show-json.txt", []byte(out))
	out, _, _ = runCLI(t, "show", "--corpus", c, "--json", "inspection-manual.pdf", "2")
	checkGolden(t, "show-json-page.txt", []byte(out))
	out, _, code = runCLI(t, "show", "--corpus", c, "--boxes", "inspection-manual.pdf", "2")
	if code != 0 || !strings.Contains(out, "glyph boxes") {
		t.Errorf("show --boxes: exit %d %q", code, out)
	}
	checkGolden(t, "show-boxes.txt", []byte(out))

	_, errOut, code = runCLI(t, "show", "--corpus", c, "supplier-policy.pdf", "4")
	if code != exitUsage || !strings.Contains(errOut, "not in 1..3") {
		t.Errorf("page out of range: exit %d %q", code, errOut)
	}
	_, errOut, code = runCLI(t, "show", "--corpus", c, "SUPPLIER")
	if code != exitUsage || !strings.Contains(errOut, "did you mean supplier-policy.pdf") {
		t.Errorf("unknown document suggests near names: exit %d %q", code, errOut)
	}
}

func TestExtractReportsFailures(t *testing.T) {
	in := writeDemoPDFs(t)
	if err := os.WriteFile(filepath.Join(in, "broken.pdf"), []byte("%PDF-1.7\nnot really\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runCLI(t, "extract", "--out", filepath.Join(t.TempDir(), "c"), in)
	if code != exitFailed {
		t.Errorf("a document that failed makes the run exit 1, got %d", code)
	}
	if !strings.Contains(out, "broken.pdf") || !strings.Contains(out, "malformed") {
		t.Errorf("the failed document is listed with its class:\n%s", out)
	}
}

func TestDemo(t *testing.T) {
	// As make demo runs it: the files kept in bin/demo.
	t.Chdir(t.TempDir())
	out, errOut, code := runCLI(t, "demo", "--out", "bin/demo")
	if code != 0 {
		t.Fatalf("demo: exit %d\n%s%s", code, out, errOut)
	}
	checkGolden(t, "demo.txt", []byte(out))
	summary, err := os.ReadFile("bin/demo/report/summary.json")
	if err != nil {
		t.Fatal(err)
	}
	// The same bytes as report's without --lock: the lock changes where
	// page texts come from, never a figure.
	checkGolden(t, "report/summary.json", summary)
	for _, f := range []string{"results/results.jsonl", "report/report.html", "report/summary.json", "report/summary.md"} {
		if _, err := os.Stat(filepath.Join("bin/demo", f)); err != nil {
			t.Errorf("the demo did not keep %s: %v", f, err)
		}
	}
	// The demo's one web citation is shown beside citation precision, not
	// counted in it.
	html, err := os.ReadFile("bin/demo/report/report.html")
	require.NoError(t, err)
	assert.Contains(t, string(html), "1 external (outside the corpus, not counted)")
}

// TestReadmeDemoIsReal: the README opens with an excerpt of what make
// demo prints, lines taken whole and in order from the demo's golden
// output, down to its summary.
func TestReadmeDemoIsReal(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	_, block, ok := strings.Cut(string(readme), "$ make demo\n")
	require.True(t, ok, "README has no make demo example")
	block, _, _ = strings.Cut(block, "```")
	want, err := os.ReadFile("testdata/demo.txt")
	require.NoError(t, err)
	assert.Contains(t, block, "In short:", "the excerpt shows the demo's summary")
	if !strings.HasPrefix(block, "$ citecheck") || !strings.Contains("\n"+string(want), "\n"+block) {
		t.Errorf("README's demo output is not an excerpt of testdata/demo.txt (the demo's golden output), from a command line on:\n%s", block)
	}
}

// TestShowAlts: a page whose font names glyphs other extractors read by
// their codes has alternative texts; show --alts prints them at the
// page's offsets, and locate finds a quote read that way at glyph_codes.
func TestShowAlts(t *testing.T) {
	var b fixtures.Builder
	font := b.Add("<< /Type /Font /Subtype /Type1 /BaseFont /CMSY10 /Encoding << /Type /Encoding /Differences [54 /negationslash] >> >>")
	pdf := b.Document([]fixtures.Page{{Content: "BT /F1 12 Tf 72 700 Td (For every x 6= 0 the map is injective.) Tj ET", Fonts: map[string]int{"F1": font}}})
	in := filepath.Join(t.TempDir(), "lemma.pdf")
	if err := os.WriteFile(in, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	c := filepath.Join(t.TempDir(), "corpus")
	if out, errOut, code := runCLI(t, "extract", "--out", c, in); code != 0 {
		t.Fatalf("extract: exit %d\n%s%s", code, out, errOut)
	}
	out, _, code := runCLI(t, "show", "--corpus", c, "--alts", "lemma.pdf", "1")
	want := "For every x \u0338= 0 the map is injective.\n" +
		"--- lemma.pdf page 1: 1 alternative texts (glyphs read by their font codes; offsets as in the text)\n" +
		"--- alternative 1\nFor every x 6= 0 the map is injective.\n"
	if code != 0 || out != want {
		t.Errorf("show --alts: exit %d\n%s\nwant\n%s", code, out, want)
	}
	quotes := filepath.Join(t.TempDir(), "q.jsonl")
	os.WriteFile(quotes, []byte(`{"id": "q1", "document": "lemma.pdf", "quote": "For every x 6= 0 the map is injective."}`+"\n"), 0o644)
	out, _, _ = runCLI(t, "locate", "--corpus", c, quotes)
	if !strings.Contains(out, `"status":"unique"`) || !strings.Contains(out, `"match":"glyph_codes"`) {
		t.Errorf("locate a quote read by codes: %s", out)
	}
	if _, errOut, code := runCLI(t, "show", "--corpus", c, "--alts", "lemma.pdf"); code != exitUsage || !strings.Contains(errOut, "--alts needs a PAGE") {
		t.Errorf("--alts without a page: exit %d %q", code, errOut)
	}
}

// TestExtractFollowsLinks: extract of a folder of symbolic links to PDFs
// extracts the PDFs (it once said "no PDF files found").
func TestExtractFollowsLinks(t *testing.T) {
	in := writeDemoPDFs(t)
	links := t.TempDir()
	entries, err := os.ReadDir(in)
	require.NoError(t, err)
	for _, e := range entries {
		require.NoError(t, os.Symlink(filepath.Join(in, e.Name()), filepath.Join(links, e.Name())))
	}
	out, errOut, code := runCLI(t, "extract", "--out", filepath.Join(t.TempDir(), "corpus"), links)
	require.Equal(t, 0, code, "%s%s", out, errOut)
	assert.Contains(t, out, "ok                       3")
}
