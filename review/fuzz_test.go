package review_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/citecheck/citecheck/review"
)

// FuzzReadDecisions: no input makes the reader fail other than with an
// input error, and every decision it reads, written again by
// encoding/json, reads back equal.
func FuzzReadDecisions(f *testing.F) {
	h := "blake3:" + strings.Repeat("0f", 32)
	for _, seed := range []string{
		`{"hash":"` + h + `","verdict":"pass","reviewer":"ana","note":"the passage states it","at":"2026-12-02T10:04:05Z"}`,
		`{"hash":"` + h + `","verdict":"incorrect","reviewer":"b\u00f6","note":"\u2028<script>"}` + "\n\n" + `{"hash":"` + h + `","verdict":"fail","reviewer":"c"}`,
		`{"hash":"` + h + `","verdict":"pass","reviewer":"ana","note":null,"at":null}`,
		`{"hash":"` + h + `","verdict":"pass","reviewer":"ana","Note":"x"}`,
		`{"hash":1,"verdict":[],"reviewer":{}}`,
		`[{"hash":"` + h + `"}]`,
		"\ufeff" + `{"hash":"` + h + `","verdict":"correct","reviewer":"ana","at":"2026-02-30T00:00:00+01:00"}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var got []review.Decision
		err := review.ReadDecisions(strings.NewReader(in), "d.jsonl", func(d review.Decision) error {
			got = append(got, d)
			return nil
		})
		if err != nil {
			if !errors.Is(err, inputerr.ErrInput) {
				t.Fatalf("not an input error: %v", err)
			}
			return
		}
		var b strings.Builder
		for _, d := range got {
			line, err := json.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(line)
			b.WriteByte('\n')
		}
		i := 0
		err = review.ReadDecisions(strings.NewReader(b.String()), "d.jsonl", func(d review.Decision) error {
			want := got[i]
			want.Line = i + 1
			if d != want {
				t.Fatalf("line %d read back as %+v, want %+v", i+1, d, want)
			}
			i++
			return nil
		})
		if err != nil || i != len(got) {
			t.Fatalf("written decisions read back: %v (%d of %d)", err, i, len(got))
		}
	})
}
