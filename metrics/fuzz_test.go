package metrics

import (
	"errors"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/internal/inputerr"
)

// FuzzReadResults feeds arbitrary bytes to the results.jsonl reader
// (package grade), the input of report and compare: it returns results or
// an *inputerr.Error naming the file, never panics, and what it accepts a
// summary can count.
func FuzzReadResults(f *testing.F) {
	good := `{"arm":"A","session":1,"question":"Q1","position":1,"attempt":"ok","kind":"unknown","fields":{},"citations":[],"factual":null,"supported":null,"abstention":"pass","review":[],"normalization":{"quote":"quote/v1","value":"value/v2"},"response":"UNKNOWN","frozen":true}`
	f.Add([]byte(good + "\n"))
	f.Add([]byte(strings.Replace(good, `"kind":"unknown"`, `"kind":"answerable"`, 1)))
	f.Add([]byte(strings.Replace(good, `"citations":[]`, `"citations":[{"id":"c1","verdict":"fail","reason":"fabricated_quote"}]`, 1)))
	f.Add([]byte("{\"arm\": 1}\n\n\xff"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b := NewBuilder()
		err := grade.ReadResults(strings.NewReader(string(data)), "r.jsonl", func(_ int, r *grade.Result) error {
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
