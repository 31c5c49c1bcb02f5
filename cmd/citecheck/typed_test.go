package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Inputs of the worked example, relative to this package.
const (
	typedQuestions = "../../typedqa/questions-default.json"
	typedTruth     = "../../fixtures/typed/truth.csv"
	typedResponses = "../../fixtures/typed/responses.csv"
)

func typedArgs(extra ...string) []string {
	return append([]string{"typed", "--questions", typedQuestions, "--truth", typedTruth, "--responses", typedResponses}, extra...)
}

// TestTypedGolden runs the command on fixtures/typed and compares every
// output with its golden file.
func TestTypedGolden(t *testing.T) {
	items := filepath.Join(t.TempDir(), "items.csv")
	tests := []struct {
		name   string
		args   []string
		golden string
	}{
		{"table", typedArgs(), "typed/table.txt"},
		{"json", typedArgs("--json"), "typed/results.json"},
		{"items", typedArgs("--json", "--items", items), "typed/results.json"},
		{"explicit default dictionary", append(typedArgs(), "--dict", "../../typedqa/dictionary-default.json"), "typed/table.txt"},
		{"help", []string{"typed", "--help"}, "typed/help.txt"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(strings.NewReader(""), &stdout, &stderr, tc.args)
			if code := exitCode(&stderr, err); code != exitOK {
				t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
			}
			if stderr.Len() > 0 {
				t.Errorf("unexpected stderr:\n%s", stderr.String())
			}
			checkGolden(t, tc.golden, stdout.Bytes())
			if strings.HasSuffix(tc.golden, ".json") {
				var v struct {
					Results []map[string]any `json:"results"`
				}
				if err := json.Unmarshal(stdout.Bytes(), &v); err != nil || len(v.Results) != 2*2*22 {
					t.Errorf("JSON output: %v, %d results, want 88", err, len(v.Results))
				}
			}
		})
	}
	got, err := os.ReadFile(items)
	if err != nil {
		t.Fatalf("--items wrote nothing: %v", err)
	}
	checkGolden(t, "typed/items.csv", got)
}

// TestTypedErrors: bad usage and bad input exit 2 with a message naming
// the file and line.
func TestTypedErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	badTruth := write("bad-truth.csv", "document,question,value\nd,Q1,Y\nd,Q1,N\n")
	badResp := write("bad-resp.jsonl", `{"model": "m", "condition": "c", "run": 1, "document": "d", "question": "Q1", "value": "Y", "value": "N"}`+"\n")
	oneTruth := write("one-truth.csv", "document,question,value\nd,Q1,Y\n")
	oneResp := write("one-resp.csv", "model,condition,run,document,question,value\nm,c,1,d,Q1,Y\nm,c,1,d,Q3,N\n")
	badDict := write("dict.json", `{"classes": [{"canonical": "a", "forms": ["b c"]}]}`)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no flags", []string{"typed"}, "--questions is required"},
		{"no responses", []string{"typed", "--questions", typedQuestions, "--truth", typedTruth}, "--responses is required"},
		{"positional", typedArgs("extra.csv"), `unexpected argument "extra.csv"`},
		{"unknown flag", typedArgs("--format", "csv"), "flag provided but not defined: -format"},
		{"missing file", []string{"typed", "--questions", filepath.Join(dir, "none.json"), "--truth", typedTruth, "--responses", typedResponses}, "no such file"},
		{"duplicate truth row", []string{"typed", "--questions", typedQuestions, "--truth", badTruth, "--responses", typedResponses}, badTruth + ":3: duplicate row"},
		{"duplicate JSON key", []string{"typed", "--questions", typedQuestions, "--truth", typedTruth, "--responses", badResp}, badResp + `:1: value: duplicate key "value"`},
		{"no ground truth", []string{"typed", "--questions", typedQuestions, "--truth", oneTruth, "--responses", oneResp}, oneResp + ":3: question: question Q3 of document \"d\" has no ground truth"},
		{"bad dictionary", typedArgs("--dict", badDict), badDict + `:1: forms: "b c" is not a single word`},
		{"two stdin inputs", []string{"typed", "--questions", typedQuestions, "--truth", "-", "--responses", "-"}, "only one input can be read from stdin"},
		{"items to stdout", typedArgs("--items", "-"), "--items needs a file name"},
		{"items in a missing folder", typedArgs("--items", filepath.Join(dir, "no", "items.csv")), "--items"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(strings.NewReader(""), &stdout, &stderr, tc.args)
			if code := exitCode(&stderr, err); code != exitUsage {
				t.Errorf("exit %d, want %d (err %v)", code, exitUsage, err)
			}
			if !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("stderr %q does not say %q", stderr.String(), tc.want)
			}
			if stdout.Len() > 0 {
				t.Errorf("stdout not empty on error:\n%s", stdout.String())
			}
		})
	}
}

// TestTypedStdin: an input named "-" is read from stdin; errors then name
// the file "-".
func TestTypedStdin(t *testing.T) {
	resp, err := os.ReadFile(typedResponses)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err = run(bytes.NewReader(resp), &stdout, &stderr, []string{"typed", "--questions", typedQuestions, "--truth", typedTruth, "--responses", "-"})
	if code := exitCode(&stderr, err); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	checkGolden(t, "typed/table.txt", stdout.Bytes())

	stdin := strings.NewReader("model,condition,run,document,question,value\nm,c,1,registro-014,Q99,Y\n")
	stdout.Reset()
	stderr.Reset()
	err = run(stdin, &stdout, &stderr, []string{"typed", "--questions", typedQuestions, "--truth", typedTruth, "--responses", "-"})
	if code := exitCode(&stderr, err); code != exitUsage || !strings.Contains(stderr.String(), `-:2: question: unknown question id "Q99"`) {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}
