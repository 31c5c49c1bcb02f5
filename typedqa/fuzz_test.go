package typedqa

import (
	"bytes"
	"encoding/csv"
	"errors"
	"slices"
	"strings"
	"testing"
)

// roundTripCSV writes rows as CSV and reads them back with read; the
// values must survive unchanged.
func roundTripCSV(t *testing.T, header []string, rows [][]string, read func([]byte) ([][]string, error)) {
	t.Helper()
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.Write(header)
	_ = w.WriteAll(rows)
	back, err := read(b.Bytes())
	if err != nil {
		t.Fatalf("re-reading accepted rows as CSV failed: %v\n%q", err, b.String())
	}
	if len(back) != len(rows) {
		t.Fatalf("round trip: %d rows, had %d", len(back), len(rows))
	}
	// encoding/csv reads CRLF inside a quoted field as LF.
	crlf := func(r []string) []string {
		out := make([]string, len(r))
		for i, v := range r {
			out[i] = strings.ReplaceAll(v, "\r\n", "\n")
		}
		return out
	}
	for i := range rows {
		if !slices.Equal(crlf(back[i]), crlf(rows[i])) {
			t.Fatalf("round trip row %d: %q, had %q", i, back[i], rows[i])
		}
	}
}

func responseValues(r *Responses) [][]string {
	var out [][]string
	for _, x := range r.Rows() {
		out = append(out, []string{x.Model, x.Condition, x.Run, x.Document, x.Question, x.Value})
	}
	return out
}

// FuzzReadResponses feeds arbitrary bytes to the CSV and JSON Lines
// readers. They must never panic; whatever they accept must hold only
// valid identifiers and known questions, and must survive a CSV round trip.
func FuzzReadResponses(f *testing.F) {
	f.Add([]byte("model,condition,run,document,question,value\nm,c,1,d,Q1,Y\n"), false)
	f.Add([]byte("model,condition,run,document,question,value\nm,c,1,d,Q10,\"moglie, di | fig.lo\"\n"), false)
	f.Add([]byte("model,condition,run,document,question,value\r\nm,c,1,d,Q5,\"a\nb\"\r\n"), false)
	f.Add([]byte("model,condition,run,document,question,value\nm,c,1,d,Q1,\"Y\n"), false)
	f.Add([]byte(`{"model": "m", "condition": "c", "run": 1, "document": "d", "question": "Q21", "value": null}`+"\n"), true)
	f.Add([]byte(`{"model": "m", "condition": "c", "run": 1, "document": "d", "question": "Q5", "value": "a\r\nb"}`), true)
	f.Add([]byte(`{"model": "m", "Model": "m", "condition": "c", "run": 1, "document": "d", "question": "Q1", "value": "Y"}`), true)
	f.Add([]byte("{\"model\": \"m\\u0000\", \"condition\": \"c\", \"run\": \"1\", \"document\": \"d\", \"question\": \"Q1\", \"value\": \"\xff\"}"), true)
	qs := DefaultQuestions()
	f.Fuzz(func(t *testing.T, data []byte, jsonl bool) {
		format := FormatCSV
		if jsonl {
			format = FormatJSONL
		}
		r, err := ReadResponses(bytes.NewReader(data), "fuzz", format, qs)
		if err != nil {
			return
		}
		rows := responseValues(r)
		for _, row := range rows {
			for _, id := range row[:5] {
				if checkIdentifier(id) != nil {
					t.Fatalf("accepted invalid identifier %q", id)
				}
			}
			if _, ok := qs.Lookup(row[4]); !ok {
				t.Fatalf("accepted unknown question %q", row[4])
			}
		}
		roundTripCSV(t, ResponseColumns, rows, func(b []byte) ([][]string, error) {
			back, err := ReadResponses(bytes.NewReader(b), "back.csv", FormatCSV, qs)
			if err != nil {
				return nil, err
			}
			return responseValues(back), nil
		})
	})
}

// FuzzReadTruth: the ground-truth reader never panics, and what it accepts
// survives a CSV round trip and scores against itself without error.
func FuzzReadTruth(f *testing.F) {
	f.Add([]byte(fullTruthCSV), false)
	f.Add([]byte("document,question,value\nd,Q17,12 | 9\nd,Q22,anno 1767/8 | Caltran?\n"), false)
	f.Add([]byte("document,question,value\nd,Q1,N\nd,Q2,1767\n"), false)
	f.Add([]byte(`{"document": "d", "question": "Q12", "value": null}`), true)
	qs := DefaultQuestions()
	f.Fuzz(func(t *testing.T, data []byte, jsonl bool) {
		format := FormatCSV
		if jsonl {
			format = FormatJSONL
		}
		tr, err := ReadTruth(bytes.NewReader(data), "fuzz", format, qs)
		if err != nil {
			return
		}
		var rows [][]string
		for _, x := range tr.Rows() {
			rows = append(rows, []string{x.Document, x.Question, x.Value})
			q, _ := qs.Lookup(x.Question)
			if _, err := ScoreAnswer(q, DefaultDictionary(), x.Value, x.Value); err != nil {
				t.Fatalf("accepted ground truth %q for %s does not score: %v", x.Value, x.Question, err)
			}
		}
		roundTripCSV(t, TruthColumns, rows, func(b []byte) ([][]string, error) {
			back, err := ReadTruth(bytes.NewReader(b), "back.csv", FormatCSV, qs)
			if err != nil {
				return nil, err
			}
			var out [][]string
			for _, x := range back.Rows() {
				out = append(out, []string{x.Document, x.Question, x.Value})
			}
			return out, nil
		})
	})
}

// FuzzScoreAnswer: any answer against any valid ground truth gets a
// verdict with a score in [0, 1] that agrees with its outcome.
func FuzzScoreAnswer(f *testing.F) {
	f.Add(uint8(0), "Y", "illegible")
	f.Add(uint8(1), "1767", "176?")
	f.Add(uint8(4), "Santa Croce", "S. Croce")
	f.Add(uint8(9), "moglie di | fig.lo del", "figlio del|moglie")
	f.Add(uint8(16), "12 | 9", "12|9|")
	f.Add(uint8(21), "anno 1767/8 | Caltran?", "Caltran? | anno")
	qs := DefaultQuestions().All()
	d := DefaultDictionary()
	f.Fuzz(func(t *testing.T, qi uint8, truth, answer string) {
		if len(truth) > 512 || len(answer) > 512 {
			return // character accuracy is quadratic; the readers cap values
		}
		q := qs[int(qi)%len(qs)]
		s, err := ScoreAnswer(q, d, truth, answer)
		if err != nil {
			if checkTruthValue(&q, truth) == nil {
				t.Fatalf("%s: error %v for a valid ground truth %q", q.ID, err, truth)
			}
			return
		}
		switch s.Outcome {
		case OutcomeExcluded, OutcomeIllegible:
			if s.Score != nil {
				t.Fatalf("%s: %s item with score %v", q.ID, s.Outcome, *s.Score)
			}
			if s.Outcome == OutcomeIllegible && q.Type != TypeBoolean {
				t.Fatalf("%s: illegibility claim on a %s", q.ID, q.Type)
			}
		case OutcomeCorrect, OutcomeIncorrect:
			if s.Score == nil || *s.Score < 0 || *s.Score > 1 {
				t.Fatalf("%s: score %v out of [0, 1]", q.ID, s.Score)
			}
			if (s.Outcome == OutcomeCorrect) != (*s.Score == 1) {
				t.Fatalf("%s: outcome %s with score %v", q.ID, s.Outcome, *s.Score)
			}
		default:
			t.Fatalf("%s: unknown outcome %q", q.ID, s.Outcome)
		}
		if s.Reason == "" {
			t.Fatalf("%s: no reason", q.ID)
		}
	})
}

// FuzzReadConfig feeds arbitrary bytes to the questions and dictionary
// readers, seeded with the shipped files. They must never panic; a refusal
// must be an *InputError naming the file and a line of it; accepted
// questions must round-trip through their JSON.
func FuzzReadConfig(f *testing.F) {
	f.Add(DefaultQuestionsJSON(), false)
	f.Add(DefaultDictionaryJSON(), true)
	f.Add([]byte(`{"questions": [{"id": "Q1", "id": "Q2", "type": "boolean"}]}`), false)
	f.Add([]byte("{\"classes\": [{\"canonical\": \"x\\ud800\", \"forms\": [\"y\"]}]}"), true)
	f.Fuzz(func(t *testing.T, data []byte, dictionary bool) {
		lines := bytes.Count(data, []byte("\n")) + 1
		var err error
		if dictionary {
			_, err = ReadDictionary(bytes.NewReader(data), "in.json")
		} else {
			_, err = ReadQuestions(bytes.NewReader(data), "in.json")
		}
		if err == nil {
			return
		}
		faults := []*InputError{}
		var list *InputErrors
		var ie *InputError
		switch {
		case errors.As(err, &list):
			faults = list.Errs
		case errors.As(err, &ie):
			faults = append(faults, ie)
		}
		if len(faults) == 0 {
			t.Fatalf("refusal that is not an input error: %v", err)
		}
		for _, x := range faults {
			if x.File != "in.json" || x.Line < 0 || x.Line > lines {
				t.Fatalf("refusal without a position in the file: %v", err)
			}
		}
	})
}
