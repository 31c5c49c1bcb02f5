package grade_test

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/corpus/ingest"
	"github.com/citecheck/citecheck/freeze"
	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/internal/shareddata"
	"github.com/citecheck/citecheck/runs"
	"github.com/citecheck/citecheck/spans"
	"github.com/stretchr/testify/require"
)

// gradeExamples runs the worked examples of ../shared/grading through the
// path a user takes: import-text, freeze, verify, grade. It returns the
// results file.
func gradeExamples(t *testing.T, recs string) string {
	t.Helper()
	shared := shareddata.Path(t, "grading")
	dir := t.TempDir()
	_, err := ingest.ImportText(filepath.Join(dir, "corpus"), []string{filepath.Join(shared, "pages")}, ingest.ImportOptions{})
	require.NoError(t, err)
	ref, err := os.ReadFile(filepath.Join(shared, "reference.json"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "reference.json"), ref, 0o644))
	lock := filepath.Join(dir, "eval.lock")
	_, err = freeze.Write(freeze.Inputs{LockPath: lock, CorpusDir: filepath.Join(dir, "corpus"),
		ReferencePath: filepath.Join(dir, "reference.json"), Toolchain: freeze.CurrentToolchain()})
	require.NoError(t, err)
	ev, err := freeze.Open(lock, freeze.CurrentToolchain())
	require.NoError(t, err)
	store, err := corpus.Open(ev.CorpusDir)
	require.NoError(t, err)
	ix, err := citations.NewIndex(store, citations.Options{})
	require.NoError(t, err)
	g, err := grade.New(ix, ev.Reference, true)
	require.NoError(t, err)
	out := filepath.Join(dir, "results.jsonl")
	f, err := os.Create(out)
	require.NoError(t, err)
	defer f.Close()
	in := grade.Input{File: recs, Each: func(fn func(*runs.Record) error) error {
		r, err := os.Open(recs)
		if err != nil {
			return err
		}
		defer r.Close()
		return runs.EachRun(r, recs, "run", fn)
	}}
	n := 0
	err = g.Run([]grade.Input{in}, f, grade.RunOptions{Plan: ev.Plan, SpillDir: dir, Written: func(*grade.Result) { n++ }})
	require.NoError(t, err)
	require.Equal(t, 64, n)
	return out
}

type expectation struct {
	Case      string `json:"case"`
	Arm       string `json:"arm"`
	Session   int    `json:"session"`
	Question  string `json:"question"`
	Contested bool   `json:"contested"`
	Ambiguity string `json:"ambiguity"`
	Expect    struct {
		Fields    map[string]string `json:"fields"`
		Citations []struct {
			ID      *string `json:"id"`
			Verdict string  `json:"verdict"`
			Reason  string  `json:"reason"`
		} `json:"citations"`
		Factual    *string `json:"factual"`
		Supported  *string `json:"supported"`
		Abstention *string `json:"abstention"`
	} `json:"expect"`
}

func readJSONL[T any](t *testing.T, path string) []T {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []T
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var v T
		require.NoError(t, json.Unmarshal(line, &v), "%s", line)
		out = append(out, v)
	}
	return out
}

func str(p *string) string {
	if p == nil {
		return "null"
	}
	return *p
}

func outcome(p *grade.Outcome) string {
	if p == nil {
		return "null"
	}
	return string(*p)
}

// TestWorkedExamples grades the 64 worked examples of ../shared/grading
// (contested ones included, each decided by a reading of docs/grading.md's
// "Readings" table) and compares every verdict, as check.py does; then runs
// check.py itself.
func TestWorkedExamples(t *testing.T) {
	shared := shareddata.Path(t, "grading")
	out := gradeExamples(t, filepath.Join(shared, "runs.jsonl"))
	results := map[string]grade.Result{}
	for _, r := range readJSONL[grade.Result](t, out) {
		results[r.Arm] = r
	}
	for _, e := range readJSONL[expectation](t, filepath.Join(shared, "expected.jsonl")) {
		t.Run(e.Case, func(t *testing.T) {
			r, ok := results[e.Arm]
			require.True(t, ok, "no result")
			why := "uncontested"
			if e.Contested {
				why = "reading " + e.Ambiguity
			}
			for f, want := range e.Expect.Fields {
				require.Equal(t, want, string(r.Fields[f].Verdict), "field %s (%s): %+v", f, why, r.Fields[f])
			}
			require.Len(t, r.Citations, len(e.Expect.Citations), "citations (%s)", why)
			for i, c := range e.Expect.Citations {
				got := r.Citations[i]
				require.Equal(t, str(c.ID), str(got.ID), "citation %d id", i)
				require.Equal(t, c.Verdict, string(got.Verdict), "citation %d (%s): %s", i, why, got.Detail)
				if c.Verdict != "pass" {
					require.Equal(t, c.Reason, string(got.Reason), "citation %d (%s)", i, why)
				}
			}
			require.Equal(t, str(e.Expect.Factual), outcome(r.Factual), "factual (%s)", why)
			require.Equal(t, str(e.Expect.Supported), outcome(r.Supported), "supported (%s)", why)
			require.Equal(t, str(e.Expect.Abstention), outcome(r.Abstention), "abstention (%s): %v", why, r.AbstentionReasons)
		})
	}
	cmd := exec.Command("python3", filepath.Join(shared, "check.py"), out, filepath.Join(shared, "expected.jsonl"))
	got, err := cmd.CombinedOutput()
	require.NoError(t, err, "check.py: %s", got)
	require.True(t, strings.HasSuffix(strings.TrimSpace(string(got)), "grading: strict=54/54 lenient=10/10"), "check.py: %s", got)
}

// BenchmarkGradeExamples grades the 64 worked examples repeatedly, each
// repetition a new session (make bench; the whole process is measured by
// citecheck-bench grade).
func BenchmarkGradeExamples(b *testing.B) {
	shared := shareddata.Path(b, "grading")
	dir := b.TempDir()
	_, err := ingest.ImportText(filepath.Join(dir, "corpus"), []string{filepath.Join(shared, "pages")}, ingest.ImportOptions{})
	require.NoError(b, err)
	store, err := corpus.Open(filepath.Join(dir, "corpus"))
	require.NoError(b, err)
	ix, err := citations.NewIndex(store, citations.Options{})
	require.NoError(b, err)
	ref, err := spans.ReadFile(filepath.Join(shared, "reference.json"))
	require.NoError(b, err)
	g, err := grade.New(ix, ref, false)
	require.NoError(b, err)
	f, err := os.Open(filepath.Join(shared, "runs.jsonl"))
	require.NoError(b, err)
	recs, err := runs.ReadRecords(f, "runs.jsonl")
	f.Close()
	require.NoError(b, err)
	const n = 20000
	in := grade.Input{File: "bench", Each: func(fn func(*runs.Record) error) error {
		for i := range n {
			r := recs[i%len(recs)]
			r.Session = i/len(recs) + 1
			if err := fn(&r); err != nil {
				return err
			}
		}
		return nil
	}}
	b.ResetTimer()
	for range b.N {
		if err := g.Run([]grade.Input{in}, io.Discard, grade.RunOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "attempts/s")
}
