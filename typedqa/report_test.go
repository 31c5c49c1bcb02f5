package typedqa

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func mustScore(t *testing.T, truthCSV, respCSV string) *Report {
	t.Helper()
	qs := DefaultQuestions()
	truth, err := ReadTruth(strings.NewReader(truthCSV), "gt.csv", FormatCSV, qs)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := ReadResponses(strings.NewReader(respCSV), "r.csv", FormatCSV, qs)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Score(qs, DefaultDictionary(), truth, resp)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestBooleanAggregation pools five boolean items by hand: 2 correct, 1
// incorrect, 1 illegibility claim, 1 excluded (Q21 with Q19=0 on document
// e). conditional accuracy 2/3, combined 2/4, illegibility rate 1/4 of the
// questions asked.
//
// Reading (docs/typed.md, Boolean figures): the illegibility-claim rate's
// "total questions" are the questions asked, correct + incorrect +
// illegible, blank-against-blank items excluded.
func TestBooleanAggregation(t *testing.T) {
	truth := "document,question,value\nd,Q19,2\nd,Q21,Y\ne,Q19,0\ne,Q21,\nf,Q19,1\nf,Q21,N\n"
	resp := "model,condition,run,document,question,value\n" +
		"m,c,1,d,Q19,2\nm,c,1,d,Q21,Y\nm,c,1,e,Q19,0\nm,c,1,e,Q21,\nm,c,1,f,Q19,1\nm,c,1,f,Q21,illegible\n" +
		"m,c,2,d,Q19,2\nm,c,2,d,Q21,N\nm,c,2,e,Q19,0\nm,c,2,e,Q21,\nm,c,2,f,Q19,1\nm,c,2,f,Q21,n\n"
	rep := mustScore(t, truth, resp)
	var b bytes.Buffer
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	want := `{"results": [
  {"model": "m", "condition": "c", "question": "Q19", "type": "integer", "n": 6, "excluded": 0, "correct": 6, "incorrect": 0, "illegible": null, "score": 1.000000, "conditional_accuracy": null, "combined_score": null, "illegibility_rate": null},
  {"model": "m", "condition": "c", "question": "Q21", "type": "boolean", "n": 6, "excluded": 2, "correct": 2, "incorrect": 1, "illegible": 1, "score": 0.666667, "conditional_accuracy": 0.666667, "combined_score": 0.500000, "illegibility_rate": 0.250000}
]}
`
	if b.String() != want {
		t.Errorf("JSON:\n%s\nwant:\n%s", b.String(), want)
	}
	if !json.Valid(b.Bytes()) {
		t.Error("output is not valid JSON")
	}
}

// TestNullWhenNoBase: a question whose every item is excluded has no
// score: null, not 0 or NaN.
func TestNullWhenNoBase(t *testing.T) {
	rep := mustScore(t, "document,question,value\ne,Q19,0\ne,Q21,\n",
		"model,condition,run,document,question,value\nm,c,1,e,Q19,0\nm,c,1,e,Q21,\n")
	r := rep.Results[1]
	assert.Equal(t, "Q21", r.Question)
	assert.Equal(t, []int{1, 1}, []int{r.N, r.Excluded}, "n, excluded")
	assert.Equal(t, []*float64{nil, nil, nil, nil}, []*float64{r.Score, r.ConditionalAccuracy, r.CombinedScore, r.IllegibilityRate}, "every ratio nil")
	var b bytes.Buffer
	if err := rep.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if got, want := strings.Join(strings.Fields(lines[len(lines)-1]), " "), "m c Q21 boolean 1 1 0 0 0 - - - -"; got != want {
		t.Errorf("table row %q, want %q", got, want)
	}
}

// TestGradedMeans: integers with partial credit, strings and lists report
// the mean item score over items not excluded.
func TestGradedMeans(t *testing.T) {
	truth := "document,question,value\nd,Q1,Y\nd,Q2,1767\ne,Q1,N\ne,Q2,\n"
	resp := "model,condition,run,document,question,value\n" +
		"m,c,1,d,Q1,Y\nm,c,1,d,Q2,176?\nm,c,1,e,Q1,N\nm,c,1,e,Q2,\n" +
		"m,c,2,d,Q1,Y\nm,c,2,d,Q2,1767\nm,c,2,e,Q1,N\nm,c,2,e,Q2,1770\n"
	rep := mustScore(t, truth, resp)
	q2 := rep.Results[1]
	// items: 0.75 (partial), 1, excluded, 0 (year where none) -> 1.75/3
	assert.Equal(t, "Q2", q2.Question)
	assert.Equal(t, []int{4, 1, 1, 2}, []int{q2.N, q2.Excluded, q2.Correct, q2.Incorrect}, "n, excluded, correct, incorrect")
	assert.Equal(t, "0.583333", formatFixed(*q2.Score))
}

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "fixtures", "typed", name))
	if err != nil {
		t.Fatalf("fixture: %v", err)
	}
	return data
}

// renderAll is every output of a report, concatenated.
func renderAll(t *testing.T, rep *Report) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, f := range []func(*bytes.Buffer) error{
		func(w *bytes.Buffer) error { return rep.WriteTable(w) },
		func(w *bytes.Buffer) error { return rep.WriteJSON(w) },
		func(w *bytes.Buffer) error { return rep.WriteItemsCSV(w) },
	} {
		if err := f(&b); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

func scoreData(t *testing.T, truth []byte, truthName string, resp []byte, respName string) *Report {
	t.Helper()
	qs := DefaultQuestions()
	tr, err := ReadTruth(bytes.NewReader(truth), truthName, FormatAuto, qs)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := ReadResponses(bytes.NewReader(resp), respName, FormatAuto, qs)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Score(qs, DefaultDictionary(), tr, rs)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// shuffleCSV rewrites a CSV with its data rows in a random order.
func shuffleCSV(t *testing.T, data []byte, rng *rand.Rand) []byte {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	body := recs[1:]
	rng.Shuffle(len(body), func(i, j int) { body[i], body[j] = body[j], body[i] })
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.WriteAll(recs); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestDeterministicUnderShuffle: the same rows in any order give
// byte-identical table, JSON and items.
func TestDeterministicUnderShuffle(t *testing.T) {
	truth, resp := readFixture(t, "truth.csv"), readFixture(t, "responses.csv")
	want := renderAll(t, scoreData(t, truth, "truth.csv", resp, "responses.csv"))
	rng := rand.New(rand.NewPCG(2026, 8))
	for i := 0; i < 5; i++ {
		got := renderAll(t, scoreData(t, shuffleCSV(t, truth, rng), "truth.csv", shuffleCSV(t, resp, rng), "responses.csv"))
		if !bytes.Equal(got, want) {
			t.Fatalf("shuffle %d changed the output", i)
		}
	}
}

// TestJSONLMatchesCSV: the fixture converted to JSON Lines (run as a JSON
// integer, blank values as null) scores identically.
func TestJSONLMatchesCSV(t *testing.T) {
	truth, resp := readFixture(t, "truth.csv"), readFixture(t, "responses.csv")
	want := renderAll(t, scoreData(t, truth, "truth.csv", resp, "responses.csv"))
	got := renderAll(t, scoreData(t, csvToJSONL(t, truth), "truth.jsonl", csvToJSONL(t, resp), "responses.jsonl"))
	if !bytes.Equal(got, want) {
		t.Fatal("JSON Lines input scored differently from CSV")
	}
}

func csvToJSONL(t *testing.T, data []byte) []byte {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, rec := range recs[1:] {
		b.WriteByte('{')
		for i, col := range recs[0] {
			if i > 0 {
				b.WriteString(", ")
			}
			k, _ := json.Marshal(col)
			b.Write(k)
			b.WriteString(": ")
			switch {
			case col == "value" && rec[i] == "":
				b.WriteString("null")
			case col == "run":
				b.WriteString(rec[i]) // fixture runs are integers
			default:
				v, _ := json.Marshal(rec[i])
				b.Write(v)
			}
		}
		b.WriteString("}\n")
	}
	return b.Bytes()
}

// TestFixtureCoverage guards the example set: it must keep exercising the
// paths the README's worked example shows.
func TestFixtureCoverage(t *testing.T) {
	rep := scoreData(t, readFixture(t, "truth.csv"), "truth.csv", readFixture(t, "responses.csv"), "responses.csv")
	seen := map[string]bool{}
	models, conds, runs, docs := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, it := range rep.Items {
		seen[string(it.Type)+"/"+it.Reason] = true
		models[it.Model], conds[it.Condition], runs[it.Run], docs[it.Document] = true, true, true, true
	}
	if len(models) != 2 || len(conds) != 2 || len(runs) != 2 || len(docs) != 2 {
		t.Errorf("fixture has %d models, %d conditions, %d runs, %d documents; want 2 of each", len(models), len(conds), len(runs), len(docs))
	}
	for _, k := range []string{
		"boolean/match", "boolean/mismatch", "boolean/illegible_claim", "boolean/both_blank", "boolean/answer_where_truth_blank", "boolean/invalid_answer",
		"integer/match", "integer/mismatch", "integer/partial_credit", "integer/both_blank", "integer/answer_where_truth_blank", "integer/illegible_not_allowed",
		"paired_integer/match", "paired_integer/mismatch", "paired_integer/invalid_answer",
		"string/char_accuracy", "string/both_blank", "string/blank_answer", "string/illegible_not_allowed",
		"list/list_f1", "list/both_blank", "list/blank_answer", "list/answer_where_truth_blank",
	} {
		if !seen[k] {
			t.Errorf("fixture no longer covers %s", k)
		}
	}
	var b bytes.Buffer
	if err := rep.WriteItemsCSV(&b); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"fig.lo", "d.co", "domest", "figlo", "1767/8", "Caltran", "moglie,"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("fixture answers no longer contain %q", s)
		}
	}
}

// TestReadmeSectionIsReal: the worked example in docs/typed.md must be
// what the code prints for fixtures/typed, so the documentation cannot
// drift from the implementation.
func TestReadmeSectionIsReal(t *testing.T) {
	doc, err := os.ReadFile("../docs/typed.md")
	if err != nil {
		t.Fatal(err)
	}
	rep := scoreData(t, readFixture(t, "truth.csv"), "truth.csv", readFixture(t, "responses.csv"), "responses.csv")
	var table, js, items bytes.Buffer
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteItemsCSV(&items); err != nil {
		t.Fatal(err)
	}
	// Each fenced block that shows output: the lines after the command.
	blocks := map[string]string{}
	for _, b := range strings.Split(string(doc), "```\n")[1:] {
		lines := strings.Split(b, "\n")
		switch {
		case strings.Contains(b, "| head -n 23"):
			blocks["table"] = strings.Join(lines[2:], "\n")
		case strings.Contains(b, "--json | head -n 3"):
			blocks["json"] = strings.Join(lines[1:], "\n")
		case strings.Contains(b, "grep -E"):
			blocks["items"] = strings.Join(lines[2:], "\n")
		}
	}
	head := func(s string, n int) string { return strings.Join(strings.SplitN(s, "\n", n+1)[:n], "\n") + "\n" }
	if blocks["table"] != head(table.String(), 23) {
		t.Errorf("README table differs from the output:\n%s\nwant:\n%s", blocks["table"], head(table.String(), 23))
	}
	if blocks["json"] != head(js.String(), 3) {
		t.Errorf("README JSON differs from the output:\n%s", blocks["json"])
	}
	if strings.TrimSpace(blocks["items"]) == "" {
		t.Error("README shows no items")
	}
	for _, line := range strings.Split(strings.TrimSpace(blocks["items"]), "\n") {
		if !strings.Contains(items.String(), line+"\n") {
			t.Errorf("README item line is not in the output: %s", line)
		}
	}
}
