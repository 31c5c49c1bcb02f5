package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/fixtures"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// helpExampleOrder is the order a user takes the verbs in: each verb's
// examples may use what an earlier one made (extract's corpus, plan's
// plan, freeze's lock, grade's results).
var helpExampleOrder = []string{"extract", "merge", "import-text", "show", "locate", "spans", "plan", "freeze",
	"audit", "grade", "report", "compare", "review", "typed", "demo", "version", "help"}

// TestHelpExamplesRun runs every example line of every verb's help
// ("citecheck VERB ..."), as written, in a folder holding the files the
// examples name: none may be a usage or input error (exit 2), a refusal
// (3) or a bug (4). A verb whose checks fail on these inputs (exit 1) ran.
func TestHelpExamplesRun(t *testing.T) {
	pkg, err := os.Getwd()
	require.NoError(t, err)
	t.Chdir(t.TempDir())
	// The files the examples name.
	require.NoError(t, os.Mkdir("pdfs", 0o755))
	for _, d := range fixtures.Demo() {
		require.NoError(t, os.WriteFile(filepath.Join("pdfs", d.Name), d.Data, 0o644))
	}
	writeFile(t, "reference.json", string(fixtures.Reference()))
	writeFile(t, "draft.json", strings.Replace(string(fixtures.Reference()), `"start": 142, "end": 211, `, "", 1))
	writeFile(t, "quotes.jsonl", string(fixtures.Quotes()))
	require.NoError(t, os.MkdirAll("runs", 0o755))
	var arms [2]bytes.Buffer
	for _, line := range strings.SplitAfter(string(fixtures.GradedRun()), "\n") {
		if strings.HasPrefix(line, `{"arm": "B"`) {
			arms[1].WriteString(line)
		} else {
			arms[0].WriteString(line)
		}
	}
	writeFile(t, "runs/A.jsonl", arms[0].String())
	writeFile(t, "runs/B.jsonl", arms[1].String())
	for dst, src := range map[string]string{
		"runs/anthropic.jsonl":           "../../runs/testdata/adapters/anthropic.jsonl",
		"typedqa/questions-default.json": "../../typedqa/questions-default.json",
		"truth.csv":                      "../../fixtures/typed/truth.csv",
		"responses.csv":                  "../../fixtures/typed/responses.csv",
	} {
		data, err := os.ReadFile(filepath.Join(pkg, src))
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(dst), 0o755))
		writeFile(t, dst, string(data))
	}
	// import-text's example writes "corpus" from "pages": in a folder of
	// its own, not over extract's corpus.
	require.NoError(t, os.MkdirAll("text/pages/notes.pdf", 0o755))
	writeFile(t, "text/pages/notes.pdf/0001.txt", "Inspection notes.\nEvery batch is sampled at goods-in.\n")

	ran := map[string]bool{}
	for _, verb := range helpExampleOrder {
		help, _, code := runCLI(t, verb, "--help")
		require.Equal(t, 0, code, "%s --help", verb)
		dir := "."
		if verb == "import-text" {
			dir = "text"
		}
		if verb == "merge" {
			// extract's example made shard 0 of 4; merge needs them all.
			for _, k := range []string{"1", "2", "3"} {
				_, errOut, code := runCLI(t, "extract", "--shard", k+"/4", "--out", "shards/"+k, "pdfs")
				require.Equal(t, 0, code, errOut)
			}
		}
		for _, line := range strings.Split(help, "\n") {
			line = strings.TrimSpace(line)
			if !strings.HasPrefix(line, "citecheck "+verb) {
				continue
			}
			ran[verb] = true
			cmdline, _, _ := strings.Cut(line, " > ") // a redirection: the output is not needed
			args := strings.Fields(cmdline)[1:]
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				if dir != "." {
					t.Chdir(dir)
				}
				out, errOut, code := runCLI(t, args...)
				assert.Contains(t, []int{0, 1}, code, "%s\n%s%s", line, out, errOut)
			})
		}
	}
	for _, c := range commands {
		if !c.hidden {
			assert.True(t, ran[c.name], "%s --help has no example this test runs (add the verb to helpExampleOrder)", c.name)
		}
	}
}

// TestCLIReference keeps docs/cli.md, the command reference, equal to
// what "citecheck help" and every verb's --help print (go test -update
// rewrites it).
func TestCLIReference(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Command reference\n\nWhat `citecheck help` and each verb's `--help` print, verb by verb (a test keeps\nthis page equal to them). Exit statuses are the same for every verb: 0 ran and\nevery check passed, 1 ran and something failed or is unresolved, 2 usage or\ninput error, 3 integrity refusal, 4 internal error.\n\n")
	out, _, code := runCLI(t, "help")
	require.Equal(t, 0, code)
	b.WriteString("## citecheck\n\n```\n" + out + "```\n")
	for _, c := range commands {
		if c.hidden || c.name == "help" {
			continue
		}
		out, _, code := runCLI(t, c.name, "--help")
		require.Equal(t, 0, code, c.name)
		b.WriteString("\n## " + c.name + "\n\n```\n" + out + "```\n")
	}
	checkGolden(t, "../../../docs/cli.md", []byte(b.String()))
}
