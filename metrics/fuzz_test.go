package metrics

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/internal/inputerr"
)

// FuzzReadResults feeds arbitrary bytes to the results.jsonl reader, the
// input of report and compare: it returns results or an *inputerr.Error
// naming the file, never panics, and what it accepts a summary can count.
func FuzzReadResults(f *testing.F) {
	good := `{"arm":"A","session":1,"question":"Q1","position":1,"attempt":"ok","kind":"unknown","fields":{},"citations":[],"factual":null,"supported":null,"abstention":"pass","review":[],"normalization":{"quote":"quote/v1","value":"value/v1"},"response":"UNKNOWN","frozen":true}`
	f.Add([]byte(good + "\n"))
	f.Add([]byte(strings.Replace(good, `"kind":"unknown"`, `"kind":"answerable"`, 1)))
	f.Add([]byte(strings.Replace(good, `"citations":[]`, `"citations":[{"id":"c1","verdict":"fail","reason":"fabricated_quote"}]`, 1)))
	f.Add([]byte("{\"arm\": 1}\n\n\xff"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b := NewBuilder()
		err := ReadResults(strings.NewReader(string(data)), "r.jsonl", func(_ int, r *grade.Result) error {
			b.Add(r)
			return nil
		})
		if err != nil {
			var ie *inputerr.Error
			if !errors.As(err, &ie) || ie.File != "r.jsonl" {
				t.Fatalf("not a located input error: %v", err)
			}
			return
		}
		s := b.Summary(DefaultThresholds())
		if len(s.Sessions) == 0 {
			t.Fatal("results accepted, but no session counted")
		}
	})
}

// FuzzResultsApart: reading results.jsonl gives, result by result, what
// reading each result alone gives (at its own line, after as many blank
// lines), retrieval cards byte for byte; when the whole read fails, its
// error is the first failing result's alone, the results before it the
// same. A result never shares memory with another line's.
func FuzzResultsApart(f *testing.F) {
	// Results of different lengths, longest first and in the seeds' order,
	// with retrieval cards of their own.
	var lines []string
	for i, s := range resultSeeds {
		card := fmt.Sprintf(`"retrieval":[{"text":%q}],`, strings.Repeat("card ", 1+(i*7)%11))
		lines = append(lines, strings.Replace(s, `"arm":`, card+`"arm":`, 1))
	}
	f.Add(strings.Join(lines, "\n") + "\n")
	slices.SortStableFunc(lines, func(a, b string) int { return len(b) - len(a) })
	f.Add(strings.Join(lines, "\n\n"))
	f.Add(strings.Join(lines[len(lines)-3:], "\n") + "\n" + lines[0])
	f.Fuzz(func(t *testing.T, data string) {
		// Each result alone is read after its line's blank lines: the
		// work grows with the square of the lines.
		if len(data) > 1<<16 || strings.Count(data, "\n") > 256 {
			return
		}
		read := func(data string) ([]grade.Result, error) {
			var out []grade.Result
			err := ReadResults(strings.NewReader(data), "r.jsonl", func(_ int, r *grade.Result) error {
				out = append(out, *r)
				return nil
			})
			return out, err
		}
		whole, werr := read(data)
		var alone []grade.Result
		var aerr error
		for i, line := range strings.SplitAfter(data, "\n") {
			if i == 0 {
				line = strings.TrimPrefix(line, "\uFEFF")
			}
			if strings.TrimSpace(line) == "" {
				continue // a blank file alone has no results: an error of its own
			}
			rs, err := read(strings.Repeat("\n", i) + line)
			alone = append(alone, rs...)
			if err != nil {
				aerr = err
				break
			}
		}
		if aerr == nil && len(alone) == 0 {
			if !errors.Is(werr, ErrNoResults) {
				t.Fatalf("a file of blank lines: %v", werr)
			}
			return
		}
		if (werr == nil) != (aerr == nil) || werr != nil && werr.Error() != aerr.Error() {
			t.Fatalf("the whole file: %v; its results alone: %v", werr, aerr)
		}
		if !reflect.DeepEqual(whole, alone) {
			w, _ := json.Marshal(whole)
			a, _ := json.Marshal(alone)
			t.Fatalf("the whole file's results\n%s\nalone\n%s", w, a)
		}
	})
}
