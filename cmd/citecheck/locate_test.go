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
		stdin := strings.NewReader(`{"id": "a", "document": "price-list.pdf", "quote": "Housing H-310: 18.20 per piece", "page": 1}` + "\n")
		out, _, code := runCLIWithStdin(t, stdin, "locate", "--corpus", c, "-")
		want := `{"id":"a","status":"unique","pages":[1],"spans":[{"page":1,"start":67,"end":97}],"match":"exact","document":"price-list.pdf","occurrences":1,"page_check":"physical"}` + "\n"
		if code != 0 || out != want {
			t.Errorf("exit %d\n got %s\nwant %s", code, out, want)
		}
	})
	t.Run("locate bad input", func(t *testing.T) {
		stdin := strings.NewReader("{\"id\": \"a\", \"document\": \"x.pdf\", \"quote\": \"q\"}\n{\"id\": \"b\", \"document\": \"x.pdf\", \"quote\": \"q\", \"page\": -1}\n")
		out, errOut, code := runCLIWithStdin(t, stdin, "locate", "--corpus", c)
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
			path := filepath.Join("..", "..", "runs", "testdata", "adapters", f+".jsonl")
			out, errOut, code := runCLI(t, "audit", "--corpus", c, "--format", f, path)
			if code != 0 || errOut != "" {
				t.Errorf("%s: exit %d, stderr %q\n%s", f, code, errOut, out)
			}
			checkGolden(t, "audit/"+f+".txt", []byte(out))
		}
	})
	t.Run("audit no citations read", func(t *testing.T) {
		// A record whose answer cites ([1]) but from which the
		// adapter reads nothing is reported by line, and the audit never
		// passes it; a file of such records alone is not "every citation
		// is unique" (exit 0) either.
		lost := `{"arm": "A", "session": 1, "question": "q01", "documents": ["supplier-policy.pdf"], "response": {"type": "message", "content": [{"type": "text", "text": "Within 10 working days [1]."}]}}`
		good := `{"arm": "A", "session": 1, "question": "q02", "documents": ["supplier-policy.pdf"], "response": {"type": "message", "content": [{"type": "text", "text": "x", "citations": [{"type": "char_location", "cited_text": "Invoices are paid within 45 calendar days of receipt.", "document_index": 0}]}]}}`
		t.Chdir(t.TempDir())
		writeFile(t, "lost.jsonl", lost+"\n")
		writeFile(t, "mixed.jsonl", good+"\n"+lost+"\n")
		for _, f := range []string{"lost.jsonl", "mixed.jsonl"} {
			out, errOut, code := runCLI(t, "audit", "--corpus", c, f)
			if code != exitFailed || errOut != "" {
				t.Errorf("%s: exit %d (want 1), stderr %q", f, code, errOut)
			}
			checkGolden(t, "audit/"+strings.TrimSuffix(f, ".jsonl")+".txt", []byte(out))
		}
		out, _, code := runCLI(t, "audit", "--corpus", c, "--json", "mixed.jsonl")
		if code != exitFailed {
			t.Errorf("--json: exit %d", code)
		}
		checkGolden(t, "audit/mixed.json", []byte(out))
	})
	t.Run("audit errors", func(t *testing.T) {
		for _, tc := range []struct {
			args []string
			want string
		}{
			{[]string{"audit", run}, "--corpus CORPUS is required"},
			{[]string{"audit", "--corpus", c}, "no RUN.jsonl"},
			{[]string{"audit", "--corpus", c, "--format", "bard", run}, `unknown --format "bard"`},
			{[]string{"audit", "--corpus", c, "--format", "anthropic", run}, "run.jsonl:1: the file mixes formats: this line is a run record, but the file is read as an anthropic envelope"},
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
