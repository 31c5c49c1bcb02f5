package runs_test

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/citecheck/citecheck/runs"
)

// TestMappingJSON: a value reads as a name or a list of names and is
// written back as a string when it holds one name.
func TestMappingJSON(t *testing.T) {
	var m runs.Mapping
	in := `{"a": "x.pdf", "b": ["y.pdf"], "c": ["y.pdf", "z <&>.pdf"], "d": []}`
	if err := json.Unmarshal([]byte(in), &m); err != nil {
		t.Fatal(err)
	}
	want := runs.Mapping{"a": {"x.pdf"}, "b": {"y.pdf"}, "c": {"y.pdf", "z <&>.pdf"}, "d": {}}
	if len(m) != len(want) {
		t.Fatalf("%v", m)
	}
	for k, v := range want {
		if !slices.Equal(m[k], v) {
			t.Errorf("%s: %q, want %q", k, m[k], v)
		}
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if w := `{"a":"x.pdf","b":"y.pdf","c":["y.pdf","z \u003c\u0026\u003e.pdf"],"d":[]}`; string(out) != w {
		t.Errorf("marshal\n got %s\nwant %s", out, w)
	}
	for _, bad := range []string{`{"a": 1}`, `{"a": [1]}`, `{"a": {"b": "c"}}`, `["x.pdf"]`} {
		var m runs.Mapping
		var te *json.UnmarshalTypeError
		if err := json.Unmarshal([]byte(bad), &m); !errors.As(err, &te) {
			t.Errorf("%s: %v, want a type error", bad, err)
		}
	}
}
