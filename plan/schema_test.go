package plan_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/internal/schematest"
	"github.com/citecheck/citecheck/plan"
)

func TestSchema(t *testing.T) {
	s := schematest.Compile(t, "plan.schema.json")
	good := string(fixtures.Plan())
	for _, tc := range []struct {
		name, doc string
		valid     bool
	}{
		{"fixture", good, true},
		{"unknown field", strings.Replace(good, `"seed":`, `"note": "", "seed":`, 1), false},
		{"repeated arm", strings.Replace(good, `["A", "B"]`, `["A", "A"]`, 1), false},
		{"no repetitions", strings.Replace(good, `"repetitions": 3`, `"repetitions": 0`, 1), false},
	} {
		if got := schematest.Validate(t, s, tc.doc) == nil; got != tc.valid {
			t.Errorf("%s: schema valid=%v, want %v", tc.name, got, tc.valid)
		}
	}

	// The schema's top-level properties are the Go type's JSON tags.
	var schema struct {
		Properties map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(schematest.Bytes(t, "plan.schema.json"), &schema); err != nil {
		t.Fatal(err)
	}
	var props, tags []string
	for k := range schema.Properties {
		props = append(props, k)
	}
	rt := reflect.TypeOf(plan.Plan{})
	for i := 0; i < rt.NumField(); i++ {
		tags = append(tags, strings.Split(rt.Field(i).Tag.Get("json"), ",")[0])
	}
	sort.Strings(props)
	sort.Strings(tags)
	if !slices.Equal(props, tags) {
		t.Errorf("schema properties %v, Go JSON tags %v", props, tags)
	}
}
