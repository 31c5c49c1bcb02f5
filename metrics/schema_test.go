package metrics_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/grade"
	"github.com/citecheck/citecheck/internal/schematest"
	"github.com/citecheck/citecheck/metrics"
	"github.com/citecheck/citecheck/report"
	"github.com/citecheck/citecheck/runs"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"
)

// docs/schema/summary.schema.json documents summary.json
// (docs/formats.md#summary). These tests validate the golden summary of
// "citecheck report" and one built here that reaches what the golden does
// not (a qualified session, zero denominators, a latency over the
// deadline), and check that broken summaries are refused.

func summarySchema(t *testing.T) (*jsonschema.Schema, map[string]any) {
	t.Helper()
	const name = "summary.schema.json"
	return schematest.Compile(t, name), schematest.Doc(t, name)
}

func validateSummary(t *testing.T, s *jsonschema.Schema, text string) error {
	t.Helper()
	return schematest.Validate(t, s, text)
}

// builtSummary is summary.json for results made here: arm A's session 1
// qualifies under thresholds that fit it, arm A's session 2 has no unknown
// question (a zero denominator) and a timed-out attempt over the deadline,
// arm B is compared with A.
func builtSummary(t *testing.T) string {
	t.Helper()
	outcome := func(s string) *grade.Outcome { o := grade.Outcome(s); return &o }
	ms := func(v float64) *float64 { return &v }
	var rs []grade.Result
	add := func(arm string, session int, q, attempt, verdict string, unknown bool, total float64) {
		r := grade.Result{Arm: arm, Session: session, Question: q, Attempt: attempt, Frozen: true, StopReason: "eos",
			Timing: &runs.Timing{TotalMS: ms(total), GenerationMS: ms(total / 2)}}
		if unknown {
			r.Kind, r.Abstention = grade.KindUnknown, outcome(verdict)
		} else {
			id := "c1"
			r.Kind, r.Supported, r.Factual = grade.KindAnswerable, outcome(verdict), outcome(verdict)
			r.Citations = []grade.CitationResult{{ID: &id, Verdict: grade.Outcome(verdict), Reason: grade.ReasonDeclaredSpan}}
		}
		rs = append(rs, r)
	}
	for i := range 4 {
		q := fmt.Sprintf("Q%d", i+1)
		add("A", 1, q, grade.AttemptOK, "pass", false, 800)
		add("A", 2, q, grade.AttemptOK, "pass", false, 900)
		add("B", 1, q, grade.AttemptOK, []string{"pass", "fail", "unresolved", "pass"}[i], false, 1200)
	}
	add("A", 1, "U1", grade.AttemptOK, "pass", true, 500)
	add("B", 1, "U1", grade.AttemptOK, "fail", true, 600)
	add("A", 2, "Q5", grade.AttemptTimeout, "fail", false, 95_000)
	b := metrics.NewBuilder()
	for i := range rs {
		b.Add(&rs[i])
	}
	th := metrics.Thresholds{Supported: big.NewRat(1, 2), Citations: big.NewRat(1, 2), Abstention: big.NewRat(1, 2), Answerable: 4, Unknown: 1}
	sum := b.Summary(th)
	cmp, err := metrics.Compare(rs, metrics.CompareOptions{Arms: [2]string{"A", "B"}, Seed: 1, Stream: 2, Replicates: 200})
	require.NoError(t, err)
	sum.Comparison = cmp
	var out bytes.Buffer
	require.NoError(t, report.WriteJSON(&out, sum))
	return out.String()
}

func TestSummarySchema(t *testing.T) {
	s, tree := summarySchema(t)
	golden, err := os.ReadFile(filepath.Join("..", "cmd", "citecheck", "testdata", "report", "summary.json"))
	require.NoError(t, err)
	if err := validateSummary(t, s, string(golden)); err != nil {
		t.Errorf("cmd/citecheck/testdata/report/summary.json: %v", err)
	}
	built := builtSummary(t)
	if err := validateSummary(t, s, built); err != nil {
		t.Errorf("built summary: %v\n%s", err, built)
	}
	for _, want := range []string{`"qualified": true`, `"lb": null`, `"over_deadline": [`, `"comparison": {`} {
		if !strings.Contains(built, want) {
			t.Errorf("the built summary lacks %s: the test does not exercise it", want)
		}
	}

	// Broken summaries, each an edit of the golden.
	var g map[string]any
	require.NoError(t, json.Unmarshal(golden, &g))
	session := func(m map[string]any) map[string]any { return m["sessions"].([]any)[0].(map[string]any) }
	for _, c := range []struct {
		name string
		edit func(m map[string]any)
	}{
		{"no format", func(m map[string]any) { delete(m, "format") }},
		{"another format", func(m map[string]any) { m["format"] = "citecheck-summary/1" }},
		{"no outside_plan", func(m map[string]any) { delete(m, "outside_plan") }},
		{"qualified outside the plan", func(m map[string]any) {
			m["outside_plan"].([]any)[0].(map[string]any)["qualified"] = false
		}},
		{"out_of_order as a count", func(m map[string]any) { session(m)["out_of_order"] = 0 }},
		{"unknown key", func(m map[string]any) { m["generated_at"] = "today" }},
		{"no sessions", func(m map[string]any) { delete(m, "sessions") }},
		{"session without qualified", func(m map[string]any) { delete(session(m), "qualified") }},
		{"arm with a session", func(m map[string]any) { m["arms"].([]any)[0].(map[string]any)["session"] = 1 }},
		{"lb as string", func(m map[string]any) { session(m)["supported"].(map[string]any)["lb"] = "1" }},
		{"lb above 1", func(m map[string]any) { session(m)["supported"].(map[string]any)["lb"] = 1.5 }},
		{"a bound with n 0", func(m map[string]any) {
			session(m)["supported"].(map[string]any)["n"] = 0
		}},
		{"no bound with n > 0", func(m map[string]any) { session(m)["supported"].(map[string]any)["lb"] = nil }},
		{"negative count", func(m map[string]any) { session(m)["attempts"].(map[string]any)["ok"] = -1 }},
		{"unknown phase", func(m map[string]any) { m["latency"].([]any)[0].(map[string]any)["phase"] = "thinking" }},
		{"comparison metric", func(m map[string]any) { m["comparison"].(map[string]any)["metric"] = "citations" }},
		{"comparison of three arms", func(m map[string]any) { m["comparison"].(map[string]any)["arms"] = []any{"A", "B", "C"} }},
		{"stop reason count as string", func(m map[string]any) { m["stop_reasons"].(map[string]any)["A"].(map[string]any)["eos"] = "6" }},
	} {
		var m map[string]any
		require.NoError(t, json.Unmarshal(golden, &m))
		c.edit(m)
		b, err := json.Marshal(m)
		require.NoError(t, err)
		if validateSummary(t, s, string(b)) == nil {
			t.Errorf("%s: the schema accepts it", c.name)
		}
	}

	// Every object of the schema has exactly its Go type's JSON keys.
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
	}{
		{metrics.Summary{}, tree},
		{metrics.ThresholdsJSON{}, obj("properties", "thresholds")},
		{metrics.Group{}, obj("$defs", "group")},
		{metrics.Attempts{}, obj("$defs", "group", "properties", "attempts")},
		{metrics.MetricJSON{}, obj("$defs", "metric")},
		{metrics.Comparison{}, obj("$defs", "comparison")},
		{metrics.Side{}, obj("$defs", "side")},
		{metrics.Bin{}, obj("$defs", "side", "properties", "histogram", "items")},
		{metrics.Latency{}, obj("$defs", "latency")},
		{metrics.Reviewed{}, obj("$defs", "reviewed")},
		{metrics.Reviews{}, obj("$defs", "reviews")},
		{metrics.ReviewFile{}, obj("$defs", "reviews", "properties", "files", "items")},
		{metrics.Disagreement{}, obj("$defs", "reviews", "properties", "disagreements", "items")},
		{metrics.Agreement{}, obj("$defs", "reviews", "properties", "agreement", "items")},
	} {
		var props []string
		for k := range tc.object["properties"].(map[string]any) {
			props = append(props, k)
		}
		tags := jsonKeys(reflect.TypeOf(tc.typ))
		sort.Strings(props)
		sort.Strings(tags)
		if !slices.Equal(props, tags) {
			t.Errorf("%s: schema properties %v, Go JSON keys %v", reflect.TypeOf(tc.typ).Name(), props, tags)
		}
	}
	var phases []string
	for _, v := range obj("$defs", "latency", "properties", "phase")["enum"].([]any) {
		phases = append(phases, v.(string))
	}
	if !slices.Equal(phases, metrics.Phases) {
		t.Errorf("schema phases %v, metrics.Phases %v", phases, metrics.Phases)
	}
}

// jsonKeys lists the JSON keys of a struct type, embedded structs' keys
// included.
func jsonKeys(rt reflect.Type) []string {
	var out []string
	for i := 0; i < rt.NumField(); i++ {
		f := rt.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case f.Anonymous && name == "":
			out = append(out, jsonKeys(f.Type)...)
		case f.IsExported() && name != "-":
			if name == "" {
				name = f.Name
			}
			out = append(out, name)
		}
	}
	return out
}
