package grade

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/citecheck/citecheck/internal/strictjson"
	"github.com/citecheck/citecheck/runs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// resultSeeds are lines of results.jsonl, good and bad, for the fuzz
// targets and the benchmark.
var resultSeeds = []string{
	`{"arm":"A","session":1,"question":"Q1","position":1,"attempt":"ok","kind":"unknown","fields":{},"citations":[],"factual":null,"supported":null,"abstention":"pass","review":[],"normalization":{"quote":"quote/v1","value":"value/v2"},"response":"UNKNOWN","frozen":true}`,
	`{"arm":"B","session":2,"question":"Q7","position":3,"attempt":"ok","kind":"answerable","fields":{"dose":{"verdict":"correct","reasons":["exact"],"value":"5 mg","target":"5 mg","rules":["unit"],"details":["x"]}},"citations":[{"id":"c1","verdict":"pass","reason":"declared_span","document":"d1","cited":"D1","page":3,"quote":"the dose is 5 mg","pages":[3,4],"spans":[{"page":3,"start":10,"end":26}],"match":"exact","page_check":"ok","claims":["dose"],"detail":"d"},{"id":null,"verdict":"fail","reason":"missing_citation"}],"factual":"pass","supported":"pass","abstention":null,"claims":[{"field":"dose","supported":"pass"}],"review":["r"],"normalization":{"quote":"quote/v1","value":"value/v2"},"response":"Dose: 5 mg","frozen":false,"out_of_order":true,"stop_reason":"end_turn","timing":{"retrieval_ms":1.5,"total_ms":2e3,"cold_start_ms":null},"retrieval":[{"a":1},null,"x"],"unread":["u"],"source":{"file":"runs.jsonl","line":4}}`,
	`{"arm":"A","session":1,"question":"Q1","attempt":"ok","kind":"unknown","abstention":"pass","Response":"x","FROZEN":true,"ſtop_reason":"k"}`,
	`{"arm":"A","session":1.5,"question":"Q1","attempt":"ok","kind":"unknown","abstention":true}`,
	`{"arm":"A","session":1,"question":"Q1","attempt":"ok","kind":"unknown","abstention":"pass","frozen":"yes","extra":1}`,
	`{"arm":"A","session":1,"question":"Q1","attempt":"ok","kind":"unknown","abstention":"pass","bogus":1,"citations":[{"match":"nope"}]}`,
	`{"arm":"A","session":1,"question":"Q1","attempt":"ok","kind":"unknown","abstention":"pass","citations":[{"match":3},{"match":[]},{"match":{}},null,{"spans":[null,{"page":"1"}]}]}`,
	`{"arm":"A","session":1,"question":"Q1","attempt":"ok","kind":"unknown","abstention":"pass","fields":{"f":"x","g":{"verdict":7,"x":1}},"timing":{"total_ms":1e999},"source":[],"normalization":true}`,
	`{"arm":"A","session":1,"question":"Q1","attempt":"ok","kind":"unknown","abstention":"pass","timing":"x"}`,
	`{"arm":"A","session":1,"question":"Q1","attempt":"ok","kind":"unknown","abstention":"pass","retrieval":{},"unread":[1],"review":"r","claims":[{"field":false}],"pages":[]}`,
}

func TestReadResults(t *testing.T) {
	good := resultSeeds[0]
	var n int
	require.NoError(t, ReadResults(strings.NewReader(good+"\n\n"+good+"\n"), "r.jsonl", func(int, *Result) error { n++; return nil }))
	assert.Equal(t, 2, n)
	tests := []struct {
		in, want, why string
	}{
		{"", "r.jsonl: no results in r.jsonl", "no result is an error"},
		{good + "\n{\"arm\": 1}\n", "r.jsonl:2", "a bad line names its line"},
		{"[]", "r.jsonl:1: invalid result: not a JSON object", "a line is one object"},
		{`{"arm": "A",`, "r.jsonl:1: invalid result: invalid JSON", "a truncated line"},
		{strings.Replace(good, `"frozen":true`, `"frozen":true,"extra":1`, 1), "r.jsonl:1: extra: invalid result: unknown key", "unknown keys are refused, by their path"},
		{strings.Replace(good, `"response"`, `"Response"`, 1), "r.jsonl:1: Response: invalid result: unknown key", "keys are matched exactly, not under case folding"},
		{strings.Replace(good, `"citations":[]`, `"citations":[{"id":"c1","bogus":1}]`, 1), "r.jsonl:1: citations[0].bogus: invalid result: unknown key", "a citation's unknown key names the citation"},
		{strings.Replace(good, `"fields":{}`, `"fields":{"f":{"verdict":"correct","note":1}}`, 1), "r.jsonl:1: fields.f.note: invalid result: unknown key", "a field verdict's keys are checked under any field name"},
		{strings.Replace(good, `"arm":"A",`, `"arm":"A","arm":"B",`, 1), "duplicate", "duplicate keys are refused"},
		{strings.Replace(good, `"arm":"A",`, ``, 1), "r.jsonl:1: arm: invalid result: missing required field", "arm is required"},
		{strings.Replace(good, `"session":1`, `"session":"1"`, 1), "r.jsonl:1: session: invalid result: expected int, found JSON string", "a type fault reads as encoding/json words it"},
		{strings.Replace(good, `"citations":[]`, `"citations":[{"id":"c1","verdict":"pass","reason":"declared_span","pages":[1,"2"]}]`, 1), "r.jsonl:1: citations[0].pages[1]: invalid result: expected int, found JSON string", "a type fault names its element"},
		{strings.Replace(good, `"citations":[]`, `"citations":[{"id":"c1","verdict":"pass","reason":"declared_span","match":"nope"}]`, 1), `r.jsonl:1: citations[0].match: invalid result: citations: unknown level "nope"`, "a match level the format lacks"},
		{strings.Replace(good, `"kind":"unknown"`, `"kind":"other"`, 1), "kind", "a kind the format lacks"},
		{strings.Replace(good, `"attempt":"ok"`, `"attempt":"okay"`, 1), "r.jsonl:1: attempt: invalid result: \"okay\"", "an attempt status the format lacks would be counted nowhere"},
		{strings.Replace(good, `"abstention":"pass"`, `"abstention":"passed"`, 1), "abstention: invalid result: \"passed\"", "an outcome the format lacks would be counted as unresolved"},
		{strings.Replace(good, `"abstention":"pass"`, `"abstention":null`, 1), "abstention: invalid result: missing", "an unknown question's result has an abstention verdict"},
		{strings.Replace(good, `"factual":null`, `"factual":"pass"`, 1), "factual: invalid result: \"pass\": an unknown question's result has none", "an unknown question's result has no factual verdict"},
		{strings.Replace(good, `"citations":[]`, `"citations":[{"id":"c1","verdict":"ok","reason":"declared_span"}]`, 1), "citations[0].verdict", "a citation's verdict the format lacks"},
		{strings.Replace(good, `"citations":[]`, `"citations":[{"id":"c1","verdict":"pass","reason":"looks_fine"}]`, 1), "citations[0].reason", "a citation reason the format lacks"},
		{strings.Replace(good, `"citations":[]`, `"citations":[{"id":"c1","verdict":"pass","reason":"fabricated_quote"}]`, 1), "reason fabricated_quote goes with verdict fail, not pass", "a verdict its reason contradicts"},
		{strings.Replace(good, `"fields":{}`, `"fields":{"f":{"verdict":"right","reasons":[],"value":""}}`, 1), "fields.f.verdict", "a field verdict the format lacks"},
		{`{"format":"citecheck-results/2",` + good[1:], `r.jsonl:1: format: invalid result: format "citecheck-results/2" (this citecheck reads citecheck-results/1)`, "a line of another format is refused, not misread"},
		{good + "\n" + strings.Repeat(" ", MaxResultBytes+1), "r.jsonl:2: input exceeds the size limit: a line longer than", "a line too long is refused before it is held whole"},
		{"\xff" + good, "r.jsonl:1: invalid UTF-8 at byte 1", "invalid UTF-8 names its byte"},
	}
	for _, tt := range tests {
		err := ReadResults(strings.NewReader(tt.in), "r.jsonl", func(int, *Result) error { return nil })
		require.Error(t, err, tt.why)
		assert.Contains(t, err.Error(), tt.want, tt.why)
		var ie *inputerr.Error
		assert.ErrorAs(t, err, &ie, tt.why)
	}
}

// TestReadResultsFormat: a line may name its format, and reads as the
// line without it.
func TestReadResultsFormat(t *testing.T) {
	read := func(line string) Result {
		var got Result
		require.NoError(t, ReadResults(strings.NewReader(line), "r.jsonl", func(_ int, r *Result) error { got = *r; return nil }))
		return got
	}
	named := `{"format":"` + ResultsFormat + `",` + resultSeeds[1][1:]
	assert.Equal(t, read(resultSeeds[1]), read(named))
}

// TestResultShapeIsTheType: the reader's keys are the JSON keys of the Go
// types the writer encodes, and "format".
func TestResultShapeIsTheType(t *testing.T) {
	keysOf := func(s *strictjson.Shape) []string {
		var out []string
		for k := range s.Keys {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	tagsOf := func(v any, extra ...string) []string {
		rt := reflect.TypeOf(v)
		out := extra
		for i := range rt.NumField() {
			if name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
				out = append(out, name)
			}
		}
		slices.Sort(out)
		return out
	}
	s := resultShape
	for _, tc := range []struct {
		shape *strictjson.Shape
		typ   any
		extra []string
	}{
		{s, Result{}, []string{"format"}},
		{s.Keys["fields"].Values, FieldVerdict{}, nil},
		{s.Keys["citations"].Elem, CitationResult{}, nil},
		{s.Keys["citations"].Elem.Keys["spans"].Elem, citations.Span{}, nil},
		{s.Keys["claims"].Elem, ClaimResult{}, nil},
		{s.Keys["normalization"], Normalization{}, nil},
		{s.Keys["timing"], runs.Timing{}, nil},
		{s.Keys["source"], Source{}, nil},
	} {
		assert.Equal(t, tagsOf(tc.typ, tc.extra...), keysOf(tc.shape), reflect.TypeOf(tc.typ).Name())
	}
}

// FuzzResultRoundTrip: what WriteResult writes, ReadResults reads back
// equal, for any result of the format (values it does not have are the
// reader's to refuse).
func FuzzResultRoundTrip(f *testing.F) {
	f.Add("A|Q1|Dose: 5 mg|c1|the dose|dose|5 mg|card|runs.jsonl", 3, uint64(1), 1.5)
	f.Add("B\u2028<&>||UNKNOWN\x00\xff||||||", -3, uint64(0xdeadbeef), 0.0)
	f.Fuzz(func(t *testing.T, text string, n int, choice uint64, ms float64) {
		if math.IsNaN(ms) || math.IsInf(ms, 0) {
			return // JSON has no such number; the writer refuses it
		}
		in := newFuzzInput(text, n, choice)
		r := in.result()
		if card := in.str(7); card != "" {
			raw, err := json.Marshal(map[string]string{"text": card})
			require.NoError(t, err)
			r.Retrieval, r.Unread, r.StopReason = []json.RawMessage{raw}, []string{card}, card
			r.Timing = &runs.Timing{TotalMS: &ms}
		}
		var buf bytes.Buffer
		require.NoError(t, WriteResult(&buf, &r))
		var got []Result
		err := ReadResults(&buf, "r.jsonl", func(_ int, res *Result) error { got = append(got, *res); return nil })
		require.NoError(t, err, "%s", buf.String())
		require.Len(t, got, 1)
		if !reflect.DeepEqual(r, got[0]) {
			w, _ := json.Marshal(r)
			g, _ := json.Marshal(got[0])
			t.Fatalf("read back another result:\nwrote %s\n read %s", w, g)
		}
	})
}

// fuzzInput spreads a fuzz input over a result's values: the "|"-separated
// pieces of a text its strings, n its numbers, choice its choices.
type fuzzInput struct {
	pieces []string
	n      int
	choice uint64
}

func newFuzzInput(text string, n int, choice uint64) *fuzzInput {
	// The writer makes strings valid UTF-8, each invalid byte a U+FFFD, as
	// a conversion to runes does.
	return &fuzzInput{pieces: strings.Split(string([]rune(text)), "|"), n: n, choice: choice}
}

// str returns piece i: arm, question, response, citation id, quote, field,
// value, card, file; "" when the text has fewer.
func (in *fuzzInput) str(i int) string {
	if i < len(in.pieces) {
		return in.pieces[i]
	}
	return ""
}

// pick returns a choice in [0, k), from the choice's bits at shift.
func (in *fuzzInput) pick(shift uint, k int) int { return int(in.choice >> shift % uint64(k)) }

// result is a result of the format: its kind's verdicts, an attempt
// status, outcomes and a citation reason of the format's.
func (in *fuzzInput) result() Result {
	statuses := []string{AttemptOK, AttemptError, AttemptTimeout, AttemptInterrupted, AttemptMissing, AttemptDuplicate, AttemptExtra}
	outcomes := []Outcome{Pass, Fail, Unresolved}
	o, o2 := outcomes[in.pick(0, 3)], outcomes[in.pick(2, 3)]
	answerable := in.pick(4, 2) == 1
	r := Result{Arm: in.str(0), Session: in.n, Question: in.str(1), Position: -in.n, Attempt: statuses[in.pick(5, len(statuses))],
		Kind: KindUnknown, Fields: map[string]FieldVerdict{}, Citations: []CitationResult{}, Review: []string{},
		Normalization: Normalization{Quote: "quote/v1", Value: "value/v2"}, Response: in.str(2), Frozen: answerable, OutOfOrder: in.pick(8, 2) == 1}
	if answerable {
		r.Kind, r.Factual, r.Supported = KindAnswerable, &o, &o2
	} else {
		r.Abstention, r.AbstentionReasons = &o, []string{in.str(2)}
	}
	if id := in.str(3); id != "" {
		rs := Reasons[in.pick(9, len(Reasons))]
		lvl := citations.Level(in.pick(14, int(citations.Reordered)+1))
		page, quote := in.n%100, in.str(4)
		r.Citations = append(r.Citations, CitationResult{ID: &id, Verdict: rs.Outcome, Reason: rs.Reason, Document: in.str(8),
			Page: &page, Quote: &quote, Pages: []int{page}, Spans: []citations.Span{{Page: page, Start: in.n / 7, End: in.n}},
			Match: &lvl, PageCheck: in.str(6), Claims: []string{in.str(5)}, Detail: in.str(7)})
	}
	if field := in.str(5); field != "" && answerable {
		r.Fields[field] = FieldVerdict{Verdict: []Outcome{Correct, Incorrect, Unresolved}[in.pick(18, 3)], Reasons: []FieldReason{FieldReason(in.str(6))},
			Value: in.str(6), Target: in.str(4), Rules: []string{in.str(7)}, Details: []string{in.str(2)}}
		r.Claims = []ClaimResult{{Field: field, Supported: o2}}
	}
	if file := in.str(8); file != "" {
		r.Source = &Source{File: file, Line: in.n ^ 0x5a}
	}
	return r
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
		read := func(data string) ([]Result, error) {
			var out []Result
			err := ReadResults(strings.NewReader(data), "r.jsonl", func(_ int, r *Result) error {
				out = append(out, *r)
				return nil
			})
			return out, err
		}
		whole, werr := read(data)
		var alone []Result
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

// TestReadResultsErrorsAreLocated: whatever bytes come, the reader
// returns results or an input error naming the file.
func TestReadResultsErrorsAreLocated(t *testing.T) {
	for _, s := range resultSeeds {
		err := ReadResults(strings.NewReader(s), "r.jsonl", func(int, *Result) error { return nil })
		var ie *inputerr.Error
		if err != nil && (!errors.As(err, &ie) || ie.File != "r.jsonl") {
			t.Errorf("%.60s: not a located input error: %v", s, err)
		}
	}
}

// BenchmarkReadResults reads results.jsonl of the shape grading writes:
// answerable results with two citations and a field, and unknown ones.
func BenchmarkReadResults(b *testing.B) {
	var buf bytes.Buffer
	for i := range 1000 {
		buf.WriteString(resultSeeds[i%2])
		buf.WriteByte('\n')
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		n := 0
		err := ReadResults(bytes.NewReader(data), "results.jsonl", func(int, *Result) error { n++; return nil })
		if err != nil || n != 1000 {
			b.Fatal(n, err)
		}
	}
}
