package metrics

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/citecheck/citecheck/internal/strictjson"
)

// decodeResultJSON is decodeResult as it was before it decoded the parsed
// tree: the same checks, then encoding/json on the line a second time. It
// is the oracle FuzzDecodeResult holds decodeResult to, so that the
// results reader's values and error messages stay what they were.
func decodeResultJSON(data []byte) (*grade.Result, *inputerr.Error) {
	v, err := strictjson.Parse(data, "", strictjson.Limits{})
	if err != nil || v.Kind != strictjson.Object || v.Missing("arm", "session", "question", "attempt", "kind") != "" {
		return decodeResult(data) // the checks before decoding are shared
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r grade.Result
	if err := dec.Decode(&r); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			// Timing moved from citations to runs after this decoder was
			// retired; the message still names it as it did.
			typ := strings.Replace(te.Type.String(), "runs.Timing", "citations.Timing", 1)
			return nil, &inputerr.Error{Field: te.Field, Err: fmt.Errorf("%w: expected %s, found JSON %s", ErrResult, typ, te.Value)}
		}
		return nil, &inputerr.Error{Err: fmt.Errorf("%w: %s", ErrResult, err)}
	}
	if ferr := checkResult(&r); ferr != nil {
		return nil, ferr
	}
	return &r, nil
}

// resultSeeds are lines of results.jsonl, good and bad, for the fuzz
// targets and the benchmark.
var resultSeeds = []string{
	`{"arm":"A","session":1,"question":"Q1","position":1,"attempt":"ok","kind":"unknown","fields":{},"citations":[],"factual":null,"supported":null,"abstention":"pass","review":[],"normalization":{"quote":"quote/v1","value":"value/v1"},"response":"UNKNOWN","frozen":true}`,
	`{"arm":"B","session":2,"question":"Q7","position":3,"attempt":"ok","kind":"answerable","fields":{"dose":{"verdict":"correct","reasons":["exact"],"value":"5 mg","target":"5 mg","rules":["unit"],"details":["x"]}},"citations":[{"id":"c1","verdict":"pass","reason":"declared_span","document":"d1","cited":"D1","page":3,"quote":"the dose is 5 mg","pages":[3,4],"spans":[{"page":3,"start":10,"end":26}],"match":"exact","page_check":"ok","claims":["dose"],"detail":"d"},{"id":null,"verdict":"fail","reason":"missing_citation"}],"factual":"pass","supported":"pass","abstention":null,"claims":[{"field":"dose","supported":"pass"}],"review":["r"],"normalization":{"quote":"quote/v1","value":"value/v1"},"response":"Dose: 5 mg","frozen":false,"out_of_order":true,"stop_reason":"end_turn","timing":{"retrieval_ms":1.5,"total_ms":2e3,"cold_start_ms":null},"retrieval":[{"a":1},null,"x"],"unread":["u"],"source":{"file":"runs.jsonl","line":4}}`,
	`{"arm":"A","session":1,"question":"Q1","attempt":"ok","kind":"unknown","abstention":"pass","Response":"x","FROZEN":true,"ſtop_reason":"k"}`,
	`{"arm":"A","session":1.5,"question":"Q1","attempt":"ok","kind":"unknown","abstention":true}`,
	`{"arm":"A","session":1,"question":"Q1","attempt":"ok","kind":"unknown","abstention":"pass","frozen":"yes","extra":1}`,
	`{"arm":"A","session":1,"question":"Q1","attempt":"ok","kind":"unknown","abstention":"pass","bogus":1,"citations":[{"match":"nope"}]}`,
	`{"arm":"A","session":1,"question":"Q1","attempt":"ok","kind":"unknown","abstention":"pass","citations":[{"match":3},{"match":[]},{"match":{}},null,{"spans":[null,{"page":"1"}]}]}`,
	`{"arm":"A","session":1,"question":"Q1","attempt":"ok","kind":"unknown","abstention":"pass","fields":{"f":"x","g":{"verdict":7,"x":1}},"timing":{"total_ms":1e999},"source":[],"normalization":true}`,
	`{"arm":"A","session":1,"question":"Q1","attempt":"ok","kind":"unknown","abstention":"pass","timing":"x"}`,
	`{"arm":"A","session":1,"question":"Q1","attempt":"ok","kind":"unknown","abstention":"pass","retrieval":{},"unread":[1],"review":"r","claims":[{"field":false}],"pages":[]}`,
}

func FuzzDecodeResult(f *testing.F) {
	for _, s := range resultSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, gerr := decodeResult(data)
		want, werr := decodeResultJSON(data)
		if fmt.Sprint(gerr) != fmt.Sprint(werr) || (gerr != nil && gerr.Field != werr.Field) {
			t.Fatalf("error:\n got %v (field %q)\nwant %v (field %q)", gerr, field(gerr), werr, field(werr))
		}
		if !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			t.Fatalf("result:\n got %s\nwant %s", g, w)
		}
	})
}

func field(e *inputerr.Error) string {
	if e == nil {
		return ""
	}
	return e.Field
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
		err := ReadResults(bytes.NewReader(data), "results.jsonl", func(int, *grade.Result) error { n++; return nil })
		if err != nil || n != 1000 {
			b.Fatal(n, err)
		}
	}
}
