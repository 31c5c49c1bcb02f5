package main

import (
	"cmp"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/internal/testcorpus"
	"github.com/citecheck/citecheck/runs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The metamorphic tests: every verb that reads records gives, record by
// record, what it gives each record alone. A reader that let one record
// share memory with the next (run records keep bytes of their line:
// retrieval cards, a vendor's citations) breaks it, whatever the records
// hold; the plan's accounting (missing, duplicate, out-of-order work) and
// the aggregates are the only things records decide together.

// jsonlRecord is one record (non-blank line) of a JSON Lines file.
type jsonlRecord struct {
	line int
	text string // without its line break
}

// jsonlRecords lists the records of the JSON Lines file path, skipping
// blank lines as the readers do but counting them.
func jsonlRecords(t *testing.T, path string) []jsonlRecord {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []jsonlRecord
	for i, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) != "" {
			out = append(out, jsonlRecord{line: i + 1, text: line})
		}
	}
	require.NotEmpty(t, out, "%s holds no records", path)
	return out
}

// aloneRecord is a record of a file written alone.
type aloneRecord struct {
	line  int
	path  string
	lines []int // the lines the file holds: the record's, and with's
}

// splitApart writes every record of the JSON Lines file path to a file of
// its own, under path's name in a folder of its own, at its line in path
// (after blank lines): alone, it keeps its file name and line, and so its
// file:line source. with, when not nil, names records the verb cannot
// take a record without (typed's conditional questions), which the file
// then holds too, each at its own line.
func splitApart(t *testing.T, path string, with func(r jsonlRecord, all []jsonlRecord) []jsonlRecord) []aloneRecord {
	t.Helper()
	dir := t.TempDir()
	all := jsonlRecords(t, path)
	var out []aloneRecord
	for _, r := range all {
		recs := []jsonlRecord{r}
		if with != nil {
			recs = append(recs, with(r, all)...)
		}
		slices.SortFunc(recs, func(a, b jsonlRecord) int { return cmp.Compare(a.line, b.line) })
		recs = slices.CompactFunc(recs, func(a, b jsonlRecord) bool { return a.line == b.line })
		var b strings.Builder
		var lines []int
		at := 1 // the line being written
		for _, rec := range recs {
			b.WriteString(strings.Repeat("\n", rec.line-at) + rec.text)
			at = rec.line
			lines = append(lines, rec.line)
		}
		p := filepath.Join(dir, strconv.Itoa(r.line), filepath.Base(path))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		writeFile(t, p, b.String()+"\n")
		out = append(out, aloneRecord{line: r.line, path: p, lines: lines})
	}
	return out
}

// recordsApart runs out on the file path and on each of its records alone
// (splitApart), and pairs, by record line, what out says of each record
// in the whole file with what it says of it alone: {whole, alone}. out
// gives a record's part under its line, and none for a record it writes
// nothing of; a record that has a part on one side only fails the test.
func recordsApart[V any](t *testing.T, path string, with func(jsonlRecord, []jsonlRecord) []jsonlRecord, out func(t *testing.T, path string) map[int]V) map[int][2]V {
	t.Helper()
	whole := out(t, path)
	pairs := map[int][2]V{}
	for _, r := range splitApart(t, path, with) {
		parts := out(t, r.path)
		for n := range parts {
			require.Contains(t, r.lines, n, "%s:%d alone gives a part for line %d, which the file alone leaves blank", path, r.line, n)
		}
		w, inWhole := whole[r.line]
		a, alone := parts[r.line]
		require.Equal(t, inWhole, alone, "%s:%d has a part in the whole file (%v) or alone (%v), not both", path, r.line, inWhole, alone)
		if inWhole {
			pairs[r.line] = [2]V{w, a}
		}
	}
	for _, n := range slices.Sorted(maps.Keys(whole)) {
		_, ok := pairs[n]
		require.True(t, ok, "%s gives a part for line %d, which holds no record", path, n)
	}
	return pairs
}

// assertRecordsApart checks that each record's part in the whole file
// equals its part alone (recordsApart).
func assertRecordsApart[V any](t *testing.T, path string, with func(jsonlRecord, []jsonlRecord) []jsonlRecord, out func(t *testing.T, path string) map[int]V) {
	t.Helper()
	pairs := recordsApart(t, path, with, out)
	for _, n := range slices.Sorted(maps.Keys(pairs)) {
		assert.Equal(t, pairs[n][0], pairs[n][1], "%s:%d in the whole file (expected) and alone (actual)", path, n)
	}
}

// ranOrFailed requires exit 0 or 1: the verb ran, whatever its checks
// say; an input error or an internal one (an encoder fault) is no output.
func ranOrFailed(t *testing.T, args []string, out, errOut string, code int) {
	t.Helper()
	require.Contains(t, []int{exitOK, exitFailed}, code, "%q: exit %d\n%s%s", args, code, out, errOut)
}

// adapterCorpus imports, as page texts, every document the adapter
// fixtures cite: the demo PDFs' texts (the fixtures' own payloads and
// fixtures/citations) and the published payloads' documents.
func adapterCorpus(t *testing.T) string {
	t.Helper()
	adapters, err := filepath.Abs(filepath.Join("..", "..", "runs", "testdata", "adapters"))
	require.NoError(t, err)
	dir := t.TempDir()
	pages := filepath.Join(dir, "pages")
	write := func(doc string, n int, text string) {
		p := filepath.Join(pages, doc, fmt.Sprintf("%04d.txt", n))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		writeFile(t, p, text)
	}
	for _, d := range testcorpus.DemoDocuments() {
		for i, p := range d.Pages {
			write(d.Name, i+1, p.Text)
		}
	}
	for _, d := range testcorpus.PayloadDocuments(t, adapters) {
		write(d.Name, 1, d.Pages[0].Text)
	}
	c := filepath.Join(dir, "corpus")
	_, errOut, code := runCLI(t, "import-text", "--out", c, pages)
	require.Equal(t, exitOK, code, errOut)
	return c
}

// adapterFiles writes, per format the adapter fixtures hold, one file of
// every fixture record in that format (runs/testdata/adapters/*.jsonl),
// longest first: a shorter line after a longer one is where a reused
// line buffer overwrote a kept record. It returns the files by format.
func adapterFiles(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "runs", "testdata", "adapters", "*.jsonl"))
	require.NoError(t, err)
	lines := map[string][]string{}
	for _, f := range files {
		format, _, _ := strings.Cut(strings.TrimSuffix(filepath.Base(f), ".jsonl"), "-")
		require.Contains(t, runs.Formats, format, "%s is named for no format", f)
		for _, r := range jsonlRecords(t, f) {
			lines[format] = append(lines[format], r.text)
		}
	}
	dir := t.TempDir()
	out := map[string]string{}
	for format, ls := range lines {
		slices.SortStableFunc(ls, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
		out[format] = filepath.Join(dir, format+".jsonl")
		writeFile(t, out[format], strings.Join(ls, "\n")+"\n")
	}
	return out
}

// retrievalCard is the i-th record's retrieval card: its own text, of a
// length that rises and falls from record to record.
func retrievalCard(i int) string {
	text := fmt.Sprintf("card %d: %s", i, strings.Repeat("evidence ", (i*37)%41))
	card, _ := json.Marshal(map[string]any{"document": "supplier-qa.pdf", "page": 1 + i%3, "text": text})
	return string(card)
}

// examplesWithRetrieval makes the worked examples' grading folder
// (gradingDir, freezeExamples: corpus, eval.lock) and writes beside
// runs.jsonl:
//   - retrieval.jsonl: every record of runs.jsonl with retrieval cards
//     (one, or two for every third record), its line otherwise verbatim,
//     with a blank line after every fifth record;
//   - cards.jsonl: line 1 of runs.jsonl as arm A with the card "card one",
//     then as arm B with "card two", which gave arm A "card two" when
//     records shared their line's buffer.
func examplesWithRetrieval(t *testing.T) {
	t.Helper()
	gradingDir(t)
	freezeExamples(t)
	var b strings.Builder
	recs := jsonlRecords(t, "runs.jsonl")
	for i, r := range recs {
		cards := retrievalCard(i)
		if i%3 == 0 {
			cards += ", " + retrievalCard(i+len(recs))
		}
		line := strings.TrimRight(r.text, " \r")
		require.True(t, strings.HasSuffix(line, "}"), "runs.jsonl:%d is not an object", r.line)
		b.WriteString(line[:len(line)-1] + `, "retrieval": [` + cards + "]}\n")
		if i%5 == 4 {
			b.WriteString("\n")
		}
	}
	writeFile(t, "retrieval.jsonl", b.String())

	b.Reset()
	for _, c := range []struct{ arm, text string }{{"A", "card one"}, {"B", "card two"}} {
		var rec map[string]any
		require.NoError(t, json.Unmarshal([]byte(recs[0].text), &rec))
		rec["arm"] = c.arm
		rec["retrieval"] = []any{map[string]any{"document": "supplier-qa.pdf", "page": 2, "text": c.text}}
		line, err := json.Marshal(rec)
		require.NoError(t, err)
		b.Write(append(line, '\n'))
	}
	writeFile(t, "cards.jsonl", b.String())
}

// demoDir runs the demo into a fresh folder and changes into it: runs/,
// results/, corpus/ and eval.lock (with its plan).
func demoDir(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	_, errOut, code := runCLI(t, "demo", "--out", dir)
	require.Equal(t, exitOK, code, errOut)
	t.Chdir(dir)
}

// locateOut is locate's output on a file of requests, each output record
// by its request's line (locate writes one per request, in order).
func locateOut(corpus string) func(*testing.T, string) map[int]string {
	return func(t *testing.T, path string) map[int]string {
		args := []string{"locate", "--corpus", corpus, path}
		out, errOut, code := runCLI(t, args...)
		ranOrFailed(t, args, out, errOut, code)
		got := strings.SplitAfter(out, "\n")
		got = got[:len(got)-1] // after the last line break
		recs := jsonlRecords(t, path)
		require.Len(t, got, len(recs), "one output record per request")
		parts := map[int]string{}
		for i, r := range recs {
			parts[r.line] = got[i]
		}
		return parts
	}
}

// requestsOf writes the locate requests of the citations with quotes of
// the run file path (read in format) to a file beside it.
func requestsOf(t *testing.T, path, format string) string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	recs, err := runs.ReadRuns(f, path, format)
	require.NoError(t, err)
	var b strings.Builder
	enc := json.NewEncoder(&b)
	for _, rec := range recs {
		for _, c := range rec.Citations {
			if c.Quote == nil || strings.TrimSpace(*c.Quote) == "" || c.External {
				continue
			}
			doc := c.Document
			if names := rec.Documents[doc]; len(names) == 1 {
				doc = names[0]
			}
			req := map[string]any{"id": fmt.Sprintf("%d-%s", rec.Line, c.ID), "document": doc, "quote": *c.Quote}
			if c.Page != nil {
				req["page"] = *c.Page
			}
			require.NoError(t, enc.Encode(req))
		}
	}
	out := strings.TrimSuffix(path, ".jsonl") + "-quotes.jsonl"
	writeFile(t, out, b.String())
	return out
}

// TestMetamorphicLocate: locate writes for each request of a file the
// bytes it writes for that request alone.
func TestMetamorphicLocate(t *testing.T) {
	t.Run("fixtures and adapter citations", func(t *testing.T) {
		c := adapterCorpus(t)
		assertRecordsApart(t, filepath.Join("..", "..", "fixtures", "citations", "quotes.jsonl"), nil, locateOut(c))
		files := adapterFiles(t)
		for _, format := range slices.Sorted(maps.Keys(files)) {
			assertRecordsApart(t, requestsOf(t, files[format], format), nil, locateOut(c))
		}
	})
	t.Run("worked examples", func(t *testing.T) {
		examplesWithRetrieval(t)
		assertRecordsApart(t, requestsOf(t, "runs.jsonl", "run"), nil, locateOut("corpus"))
	})
}

// auditParts is what audit --json says of one record: its citations'
// entries and its note of citations not read, without the file name
// (the record alone is in another folder).
type auditParts struct {
	Citations []map[string]any
	Unread    []map[string]any
}

// auditOut is audit --json's output on a run file, per record line; the
// totals per arm and session are aggregates, left out.
func auditOut(corpus, format string) func(*testing.T, string) map[int]auditParts {
	return func(t *testing.T, path string) map[int]auditParts {
		args := []string{"audit", "--corpus", corpus, "--format", format, "--json", path}
		out, errOut, code := runCLI(t, args...)
		ranOrFailed(t, args, out, errOut, code)
		var rep struct {
			Citations, Unread []map[string]any
		}
		require.NoError(t, json.Unmarshal([]byte(out), &rep))
		parts := map[int]auditParts{}
		line := func(e map[string]any) int {
			require.Equal(t, path, e["file"])
			delete(e, "file")
			return int(e["line"].(float64))
		}
		for _, e := range rep.Citations {
			n := line(e)
			p := parts[n]
			p.Citations = append(p.Citations, e)
			parts[n] = p
		}
		for _, e := range rep.Unread {
			n := line(e)
			p := parts[n]
			p.Unread = append(p.Unread, e)
			parts[n] = p
		}
		return parts
	}
}

// TestMetamorphicAudit: audit --json says of each record of a file what it
// says of the record alone.
func TestMetamorphicAudit(t *testing.T) {
	t.Run("fixtures and adapter payloads", func(t *testing.T) {
		c := adapterCorpus(t)
		assertRecordsApart(t, filepath.Join("..", "..", "fixtures", "citations", "run.jsonl"), nil, auditOut(c, "run"))
		files := adapterFiles(t)
		for _, format := range slices.Sorted(maps.Keys(files)) {
			assertRecordsApart(t, files[format], nil, auditOut(c, format))
		}
	})
	t.Run("demo", func(t *testing.T) {
		demoDir(t)
		assertRecordsApart(t, filepath.Join("runs", "A-anthropic.jsonl"), nil, auditOut("corpus", "anthropic"))
		assertRecordsApart(t, filepath.Join("runs", "B-lmstudio.jsonl"), nil, auditOut("corpus", "lmstudio"))
	})
	t.Run("worked examples with retrieval cards", func(t *testing.T) {
		examplesWithRetrieval(t)
		for _, f := range []string{"cards.jsonl", "retrieval.jsonl"} {
			assertRecordsApart(t, f, nil, auditOut("corpus", "auto"))
		}
	})
}

// gradeOut is grade's results.jsonl on a run file, each result by its
// source line, decoded; results of missing work (no source) are the
// plan's, left out, and the source's file name is left out (the record
// alone is in another folder).
func gradeOut(lock string) func(*testing.T, string) map[int]map[string]any {
	return func(t *testing.T, path string) map[int]map[string]any {
		res := t.TempDir()
		args := []string{"grade", "--lock", lock, "--out", res, "--json", path}
		out, errOut, code := runCLI(t, args...)
		ranOrFailed(t, args, out, errOut, code)
		data, err := os.ReadFile(filepath.Join(res, "results.jsonl"))
		require.NoError(t, err)
		parts := map[int]map[string]any{}
		for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			var r map[string]any
			require.NoError(t, json.Unmarshal([]byte(line), &r), line)
			src, ok := r["source"].(map[string]any)
			if !ok {
				continue
			}
			require.Equal(t, path, src["file"])
			n := int(src["line"].(float64))
			delete(src, "file")
			require.NotContains(t, parts, n, "two results of %s:%d", path, n)
			parts[n] = r
		}
		return parts
	}
}

// planAccounting drops from a result, in the whole file and alone, what
// the plan's accounting decides (or, without a plan, the other records of
// its session): whether it came out of order, its position without a
// plan, and for a record that is a duplicate (or extra) in the file but
// not alone, every verdict, which its attempt status fails in the file;
// what the record itself brings stays (response, retrieval, timing,
// source line).
func planAccounting(whole, alone map[string]any, planned bool) {
	for _, r := range []map[string]any{whole, alone} {
		delete(r, "out_of_order")
		if !planned {
			delete(r, "position")
		}
	}
	if a := whole["attempt"]; (a == "duplicate" || a == "extra") && alone["attempt"] != a {
		for _, r := range []map[string]any{whole, alone} {
			for _, k := range []string{"attempt", "fields", "citations", "factual", "supported", "abstention", "abstention_reasons", "claims", "review"} {
				delete(r, k)
			}
		}
	}
}

// TestMetamorphicGrade: grade gives each record of a run file the result
// it gives the record alone, plan-level accounting aside (planAccounting).
// Each run is graded once whole and once per record: the demo's runs
// (against its lock and plan) and the worked examples with retrieval
// cards (without a plan).
func TestMetamorphicGrade(t *testing.T) {
	check := func(t *testing.T, path string, planned bool) {
		pairs := recordsApart(t, path, nil, gradeOut("eval.lock"))
		attempts := map[any]int{}
		for _, n := range slices.Sorted(maps.Keys(pairs)) {
			whole, alone := pairs[n][0], pairs[n][1]
			attempts[whole["attempt"]]++
			planAccounting(whole, alone, planned)
			assert.Equal(t, whole, alone, "%s:%d in the whole file (expected) and alone (actual)", path, n)
		}
		t.Logf("%s: %d results compared, attempts %v", path, len(pairs), attempts)
	}
	t.Run("demo", func(t *testing.T) {
		demoDir(t)
		// Arm A's 120 records cut to every fourth (30, its error among
		// them) to keep the test near 5 s; arm B's 121 whole, for its
		// interrupted, duplicate and extra records.
		a := filepath.Join("runs", "A-anthropic.jsonl")
		data, err := os.ReadFile(a)
		require.NoError(t, err)
		lines := strings.Split(string(data), "\n")
		for i := range lines {
			if (i+1)%4 != 2 {
				lines[i] = "" // blank: the others keep their lines
			}
		}
		writeFile(t, a, strings.Join(lines, "\n"))
		check(t, a, true)
		check(t, filepath.Join("runs", "B-lmstudio.jsonl"), true)
	})
	t.Run("worked examples with retrieval cards", func(t *testing.T) {
		examplesWithRetrieval(t)
		check(t, "cards.jsonl", false)
		check(t, "retrieval.jsonl", false)
	})
}

// typedJSONL writes the CSV file path as JSON Lines of its columns, in
// the shapes the reader takes: "run" a number on every other row (else a
// string), every other empty "value" null (a blank).
func typedJSONL(t *testing.T, path, out string) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	var b strings.Builder
	blanks := 0
	for i, row := range rows[1:] {
		rec := map[string]any{}
		for j, col := range rows[0] {
			rec[col] = row[j]
			if n, err := strconv.Atoi(row[j]); col == "run" && err == nil && i%2 == 0 {
				rec[col] = n
			}
			if col == "value" && row[j] == "" {
				if blanks++; blanks%2 == 0 {
					rec[col] = nil
				}
			}
		}
		line, err := json.Marshal(rec)
		require.NoError(t, err)
		b.Write(append(line, '\n'))
	}
	writeFile(t, out, b.String())
}

// typedKey is a typed response's key, as an --items row begins with it:
// model, condition, run, document, question.
func typedKey(t *testing.T, text string) []string {
	t.Helper()
	var r map[string]any
	require.NoError(t, json.Unmarshal([]byte(text), &r))
	var k []string
	for _, col := range []string{"model", "condition", "run", "document", "question"} {
		k = append(k, fmt.Sprint(r[col]))
	}
	return k
}

// typedOut is typed's --items row of each response of a responses file,
// by the response's line, scored against the ground-truth rows the file
// answers (typed requires each run to answer every row of its truth).
func typedOut(truth string) func(*testing.T, string) map[int]string {
	return func(t *testing.T, path string) map[int]string {
		lineOf := map[string]int{}
		asked := map[string]bool{} // document and question
		for _, r := range jsonlRecords(t, path) {
			k := typedKey(t, r.text)
			lineOf[strings.Join(k, ",")] = r.line
			asked[strings.Join(k[3:], ",")] = true
		}
		var gt strings.Builder
		for _, r := range jsonlRecords(t, truth) {
			var row struct{ Document, Question string }
			require.NoError(t, json.Unmarshal([]byte(r.text), &row))
			if asked[row.Document+","+row.Question] {
				gt.WriteString(r.text + "\n")
			}
		}
		dir := t.TempDir()
		sub := filepath.Join(dir, "truth.jsonl")
		writeFile(t, sub, gt.String())
		items := filepath.Join(dir, "items.csv")
		args := []string{"typed", "--questions", typedQuestions, "--truth", sub, "--responses", path, "--json", "--items", items}
		out, errOut, code := runCLI(t, args...)
		require.Equal(t, exitOK, code, "%q: %s%s", args, out, errOut)
		f, err := os.Open(items)
		require.NoError(t, err)
		defer f.Close()
		rows, err := csv.NewReader(f).ReadAll()
		require.NoError(t, err)
		parts := map[int]string{}
		for _, r := range rows[1:] {
			n, ok := lineOf[strings.Join(r[:5], ",")]
			require.True(t, ok, "an item of no response: %q", r)
			parts[n] = strings.Join(r, ",")
		}
		return parts
	}
}

// typedConditions is the response a response is scored with: the same
// run's answer for the same document to the question its question is
// conditional on (blank_when), without whose ground truth typed refuses
// the question's.
func typedConditions(t *testing.T) func(jsonlRecord, []jsonlRecord) []jsonlRecord {
	data, err := os.ReadFile(typedQuestions)
	require.NoError(t, err)
	var qs struct {
		Questions []struct {
			ID        string
			BlankWhen *struct{ Question string } `json:"blank_when"`
		}
	}
	require.NoError(t, json.Unmarshal(data, &qs))
	on := map[string]string{}
	for _, q := range qs.Questions {
		if q.BlankWhen != nil {
			on[q.ID] = q.BlankWhen.Question
		}
	}
	return func(r jsonlRecord, all []jsonlRecord) []jsonlRecord {
		k := typedKey(t, r.text)
		c, ok := on[k[4]]
		if !ok {
			return nil
		}
		for _, o := range all {
			if ko := typedKey(t, o.text); slices.Equal(ko[:4], k[:4]) && ko[4] == c {
				return []jsonlRecord{o}
			}
		}
		t.Fatalf("line %d: no answer to %s, which %s is conditional on", r.line, c, k[4])
		return nil
	}
}

// TestMetamorphicTyped: typed scores each response of a file as it scores
// the response alone (with the ground-truth row it answers, and the
// response and row its question is conditional on: typedConditions), on
// fixtures/typed written as JSON Lines (352 responses, 44 truth rows).
func TestMetamorphicTyped(t *testing.T) {
	dir := t.TempDir()
	truth, responses := filepath.Join(dir, "truth.jsonl"), filepath.Join(dir, "responses.jsonl")
	typedJSONL(t, typedTruth, truth)
	typedJSONL(t, typedResponses, responses)
	assertRecordsApart(t, responses, typedConditions(t), typedOut(truth))
}

// reportTitle is report.html's title and heading, which name the RESULTS
// inputs: the one file, or the N one-record files, so they differ; it is
// the only part of the report that names them, and is left out.
var reportTitle = regexp.MustCompile(`citecheck report: [^<]*<`)

// reportOut is what report writes for the RESULTS paths.
func reportOut(t *testing.T, args []string, paths ...string) map[string]string {
	t.Helper()
	out := t.TempDir()
	args = append(append([]string{"report", "--out", out}, args...), paths...)
	stdout, errOut, code := runCLI(t, args...)
	ranOrFailed(t, args, stdout, errOut, code)
	files := map[string]string{}
	for _, f := range []string{"summary.json", "summary.md", "report.html"} {
		data, err := os.ReadFile(filepath.Join(out, f))
		require.NoError(t, err)
		files[f] = string(data)
	}
	files["report.html"] = reportTitle.ReplaceAllString(files["report.html"], "citecheck report: RESULTS<")
	// The table names no input; its last line names the (temporary) output.
	files["stdout"], _, _ = strings.Cut(stdout, "\nwrote ")
	return files
}

// gradedResults grades the worked examples with retrieval cards into
// results/results.jsonl, for report and compare.
func gradedResults(t *testing.T) string {
	t.Helper()
	examplesWithRetrieval(t)
	args := []string{"grade", "--lock", "eval.lock", "--out", "results", "retrieval.jsonl", "cards.jsonl"}
	out, errOut, code := runCLI(t, args...)
	ranOrFailed(t, args, out, errOut, code)
	return filepath.Join("results", "results.jsonl")
}

// onesOf lists the one-record files of path's records, in order.
func onesOf(t *testing.T, path string) []string {
	t.Helper()
	var out []string
	for _, r := range splitApart(t, path, nil) {
		out = append(out, r.path)
	}
	return out
}

// TestMetamorphicReport: report on a results file of N results writes the
// same summary.json, summary.md, report.html (its title aside:
// reportTitle) and table as report on the N results given as N one-record
// files.
func TestMetamorphicReport(t *testing.T) {
	t.Run("demo", func(t *testing.T) {
		demoDir(t)
		path := filepath.Join("results", "results.jsonl")
		args := []string{"--lock", "eval.lock"}
		assert.Equal(t, reportOut(t, args, path), reportOut(t, args, onesOf(t, path)...))
	})
	t.Run("worked examples with retrieval cards", func(t *testing.T) {
		path := gradedResults(t)
		args := []string{"--lock", "eval.lock", "--arms", "A,B"}
		assert.Equal(t, reportOut(t, args, path), reportOut(t, args, onesOf(t, path)...))
	})
}

// TestMetamorphicCompare: compare on a results file of N results prints
// the same comparison, as a table and as JSON, as on the N results given
// as N one-record files.
func TestMetamorphicCompare(t *testing.T) {
	compare := func(t *testing.T, args []string, paths ...string) [2]string {
		var out [2]string
		for i, extra := range [][]string{nil, {"--json"}} {
			a := append(append(append([]string{"compare"}, args...), extra...), paths...)
			stdout, errOut, code := runCLI(t, a...)
			require.Equal(t, exitOK, code, "%q: %s", a[:len(args)+len(extra)+1], errOut)
			out[i] = stdout
		}
		return out
	}
	t.Run("demo", func(t *testing.T) {
		demoDir(t)
		path := filepath.Join("results", "results.jsonl")
		args := []string{"--replicates", "500"}
		assert.Equal(t, compare(t, args, path), compare(t, args, onesOf(t, path)...))
	})
	t.Run("worked examples with retrieval cards", func(t *testing.T) {
		path := gradedResults(t)
		// The examples' arms each answer one question; cards.jsonl's A and
		// B answer the same one.
		args := []string{"--arms", "A,B", "--replicates", "500"}
		assert.Equal(t, compare(t, args, path), compare(t, args, onesOf(t, path)...))
	})
}
