package grade_test

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

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/internal/schematest"
	"github.com/citecheck/citecheck/internal/shareddata"
	"github.com/citecheck/citecheck/internal/testcorpus"
	"github.com/citecheck/citecheck/plan"
	"github.com/citecheck/citecheck/runs"
	"github.com/citecheck/citecheck/spans"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"
)

// docs/schema/result.schema.json documents results.jsonl (docs/results.md,
// docs/formats.md#results). These tests validate results made by grading
// against it and check that broken results are refused by it and by the
// reader of report and compare (grade.ReadResults).

func resultSchema(t *testing.T) (*jsonschema.Schema, map[string]any) {
	t.Helper()
	const name = "result.schema.json"
	return schematest.Compile(t, name), schematest.Doc(t, name)
}

func validateResult(t *testing.T, s *jsonschema.Schema, line string) error {
	t.Helper()
	return schematest.Validate(t, s, line)
}

// gradeDemo grades the demo run (fixtures/runs/graded.jsonl) on the demo
// corpus with the fixture reference and plan: every attempt status, a
// missing citation, failing, unresolved and passing citations.
func gradeDemo(t *testing.T) []byte {
	t.Helper()
	ix, err := citations.Build(testcorpus.Memory(t, testcorpus.DemoDocuments()), citations.Options{})
	require.NoError(t, err)
	ref, err := spans.Decode(fixtures.Reference(), "reference.json")
	require.NoError(t, err)
	p, err := plan.Decode(fixtures.Plan(), "plan.json")
	require.NoError(t, err)
	g, err := grade.New(ix, ref, true)
	require.NoError(t, err)
	in := grade.Input{File: "graded.jsonl", Each: func(fn func(*runs.Record) error) error {
		return runs.EachRun(bytes.NewReader(fixtures.GradedRun()), "graded.jsonl", "run", fn)
	}}
	var out bytes.Buffer
	err = g.Run([]grade.Input{in}, &out, grade.RunOptions{Plan: p, SpillDir: t.TempDir()})
	require.NoError(t, err)
	return out.Bytes()
}

func TestResultSchema(t *testing.T) {
	s, tree := resultSchema(t)
	check := func(t *testing.T, name string, data []byte) map[string]bool {
		keys := map[string]bool{}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		require.NotEmpty(t, lines)
		for i, line := range lines {
			if err := validateResult(t, s, line); err != nil {
				t.Errorf("%s:%d: %v", name, i+1, err)
			}
			var m map[string]any
			require.NoError(t, json.Unmarshal([]byte(line), &m))
			for k, v := range m {
				keys[k] = true
				if a, ok := v.(string); ok && k == "attempt" {
					keys["attempt="+a] = true
				}
			}
		}
		return keys
	}
	t.Run("demo", func(t *testing.T) {
		keys := check(t, "demo results.jsonl", gradeDemo(t))
		for _, k := range []string{"abstention_reasons", "claims", "stop_reason", "timing", "source",
			"attempt=ok", "attempt=timeout", "attempt=missing", "attempt=duplicate"} {
			if !keys[k] {
				t.Errorf("no demo result has %s: the test does not exercise it", k)
			}
		}
	})
	t.Run("worked examples", func(t *testing.T) {
		results := gradeExamples(t, filepath.Join(shareddata.Path(t, "grading"), "runs.jsonl")) // skips without ../shared
		data, err := os.ReadFile(results)
		require.NoError(t, err)
		check(t, "worked examples' results.jsonl", data)
	})

	good := strings.SplitN(string(gradeDemo(t)), "\n", 2)[0]
	unknown := `{"arm":"A","session":1,"question":"Q06","position":2,"attempt":"ok","kind":"unknown","fields":{},"citations":[],"factual":null,"supported":null,"abstention":"pass","abstention_reasons":["clean_unknown"],"review":[],"normalization":{"quote":"quote/v1","value":"value/v2"},"response":"UNKNOWN","frozen":true}`
	missing := `{"id":null,"verdict":"fail","reason":"missing_citation"}`
	withCitations := func(c string) string {
		return strings.Replace(unknown, `"kind":"unknown","fields":{},"citations":[],"factual":null,"supported":null,"abstention":"pass"`,
			`"kind":"answerable","fields":{},"citations":[`+c+`],"factual":"fail","supported":"fail","abstention":null`, 1)
	}
	cases := []struct {
		name           string
		line           string
		schema, reader bool
		why            string
	}{
		{"graded", good, true, true, "a result grade wrote"},
		{"unknown question", unknown, true, true, "kind unknown: abstention, no factual or supported"},
		{"missing-citation entry", withCitations(missing), true, true, "exactly the entry docs/results.md gives"},
		{"missing kind", strings.Replace(unknown, `"kind":"unknown",`, ``, 1), false, false, "kind is required"},
		{"missing arm", strings.Replace(unknown, `"arm":"A",`, ``, 1), false, false, "arm is required"},
		{"session as string", strings.Replace(unknown, `"session":1`, `"session":"1"`, 1), false, false, "session is an integer"},
		{"unknown kind", strings.Replace(unknown, `"kind":"unknown"`, `"kind":"open"`, 1), false, false, "answerable or unknown"},
		{"unknown key", strings.Replace(unknown, `"frozen":true`, `"frozen":true,"score":1`, 1), false, false, "no other keys"},
		{"duplicate key", strings.Replace(unknown, `"frozen":true`, `"frozen":true,"frozen":false`, 1), true, false, "a schema cannot see duplicate keys"},
		{"abstention on answerable", strings.Replace(withCitations(missing), `"abstention":null`, `"abstention":"pass"`, 1), false, false,
			"the schema and the strict reader (grade.ReadResults) tie the verdicts to the kind"},
		{"unknown outcome", strings.Replace(unknown, `"abstention":"pass"`, `"abstention":"maybe"`, 1), false, false,
			"pass, fail or unresolved, for the schema and the strict reader alike"},
		{"missing-citation entry with a document", withCitations(`{"id":null,"verdict":"fail","reason":"missing_citation","document":"a.pdf"}`), false, true,
			"the schema holds the entry to its three keys"},
		{"unknown reason", withCitations(`{"id":"c1","verdict":"fail","reason":"made_up"}`), false, false,
			"the schema and the strict reader both know grade.Reasons"},
		{"citation verdict as number", withCitations(`{"id":"c1","verdict":1,"reason":"wrong_fact"}`), false, false, "a verdict is a string"},
		{"format named", `{"format":"` + grade.ResultsFormat + `",` + unknown[1:], true, true, "a line may name its format"},
		{"another format", `{"format":"citecheck-results/0",` + unknown[1:], false, false, "a line of another format is refused"},
		{"unknown field reason", strings.Replace(withCitations(missing), `"fields":{}`,
			`"fields":{"samples":{"verdict":"incorrect","reasons":["made_up"],"value":"12"}}`, 1), false, true,
			"the schema knows grade.FieldReasons; the strict reader takes any field reason"},
	}
	for _, c := range cases {
		if err := validateResult(t, s, c.line); (err == nil) != c.schema {
			t.Errorf("%s: schema valid=%v, want %v (%s): %v", c.name, err == nil, c.schema, c.why, err)
		}
		err := grade.ReadResults(strings.NewReader(c.line+"\n"), "results.jsonl", func(int, *grade.Result) error { return nil })
		if (err == nil) != c.reader {
			t.Errorf("%s: reader valid=%v, want %v (%s): %v", c.name, err == nil, c.reader, c.why, err)
		}
	}

	// The schema's objects have exactly the Go types' JSON keys (a result
	// also the format, which the writer leaves out), and its citation
	// reasons are grade.Reasons.
	obj := func(path ...string) map[string]any {
		var v any = tree
		for _, p := range path {
			v = v.(map[string]any)[p]
		}
		return v.(map[string]any)
	}
	for _, tc := range []struct {
		typ    any
		object map[string]any
		extra  []string
	}{
		{grade.Result{}, tree, []string{"format"}},
		{grade.FieldVerdict{}, obj("$defs", "field"), nil},
		{grade.CitationResult{}, obj("$defs", "citation"), nil},
		{grade.ClaimResult{}, obj("properties", "claims", "items"), nil},
		{grade.Normalization{}, obj("properties", "normalization"), nil},
		{grade.Source{}, obj("properties", "source"), nil},
		{citations.Span{}, obj("$defs", "span"), nil},
		{runs.Timing{}, obj("$defs", "timing"), nil},
	} {
		var props []string
		tags := tc.extra
		for k := range tc.object["properties"].(map[string]any) {
			props = append(props, k)
		}
		rt := reflect.TypeOf(tc.typ)
		for i := 0; i < rt.NumField(); i++ {
			if name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
				tags = append(tags, name)
			}
		}
		sort.Strings(props)
		sort.Strings(tags)
		if !slices.Equal(props, tags) {
			t.Errorf("%s: schema properties %v, Go JSON keys %v", rt.Name(), props, tags)
		}
	}
	enum := func(o map[string]any) []string {
		var out []string
		for _, v := range o["enum"].([]any) {
			out = append(out, v.(string))
		}
		return out
	}
	var reasons []string
	for _, r := range grade.Reasons {
		reasons = append(reasons, string(r.Reason))
	}
	if schema := enum(obj("$defs", "citation", "properties", "reason")); !slices.Equal(schema, reasons) {
		t.Errorf("schema citation reasons %v, grade.Reasons %v", schema, reasons)
	}
	var fieldReasons []string
	for _, r := range grade.FieldReasons {
		fieldReasons = append(fieldReasons, string(r.Reason))
	}
	if schema := enum(obj("$defs", "field", "properties", "reasons", "items")); !slices.Equal(schema, fieldReasons) {
		t.Errorf("schema field reasons %v, grade.FieldReasons %v", schema, fieldReasons)
	}
	// An attempt that did not answer or must not count fails its fields
	// with attempt_<status>: each such status has its listed reason.
	for _, a := range enum(obj("properties", "attempt")) {
		if a != grade.AttemptOK && !slices.Contains(fieldReasons, "attempt_"+a) {
			t.Errorf("attempt status %s: grade.FieldReasons lacks attempt_%s", a, a)
		}
	}
}
