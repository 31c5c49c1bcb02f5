package strictjson

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzParse: whatever Parse accepts is JSON to encoding/json too, and
// decodes to the same value; it never panics.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"a": [1, -2.5e3, true, false, null, "x\u00e9\ud83d\ude00"]}`,
		`{"a": 1, "A": 2}`, `[[[[]]]]`, `"\ud800"`, "\xff", `{"a":1}x`, `-0.0e-0`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data, "f.json", Limits{MaxBytes: 1 << 20})
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if !json.Valid(data) && !(len(data) >= 3 && string(data[:3]) == "\uFEFF" && json.Valid(data[3:])) {
			t.Fatalf("Parse accepted what encoding/json calls invalid: %q", data)
		}
		var want any
		body := data
		if len(body) >= 3 && string(body[:3]) == "\uFEFF" {
			body = body[3:]
		}
		if json.Unmarshal(body, &want) != nil {
			return // a number out of float64 range: encoding/json refuses it
		}
		if got := toAny(v); !reflect.DeepEqual(got, want) {
			t.Fatalf("tree %#v, encoding/json %#v for %q", got, want, data)
		}
	})
}
