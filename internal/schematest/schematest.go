// Package schematest holds what the packages' schema tests share. The JSON Schemas of docs/schema document the formats those
// packages read and write (docs/formats.md); their tests keep them true:
// every fixture and example validates, broken records are refused, and
// the schema and the Go reader agree or the case says why they cannot.
// Schemas are found at ../docs/schema, from a package one folder below the
// module's root, where go test runs a package's tests.
package schematest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Compile compiles docs/schema/<name>.
func Compile(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "docs", "schema", name))
	if err != nil {
		t.Fatal(err)
	}
	return CompileBytes(t, name, data)
}

// CompileBytes compiles a schema held in data (one a package embeds).
func CompileBytes(t *testing.T, name string, data []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(name, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(name)
	if err != nil {
		t.Fatalf("%s does not compile: %v", name, err)
	}
	return s
}

// Validate validates one JSON text.
func Validate(t *testing.T, s *jsonschema.Schema, text string) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, text)
	}
	return s.Validate(inst)
}

// Bytes reads docs/schema/<name>.
func Bytes(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "docs", "schema", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Doc reads docs/schema/<name> as a generic tree.
func Doc(t *testing.T, name string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "docs", "schema", name))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// At walks a schema tree by keys.
func At(t *testing.T, v any, path ...string) map[string]any {
	t.Helper()
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("schema path %v: %q is not in an object", path, p)
		}
		v = m[p]
	}
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("schema path %v is not an object", path)
	}
	return m
}

// CheckProperties: an object schema has exactly the JSON keys of a Go type.
func CheckProperties(t *testing.T, what string, object map[string]any, typ any) {
	t.Helper()
	var props, tags []string
	for k := range At(t, object, "properties") {
		props = append(props, k)
	}
	rt := reflect.TypeOf(typ)
	for i := 0; i < rt.NumField(); i++ {
		f := rt.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.IsExported() && name != "-" && name != "" {
			tags = append(tags, name)
		}
	}
	sort.Strings(props)
	sort.Strings(tags)
	if !slices.Equal(props, tags) {
		t.Errorf("%s: schema properties %v, Go type %s has JSON keys %v", what, props, rt.Name(), tags)
	}
}

// Case is one record with the verdicts of the schema and of the Go
// reader; where they differ, Why says what the other cannot see.
type Case struct {
	Name   string
	Line   string
	Schema bool // the schema accepts the line
	Reader bool // the Go reader accepts the line
	Why    string
}

// CheckAgreement validates each case with the schema and reads it with
// read, and fails t where either verdict is not the case's.
func CheckAgreement(t *testing.T, s *jsonschema.Schema, cases []Case, read func(line string) error) {
	t.Helper()
	for _, c := range cases {
		if err := Validate(t, s, c.Line); (err == nil) != c.Schema {
			t.Errorf("%s: schema valid=%v, want %v (%s): %v", c.Name, err == nil, c.Schema, c.Why, err)
		}
		if err := read(c.Line); (err == nil) != c.Reader {
			t.Errorf("%s: reader valid=%v, want %v (%s): %v", c.Name, err == nil, c.Reader, c.Why, err)
		}
	}
}

// Lines returns the non-blank lines of a JSON Lines file, each a record.
func Lines(t *testing.T, data []byte) []string {
	t.Helper()
	var out []string
	for line := range strings.Lines(string(data)) {
		line = strings.TrimRight(line, "\r\n")
		if strings.TrimSpace(line) != "" {
			out = append(out, line)
		}
	}
	return out
}
