package spans_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/internal/schematest"
	"github.com/citecheck/citecheck/spans"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"
)

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	return schematest.Compile(t, "reference.schema.json")
}

// TestSchemaAgreesWithDecoder: the fixture validates under the schema and
// the decoder; broken variants are refused by both, or by the Go checks
// alone where a schema cannot see the fault.
func TestSchemaAgreesWithDecoder(t *testing.T) {
	s := compileSchema(t)
	valid := string(fixtures.Reference())
	cases := []struct {
		name   string
		doc    string
		schema bool // the schema accepts it
		decode bool // spans.Decode accepts it
		why    string
	}{
		{"fixture", valid, true, true, "fixtures/reference.json is valid"},
		{"unknown field", strings.Replace(valid, `"page": 1,`, `"page": 1, "quote": "x",`, 1), false, false, "additionalProperties false"},
		{"start without end", strings.Replace(valid, `"end": 318,`, ``, 1), false, true, "dependentRequired; the decoder leaves it to Validate (bad_offsets)"},
		{"page zero", strings.Replace(valid, `"page": 1,`, `"page": 0,`, 1), false, false, "pages are 1-based"},
		{"format 1.4", strings.Replace(valid, "reference/1.5", "reference/1.4", 1), false, false, "the format version is pinned"},
		{"offset as string", strings.Replace(valid, `"start": 243`, `"start": "243"`, 1), false, false, "offsets are integers"},
		{"no expected_abstention", strings.Replace(valid, `"expected_abstention": false,`, ``, 1), false, false, "expected_abstention is required"},
		{"duplicate key", strings.Replace(valid, `"page": 1,`, `"page": 1, "page": 1,`, 1), true, false, "JSON Schema cannot see duplicate keys; the decoder refuses them"},
		{"statements by field", strings.Replace(valid, `"statements": ["The price list does not state a volume discount."]`, `"statements": {"volume_discount": ["The price list does not state a volume discount."]}`, 1), true, true, "statements may map a required field to its statements"},
		{"statements by field, none", strings.Replace(valid, `"statements": ["The price list does not state a volume discount."]`, `"statements": {}`, 1), true, true, "an empty object registers nothing (Validate warns: no_statements)"},
		{"statements as a string", strings.Replace(valid, `"statements": ["The price list does not state a volume discount."]`, `"statements": "The price list does not state a volume discount."`, 1), false, false, "statements are a list or an object of lists"},
		{"statements object of strings", strings.Replace(valid, `"statements": ["The price list does not state a volume discount."]`, `"statements": {"volume_discount": "The price list does not state a volume discount."}`, 1), false, false, "each field's statements are a list"},
		{"statements key with a space", strings.Replace(valid, `"statements": ["The price list does not state a volume discount."]`, `"statements": {"volume discount": ["x"]}`, 1), false, true, "the schema checks the key is a name; the decoder leaves it to Validate (statement_field_not_required)"},
		{"empty statement", strings.Replace(valid, `"statements": ["The price list does not state a volume discount."]`, `"statements": {"volume_discount": [""]}`, 1), false, true, "minLength 1; the decoder leaves it to Validate (empty_value)"},
		{"source names", strings.Replace(valid, `"sources": ["price-list.pdf"],`, `"sources": ["price-list.pdf"], "source_names": ["the price list", "price-list.pdf"],`, 1), true, true, "source_names is an optional list of strings"},
		{"source names as a string", strings.Replace(valid, `"sources": ["price-list.pdf"],`, `"sources": ["price-list.pdf"], "source_names": "the price list",`, 1), false, false, "source_names is a list"},
	}
	for _, c := range cases {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(c.doc))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := s.Validate(inst) == nil; got != c.schema {
			t.Errorf("%s: schema valid=%v, want %v (%s)", c.name, got, c.schema, c.why)
		}
		if _, err := spans.Decode([]byte(c.doc), "r.json"); (err == nil) != c.decode {
			t.Errorf("%s: Decode error %v, want valid=%v (%s)", c.name, err, c.decode, c.why)
		}
	}
}

// TestSchemaFieldNames: each object of the schema has exactly the fields
// of its Go type's JSON tags.
func TestSchemaFieldNames(t *testing.T) {
	var schema map[string]any
	if err := json.Unmarshal(schematest.Bytes(t, "reference.schema.json"), &schema); err != nil {
		t.Fatal(err)
	}
	get := func(path ...string) map[string]any {
		v := any(schema)
		for _, p := range path {
			v = v.(map[string]any)[p]
		}
		return v.(map[string]any)
	}
	props := func(o map[string]any) []string {
		var names []string
		for k := range o["properties"].(map[string]any) {
			names = append(names, k)
		}
		sort.Strings(names)
		return names
	}
	for _, tc := range []struct {
		typ    any
		object map[string]any
	}{
		{spans.Reference{}, schema},
		{spans.Question{}, get("$defs", "question")},
		{spans.RequiredField{}, get("$defs", "question", "properties", "required_fields", "items")},
		{spans.Claim{}, get("$defs", "claim")},
		{spans.Span{}, get("$defs", "span")},
		{spans.AbsenceAudit{}, get("$defs", "question", "properties", "absence_audit")},
	} {
		var tags []string
		rt := reflect.TypeOf(tc.typ)
		for i := 0; i < rt.NumField(); i++ {
			if tag, ok := rt.Field(i).Tag.Lookup("json"); ok && rt.Field(i).IsExported() {
				tags = append(tags, strings.Split(tag, ",")[0])
			}
		}
		sort.Strings(tags)
		if got := props(tc.object); !slices.Equal(got, tags) {
			t.Errorf("%s: schema properties %v, Go JSON tags %v", rt.Name(), got, tags)
		}
	}
}

// TestReferenceFieldTable: docs/formats.md's table of reference fields
// lists every key the schema allows, with its type and whether it is
// required.
func TestReferenceFieldTable(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "formats.md"))
	require.NoError(t, err)
	schematest.CheckFieldTable(t, string(doc), "### Reference fields", schematest.Fields(t, schematest.Doc(t, "reference.schema.json")))

	// The example above the table is a reference, as written.
	_, rest, _ := strings.Cut(string(doc), "\n## Reference\n")
	_, rest, _ = strings.Cut(rest, "```json\n")
	example, _, _ := strings.Cut(rest, "```")
	_, err = spans.Decode([]byte(example), "docs/formats.md")
	require.NoError(t, err, "the reference docs/formats.md shows")
	require.NoError(t, schematest.Validate(t, compileSchema(t), example))
}
