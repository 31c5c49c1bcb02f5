package strictjson

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestParseRejects(t *testing.T) {
	tests := []struct {
		name, in string
		want     error
		at       string // "line:col"
		path     string
		why      string
	}{
		{"duplicate key", `{"a": 1, "a": 2}`, ErrDuplicateKey, "1:10", "a", "encoding/json keeps the last one silently"},
		{"case-variant key", `{"id": 1, "ID": 2}`, ErrDuplicateKey, "1:11", "ID", "encoding/json matches fields case-insensitively"},
		{"folded key", "{\"stra\u00dfe\": 1, \"STRASSE\": 2}", ErrDuplicateKey, "1:15", "STRASSE", "Unicode case folding, not ASCII lower-casing"},
		{"nested duplicate", "{\"q\": [{\"x\": 1},\n {\"y\": 1, \"y\": 2}]}", ErrDuplicateKey, "2:11", "q[1].y", "the path names the array index"},
		{"invalid UTF-8", "{\"a\": \"\xff\"}", ErrInvalidUTF8, "1:8", "", "encoding/json would substitute U+FFFD"},
		{"lone high surrogate", `{"a": "\ud800x"}`, ErrSyntax, "1:8", "a", "encoding/json would substitute U+FFFD"},
		{"lone low surrogate", `{"a": "\udc00"}`, ErrSyntax, "1:8", "a", "a low surrogate cannot start a pair"},
		{"control character", "{\"a\": \"x\ty\"}", ErrSyntax, "1:9", "a", "RFC 8259 forbids raw control characters in strings"},
		{"trailing comma", `{"a": 1,}`, ErrSyntax, "1:9", "", "not JSON"},
		{"two values", `{} {}`, ErrSyntax, "1:4", "", "exactly one value"},
		{"empty", ``, ErrSyntax, "1:1", "", "no value"},
		{"leading zero", `{"a": 01}`, ErrSyntax, "1:8", "a", "RFC 8259 numbers"},
		{"bare word", `{"a": nul}`, ErrSyntax, "1:7", "a", "only true, false, null"},
		{"too deep", strings.Repeat("[", 65) + strings.Repeat("]", 65), ErrTooDeep, "1:65", "[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]", "DefaultMaxDepth"},
		{"column counts code points", "{\"é\": 1, \"é\": 2}", ErrDuplicateKey, "1:10", "é", "é is one column, two bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.in), "f.json", Limits{})
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v (%s)", err, tc.want, tc.why)
			}
			if got := strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Col); got != tc.at {
				t.Errorf("position %s, want %s: %v", got, tc.at, err)
			}
			if e.Path != tc.path {
				t.Errorf("path %q, want %q", e.Path, tc.path)
			}
			if !strings.HasPrefix(err.Error(), "f.json:"+tc.at+": ") {
				t.Errorf("message %q does not start with the file position", err)
			}
		})
	}
}

func TestParseTooLarge(t *testing.T) {
	_, err := Parse([]byte(`{"a": "0123456789"}`), "f.json", Limits{MaxBytes: 10})
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("got %v, want ErrTooLarge", err)
	}
}

// TestParseAgreesWithEncodingJSON: on input both accept, the tree holds
// what encoding/json decodes.
func TestParseAgreesWithEncodingJSON(t *testing.T) {
	for _, in := range []string{
		`{"a": [1, -2.5e3, true, false, null, "x\u00e9\ud83d\ude00\n\"\\\/"], "b": {}, "c": []}`,
		"\uFEFF{\"bom\": 1}",
		`"just a string"`,
		`[0, 0.5, -0, 1E+2]`,
	} {
		v, err := Parse([]byte(in), "f.json", Limits{})
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		var want any
		if err := json.Unmarshal([]byte(strings.TrimPrefix(in, "\uFEFF")), &want); err != nil {
			t.Fatal(err)
		}
		if got := toAny(v); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: tree %#v, encoding/json %#v", in, got, want)
		}
	}
}

// toAny converts a tree to what encoding/json decodes into an any.
func toAny(v *Value) any {
	switch v.Kind {
	case Null:
		return nil
	case Bool:
		return v.Bool
	case Number:
		var f float64
		_ = json.Unmarshal([]byte(v.Str), &f)
		return f
	case String:
		return v.Str
	case Array:
		out := []any{}
		for _, e := range v.Elems {
			out = append(out, toAny(e))
		}
		return out
	default:
		out := map[string]any{}
		for _, m := range v.Members {
			out[m.Key] = toAny(m.Value)
		}
		return out
	}
}

func TestDecoderCollectsFaults(t *testing.T) {
	data := []byte("{\"n\": \"7\",\n \"x\": 1,\n \"list\": [1, \"two\"]}")
	root, err := Parse(data, "f.json", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	d := &Decoder{File: "f.json", Data: data}
	d.Object(root, "",
		Field{Name: "n", Decode: func(v *Value, p string) { d.Int(v, p, 0, 10) }},
		Field{Name: "list", Decode: func(v *Value, p string) { d.Strings(v, p) }},
		Field{Name: "must", Required: true, Decode: func(v *Value, p string) {}},
	)
	got := d.Err().Error()
	want := strings.Join([]string{
		`f.json:1:1: missing required field "must"`,
		`f.json:1:7: n: wrong type: expected an integer, found string`,
		`f.json:2:2: x: unknown field "x" (known fields: list, must, n)`,
		`f.json:3:11: list[0]: wrong type: expected a string, found number`,
	}, "\n")
	if got != want {
		t.Errorf("faults:\n%s\nwant:\n%s", got, want)
	}
}

func TestJoinKeyQuotesOddKeys(t *testing.T) {
	if got := JoinKey("a", "b c"); got != `a["b c"]` {
		t.Errorf("JoinKey = %s", got)
	}
	if got := JoinKey("", "plain_key-1"); got != "plain_key-1" {
		t.Errorf("JoinKey = %s", got)
	}
}
