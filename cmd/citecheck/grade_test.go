package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/internal/shareddata"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gradingDir copies the worked examples' reference and runs into a fresh
// folder, links their pages, and changes into it, so that output names
// files relatively: pages/, reference.json, runs.jsonl.
func gradingDir(t *testing.T) string {
	t.Helper()
	shared := shareddata.Path(t, "grading")
	t.Chdir(t.TempDir())
	require.NoError(t, os.Symlink(filepath.Join(shared, "pages"), "pages"))
	for _, f := range []string{"reference.json", "runs.jsonl"} {
		data, err := os.ReadFile(filepath.Join(shared, f))
		require.NoError(t, err)
		writeFile(t, f, string(data))
	}
	return shared
}

// tourTail is how many lines of grade's output the README's tour shows.
const tourTail = 19

// TestGradeWorkedExamples runs the README's tour: import-text, freeze and
// grade on ../shared/grading; the output is golden (testdata/grade/tour.txt,
// also checked against the README), and check.py agrees with every verdict.
func TestGradeWorkedExamples(t *testing.T) {
	shared := gradingDir(t)
	fixedToolchain(t)
	var tour strings.Builder
	for _, args := range [][]string{
		{"import-text", "--out", "corpus", "pages"},
		{"freeze", "--corpus", "corpus", "reference.json", "--out", "eval.lock"},
		{"grade", "--lock", "eval.lock", "--out", "results", "runs.jsonl"},
	} {
		out, errOut, code := runCLI(t, args...)
		want := 0
		if args[0] == "grade" {
			want = 1 // the examples fail and are unresolved on purpose
		}
		require.Equal(t, want, code, "%v: %s%s", args, out, errOut)
		require.Empty(t, errOut)
		cmd := "$ citecheck " + strings.Join(args, " ")
		if args[0] == "grade" {
			// The table has a row per example (each is its own arm); the
			// tour shows its end, as "| tail" would.
			checkGolden(t, "grade/examples.txt", []byte(out))
			lines := strings.SplitAfter(out, "\n")
			out = strings.Join(lines[len(lines)-tourTail-1:], "")
			cmd += fmt.Sprintf(" | tail -n %d", tourTail)
		}
		if args[0] == "freeze" {
			// The root hashes the toolchain too; a reader's differs.
			out = regexp.MustCompile(`(?m)^root blake3:[0-9a-f]+\n`).ReplaceAllString(out, "")
		}
		tour.WriteString(cmd + "\n" + out + "\n")
	}
	checkGolden(t, "grade/tour.txt", []byte(tour.String()))
	check, err := exec.Command("python3", filepath.Join(shared, "check.py"), "results/results.jsonl", filepath.Join(shared, "expected.jsonl")).CombinedOutput()
	require.NoError(t, err, "%s", check)
	assert.Contains(t, string(check), "grading: strict=54/54 lenient=10/10")

	// Grading again gives the same bytes.
	first, err := os.ReadFile("results/results.jsonl")
	require.NoError(t, err)
	_, _, code := runCLI(t, "grade", "--lock", "eval.lock", "--out", "again", "runs.jsonl")
	require.Equal(t, 1, code)
	again, err := os.ReadFile("again/results.jsonl")
	require.NoError(t, err)
	assert.Equal(t, string(first), string(again))
}

// TestReadmeGradeTourIsReal keeps the README's grading tour equal to the
// golden output of TestGradeWorkedExamples.
func TestReadmeGradeTourIsReal(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	want, err := os.ReadFile("testdata/grade/tour.txt")
	require.NoError(t, err)
	_, block, ok := strings.Cut(string(readme), "<!-- grade tour: testdata/grade/tour.txt -->\n```\n")
	require.True(t, ok, "README has no grade tour block")
	block, _, _ = strings.Cut(block, "```")
	assert.Equal(t, string(want), block, "README's grading tour differs from testdata/grade/tour.txt")
}

// freezeExamples imports the examples' pages and freezes them in eval.lock.
func freezeExamples(t *testing.T) {
	t.Helper()
	for _, args := range [][]string{
		{"import-text", "--out", "corpus", "pages"},
		{"freeze", "--corpus", "corpus", "reference.json", "--out", "eval.lock"},
	} {
		_, errOut, code := runCLI(t, args...)
		require.Equal(t, 0, code, errOut)
	}
}

// TestGradeRefusesBadRuns: every fault of a run file is an input error
// naming the file and line, exit 2, and no results file is left.
func TestGradeRefusesBadRuns(t *testing.T) {
	gradingDir(t)
	freezeExamples(t)
	good := `{"arm": "A", "session": 1, "question": "Q01", "status": "ok", "response": "Samples: 12 samples per batch", "citations": []}`
	tests := []struct {
		name, content, want string
	}{
		{"invalid JSON", good + "\n{\"arm\": \"A\"\n", "bad.jsonl:2: "},
		{"unknown question", good + "\n" + strings.Replace(good, "Q01", "Q99", 1) + "\n", `bad.jsonl:2: question: no such question in the reference: "Q99"`},
		{"bad status", strings.Replace(good, `"ok"`, `"done"`, 1) + "\n", `bad.jsonl:1: status: invalid value: "done"`},
		{"missing key", strings.Replace(good, `"status": "ok", `, "", 1) + "\n", "bad.jsonl:1: status: missing"},
		{"invalid UTF-8", good + "\n" + strings.Replace(good, "12", "\xff", 1) + "\n", "bad.jsonl:2: invalid UTF-8"},
		{"a 10 MB line", good + "\n" + strings.Replace(good, "Samples:", strings.Repeat("x", 10<<20), 1) + "\n", "bad.jsonl:2: input exceeds the size limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			writeFile(t, "bad.jsonl", tt.content)
			out, errOut, code := runCLI(t, "grade", "--lock", "eval.lock", "--out", "res", "bad.jsonl")
			assert.Equal(t, 2, code, "%s%s", out, errOut)
			assert.Contains(t, errOut, tt.want)
			_, err := os.Stat("res/results.jsonl")
			assert.True(t, os.IsNotExist(err), "a results file was left after an input error")
		})
	}
	// A file that does not exist, and no file at all.
	_, errOut, code := runCLI(t, "grade", "--lock", "eval.lock", "--out", "res", "nowhere.jsonl")
	assert.Equal(t, 2, code, errOut)
	_, errOut, code = runCLI(t, "grade", "--lock", "eval.lock", "--out", "res")
	assert.Equal(t, 2, code, errOut)
	// An empty run file grades nothing: neither "all pass" (0) nor a
	// failure of the runs (1), but an input with no records (2).
	writeFile(t, "empty.jsonl", "")
	out, errOut, code := runCLI(t, "grade", "--lock", "eval.lock", "--out", "res", "empty.jsonl")
	assert.Equal(t, 2, code, out)
	assert.Equal(t, "citecheck: grade: no records in empty.jsonl\n", errOut)
	_, err := os.Stat("res/results.jsonl")
	assert.True(t, os.IsNotExist(err), "a results file was left for an empty run")
}

// TestGradeUnreadCitations: a record whose adapter left citations unread
// is never a pass, even with every verdict passing; grade counts it, lists
// it with the adapter's note and exits 1.
func TestGradeUnreadCitations(t *testing.T) {
	gradingDir(t)
	freezeExamples(t)
	pass := `{"arm": "A", "session": 1, "question": "Q01", "status": "ok", "response": "The supplier must draw 12 samples per batch.", "citations": [{"id": "c1", "document": "supplier-qa.pdf", "quote": "The supplier shall draw 12 samples per batch for dimensional checks.", "page": 2}]`
	writeFile(t, "pass.jsonl", pass+"}\n")
	out, errOut, code := runCLI(t, "grade", "--lock", "eval.lock", "--out", "res", "pass.jsonl")
	require.Equal(t, 0, code, "the record passes as it is: %s%s", out, errOut)
	writeFile(t, "unread.jsonl", pass+`, "unread": ["marker [2] names no citation"]}`+"\n")
	out, errOut, code = runCLI(t, "grade", "--lock", "eval.lock", "--out", "res", "unread.jsonl")
	assert.Equal(t, 1, code, errOut)
	assert.Contains(t, out, "unread.jsonl:1 A/1 #1 Q01: citations not read (marker [2] names no citation)")
	assert.Regexp(t, `no_citation +unread`, out, "a column counts such results")
	data, err := os.ReadFile("res/results.jsonl")
	require.NoError(t, err)
	assert.Contains(t, string(data), `"unread":["marker [2] names no citation"]`, "results.jsonl keeps the note")
}

// TestGradeRefusesChangedLock: a changed page text or reference stops
// grading with exit 3 and names what changed.
func TestGradeRefusesChangedLock(t *testing.T) {
	gradingDir(t)
	freezeExamples(t)
	edit(t, "reference.json", "12 samples per batch", "13 samples per batch")
	out, errOut, code := runCLI(t, "grade", "--lock", "eval.lock", "--out", "res", "runs.jsonl")
	assert.Equal(t, 3, code, "%s%s", out, errOut)
	assert.Contains(t, out, "changed: reference reference.json")
	_, err := os.Stat("res/results.jsonl")
	assert.True(t, os.IsNotExist(err))
}

// TestGradeUsage: flags that do not go together are usage errors.
func TestGradeUsage(t *testing.T) {
	for _, args := range [][]string{
		{"grade", "runs.jsonl"},
		{"grade", "--out", "r", "runs.jsonl"},
		{"grade", "--lock", "l", "--corpus", "c", "--out", "r", "runs.jsonl"},
		{"grade", "--lock", "l", "--out", "r", "--format", "pdf", "runs.jsonl"},
	} {
		_, errOut, code := runCLI(t, args...)
		assert.Equal(t, 2, code, "%v: %s", args, errOut)
	}
	out, _, code := runCLI(t, "grade", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "citecheck grade --lock eval.lock --out results")
}

// TestArmsGradedApart: each arm graded in its own folder, then reported
// together, gives the summary and comparison of grading both at once; a
// planned attempt given twice (a folder reported twice, or one grading
// that holds an arm another one holds too) is refused, naming both places.
func TestArmsGradedApart(t *testing.T) {
	t.Chdir(t.TempDir())
	_, errOut, code := runCLI(t, "demo", "--out", "demo")
	require.Equal(t, 0, code, errOut)
	lock := filepath.Join("demo", "eval.lock")
	runA, runB := filepath.Join("demo", "runs", "A-anthropic.jsonl"), filepath.Join("demo", "runs", "B-lmstudio.jsonl")
	for _, g := range [][]string{{"ra", runA}, {"rb", runB}, {"rab", runA, runB}} {
		_, errOut, code := runCLI(t, append([]string{"grade", "--lock", lock, "--out"}, g...)...)
		require.Equal(t, 1, code, errOut)
	}
	read := func(dir string) string {
		data, err := os.ReadFile(filepath.Join(dir, "summary.json"))
		require.NoError(t, err)
		return string(data)
	}
	_, errOut, code = runCLI(t, "report", "ra", "rb", "--lock", lock, "--out", "apart")
	require.Equal(t, 1, code, errOut)
	_, errOut, code = runCLI(t, "report", "rab", "--lock", lock, "--out", "together")
	require.Equal(t, 1, code, errOut)
	assert.Equal(t, read("together"), read("apart"), "summary.json of the arms graded apart and together")
	apart, _, _ := runCLI(t, "compare", "ra", "rb")
	together, _, _ := runCLI(t, "compare", "rab")
	assert.Equal(t, together, apart, "the comparison of the arms graded apart and together")

	for _, tc := range []struct {
		inputs []string
		first  string
		why    string
	}{
		{[]string{"rab", "ra"}, "rab/results.jsonl:1", "arm A's attempts graded in both folders"},
		{[]string{"ra", "ra"}, "ra/results.jsonl:1", "one folder given twice"},
	} {
		for _, verb := range []string{"report", "compare"} {
			args := append([]string{verb}, tc.inputs...)
			if verb == "report" {
				args = append(args, "--out", "twice")
			}
			_, errOut, code := runCLI(t, args...)
			assert.Equal(t, 2, code, "%s: %s", tc.why, errOut)
			assert.Contains(t, errOut, "ra/results.jsonl:1: a planned attempt is in two results: A/1/", tc.why)
			assert.Contains(t, errOut, "is also at "+tc.first, tc.why)
		}
	}

	// An arm with nothing to grade: --arms writes its planned attempts as
	// missing; an arm the plan lacks is a usage error.
	out, errOut, code := runCLI(t, "grade", "--lock", lock, "--out", "rnone", "--arms", "B")
	require.Equal(t, 1, code, errOut)
	assert.Contains(t, out, "120 planned attempts never run")
	_, errOut, code = runCLI(t, "grade", "--lock", lock, "--out", "rc", "--arms", "C", runA)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `grade: --arms: arm "C": not an arm of the plan (its arms: A, B)`)
}

// TestGradeMalformedCitation: one citation a vendor wrote with a page 0
// does not refuse the run: it is graded unresolved (malformed_citation,
// the fault named) and the rest of the attempt and the file are graded.
func TestGradeMalformedCitation(t *testing.T) {
	t.Chdir(t.TempDir())
	_, errOut, code := runCLI(t, "demo", "--out", "demo")
	require.Equal(t, 0, code, errOut)
	data, err := os.ReadFile(filepath.Join("demo", "runs", "B-lmstudio.jsonl"))
	require.NoError(t, err)
	first, rest, _ := strings.Cut(string(data), "\n")
	require.Contains(t, first, `"pageNumber":2}`)
	writeFile(t, "b.jsonl", strings.Replace(first, `"pageNumber":2}`, `"pageNumber":0}`, 1)+"\n"+rest)
	out, errOut, code := runCLI(t, "grade", "--lock", filepath.Join("demo", "eval.lock"), "--out", "r", "b.jsonl")
	require.Equal(t, 1, code, "a run with a malformed citation is graded: %s%s", out, errOut)
	assert.Contains(t, out, "b.jsonl:1 B/1 #1 Q04: audit_months incorrect")
	assert.Contains(t, out, "citation c1 unresolved malformed_citation")
	results, err := os.ReadFile(filepath.Join("r", "results.jsonl"))
	require.NoError(t, err)
	assert.Contains(t, string(results), `"reason":"malformed_citation","cited":"1741948800000 - 1.pdf","quote":"Routine supplier audits take place in April and October.","detail":"malformed citation: pageNumber 0: 0 (LM Studio page numbers are read as 1-based)"`)
	out, _, code = runCLI(t, "audit", "--corpus", filepath.Join("demo", "corpus"), "b.jsonl")
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "unverifiable: malformed citation: pageNumber 0")
}

// TestGradeArmHint: when every record of an arm is extra, grade says
// which field likely disagrees with the plan: sessions given as the
// plan's running order rather than the arm's repetition, or an arm the
// plan does not have.
func TestGradeArmHint(t *testing.T) {
	t.Chdir(t.TempDir())
	_, errOut, code := runCLI(t, "demo", "--out", "demo")
	require.Equal(t, 0, code, errOut)
	data, err := os.ReadFile(filepath.Join("demo", "runs", "B-lmstudio.jsonl"))
	require.NoError(t, err)
	shifted := strings.NewReplacer(`"session":1,`, `"session":4,`, `"session":2,`, `"session":5,`, `"session":3,`, `"session":6,`).Replace(string(data))
	writeFile(t, "b-order.jsonl", shifted)
	writeFile(t, "b-lower.jsonl", strings.ReplaceAll(string(data), `"arm":"B"`, `"arm":"b"`))
	for _, tc := range []struct{ file, want, why string }{
		{"b-order.jsonl", `hint: arm "B": every record is extra: its records give session 4, 5, 6, the plan has 3 repetitions; a record's "session" is the arm's repetition`, "sessions beyond the repetitions"},
		{"b-lower.jsonl", `hint: arm "b": every record is extra: the plan has no arm "b" (did you mean "B"?) (its arms: A, B)`, "an arm in another case"},
	} {
		out, errOut, code := runCLI(t, "grade", "--lock", filepath.Join("demo", "eval.lock"), "--out", "r", tc.file)
		require.Equal(t, 1, code, errOut)
		assert.Contains(t, out, tc.want, tc.why)
	}
	out, _, _ := runCLI(t, "grade", "--lock", filepath.Join("demo", "eval.lock"), "--out", "r", filepath.Join("demo", "runs", "B-lmstudio.jsonl"))
	assert.NotContains(t, out, "hint:", "a run that answers its plan, with one extra record, needs no hint")
}

// TestReportAndCompare: report and compare on the demo's graded run; the
// table, summary.md, summary.json and the comparison are golden.
func TestReportAndCompare(t *testing.T) {
	t.Chdir(t.TempDir())
	_, errOut, code := runCLI(t, "demo", "--out", "demo")
	require.Equal(t, 0, code, errOut)
	out, errOut, code := runCLI(t, "report", "demo/results", "--out", "rep")
	require.Equal(t, 1, code, "A/1 qualifies, the other sessions do not: %s%s", out, errOut)
	checkGolden(t, "report/stdout.txt", []byte(out))
	for _, f := range []string{"summary.md", "summary.json"} {
		data, err := os.ReadFile(filepath.Join("rep", f))
		require.NoError(t, err)
		checkGolden(t, "report/"+f, data)
	}
	out, errOut, code = runCLI(t, "compare", "demo/results/results.jsonl", "--metric", "supported", "--replicates", "2000")
	require.Equal(t, 0, code, errOut)
	checkGolden(t, "report/compare.txt", []byte(out))

	// Thresholds are configurable; bad ones are usage errors.
	_, errOut, code = runCLI(t, "report", "demo/results", "--out", "rep", "--min-supported", "1.5")
	assert.Equal(t, 2, code, errOut)
	_, errOut, code = runCLI(t, "compare", "demo/results", "--arms", "A,C")
	assert.Equal(t, 2, code, errOut)
	assert.Contains(t, errOut, `--arms: no results of arm "C"; the results hold arms A, B`)
	_, errOut, code = runCLI(t, "report", "demo/results", "--out", "rep", "--arms", "a,B")
	assert.Equal(t, 2, code, errOut)
	assert.Contains(t, errOut, `--arms: no results of arm "a" (did you mean "A"?); the results hold arms A, B`, "an arm in another case")
	writeFile(t, "empty.jsonl", "")
	_, errOut, code = runCLI(t, "report", "empty.jsonl", "--out", "rep")
	assert.Equal(t, 2, code, errOut)
	assert.Contains(t, errOut, "no results in empty.jsonl")
}
