package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLocateAndAudit extracts the demo PDFs once and runs locate and audit
// on the fixture files, comparing with golden outputs.
func TestLocateAndAudit(t *testing.T) {
	in := writeDemoPDFs(t)
	c := filepath.Join(t.TempDir(), "corpus")
	if out, errOut, code := runCLI(t, "extract", "--out", c, "--jobs", "2", in); code != 0 {
		t.Fatalf("extract: exit %d\n%s%s", code, out, errOut)
	}
	quotes := filepath.Join("..", "..", "fixtures", "citations", "quotes.jsonl")
	run := filepath.Join("..", "..", "fixtures", "citations", "run.jsonl")

	t.Run("locate", func(t *testing.T) {
		out, errOut, code := runCLI(t, "locate", "--corpus", c, quotes)
		if code != exitFailed || errOut != "" {
			t.Errorf("exit %d (want 1: some quotes are not unique), stderr %q", code, errOut)
		}
		checkGolden(t, "locate/quotes.jsonl", []byte(out))
		if n := strings.Count(out, "\n"); n != 13 {
			t.Errorf("%d output records for 13 inputs", n)
		}
	})
	t.Run("locate stdin", func(t *testing.T) {
		old := inputStdin
		defer func() { inputStdin = old }()
		inputStdin = strings.NewReader(`{"id": "a", "document": "price-list.pdf", "quote": "Housing H-310: 18.20 per piece", "page": 1}` + "\n")
		out, _, code := runCLI(t, "locate", "--corpus", c, "-")
		want := `{"id":"a","status":"unique","pages":[1],"spans":[{"page":1,"start":67,"end":97}],"match":"exact","document":"price-list.pdf","occurrences":1,"page_check":"physical"}` + "\n"
		if code != 0 || out != want {
			t.Errorf("exit %d\n got %s\nwant %s", code, out, want)
		}
	})
	t.Run("locate bad input", func(t *testing.T) {
		old := inputStdin
		defer func() { inputStdin = old }()
		inputStdin = strings.NewReader("{\"id\": \"a\", \"document\": \"x.pdf\", \"quote\": \"q\"}\n{\"id\": \"b\", \"document\": \"x.pdf\", \"quote\": \"q\", \"page\": -1}\n")
		out, errOut, code := runCLI(t, "locate", "--corpus", c)
		if code != exitUsage || out != "" || errOut != "citecheck: stdin:2: page: invalid value: -1 (pages are 1-based)\n" {
			t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
		}
	})
	t.Run("audit", func(t *testing.T) {
		out, errOut, code := runCLI(t, "audit", "--corpus", c, run)
		if code != exitFailed || errOut != "" {
			t.Errorf("exit %d, stderr %q", code, errOut)
		}
		checkGolden(t, "audit/table.txt", []byte(out))
		out, _, _ = runCLI(t, "audit", "--corpus", c, "--json", run)
		checkGolden(t, "audit/run.json", []byte(out))
	})
	t.Run("audit native", func(t *testing.T) {
		for _, f := range []string{"anthropic", "gemini"} {
			path := filepath.Join("..", "..", "citations", "testdata", "adapters", f+".jsonl")
			out, errOut, code := runCLI(t, "audit", "--corpus", c, "--format", f, path)
			if code != 0 || errOut != "" {
				t.Errorf("%s: exit %d, stderr %q\n%s", f, code, errOut, out)
			}
			checkGolden(t, "audit/"+f+".txt", []byte(out))
		}
	})
	t.Run("audit errors", func(t *testing.T) {
		for _, tc := range []struct {
			args []string
			want string
		}{
			{[]string{"audit", run}, "--corpus CORPUS is required"},
			{[]string{"audit", "--corpus", c}, "no RUN.jsonl"},
			{[]string{"audit", "--corpus", c, "--format", "bard", run}, `unknown --format "bard"`},
			{[]string{"audit", "--corpus", c, "--format", "anthropic", run}, "run.jsonl:1: fields: unknown key"},
			{[]string{"audit", "--corpus", "/no/such/corpus", run}, "not a citecheck corpus"},
			{[]string{"locate", "--corpus", c, "a.jsonl", "b.jsonl"}, "at most one"},
		} {
			_, errOut, code := runCLI(t, tc.args...)
			if code != exitUsage || !strings.Contains(errOut, tc.want) {
				t.Errorf("%q: exit %d, stderr %q; want exit 2 mentioning %q", tc.args, code, errOut, tc.want)
			}
		}
	})
	t.Run("help", func(t *testing.T) {
		for _, verb := range []string{"locate", "audit"} {
			out, _, code := runCLI(t, verb, "--help")
			if code != 0 {
				t.Errorf("%s --help: exit %d", verb, code)
			}
			checkGolden(t, verb+"/help.txt", []byte(out))
		}
	})
}
