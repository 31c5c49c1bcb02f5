package review_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/internal/schematest"
	"github.com/citecheck/citecheck/review"
	"github.com/stretchr/testify/require"
)

// docs/schema/decisions.schema.json documents the decisions file and
// review-item.schema.json what citecheck review writes
// (docs/formats.md): the demo's decisions and the items listed here
// validate, each schema has its Go type's keys, and schema and reader
// agree on broken decisions or the case says why they cannot.

func TestDecisionsSchema(t *testing.T) {
	schematest.CheckProperties(t, "decision", schematest.Doc(t, "decisions.schema.json"), review.Decision{})
	s := schematest.Compile(t, "decisions.schema.json")
	shipped := schematest.Lines(t, fixtures.EvalDecisions())
	require.NotEmpty(t, shipped)
	for i := range shipped {
		require.NoError(t, schematest.Validate(t, s, shipped[i]), "%s:%d", fixtures.EvalDecisionsName, i+1)
	}
	h := "blake3:" + strings.Repeat("0f", 32)
	good := `{"hash":"` + h + `","verdict":"fail","reviewer":"ana","note":"n","at":"2026-12-03T09:12:00.123Z"}`
	swap := func(old, new string) string { return strings.Replace(good, old, new, 1) }
	schematest.CheckAgreement(t, s, []schematest.Case{
		{Name: "good", Line: good, Schema: true, Reader: true, Why: "every key"},
		{Name: "nulls", Line: swap(`"n","at":"2026-12-03T09:12:00.123Z"`, `null,"at":null`), Schema: true, Reader: true, Why: "null reads as absent"},
		{Name: "no reviewer", Line: swap(`,"reviewer":"ana"`, ``), Why: "required"},
		{Name: "unresolved", Line: swap(`"fail"`, `"unresolved"`), Why: "not a decision"},
		{Name: "upper-case hash", Line: swap(h, strings.ToUpper(h)), Why: "hashes are lower-case"},
		{Name: "padded reviewer", Line: swap(`"ana"`, `"ana "`), Why: "another name"},
		{Name: "unknown key", Line: swap(`"note"`, `"comment"`), Why: "a key the format lacks"},
		{Name: "a date only", Line: swap(`2026-12-03T09:12:00.123Z`, `2026-12-03`), Why: "not a time"},
		{Name: "reviewer with a tab", Line: swap(`"ana"`, `"a\tna"`), Schema: true, Why: "control characters: the reader's unicode.IsControl"},
	}, func(line string) error {
		return review.ReadDecisions(strings.NewReader(line), "d.jsonl", func(review.Decision) error { return nil })
	})
}

func TestItemSchema(t *testing.T) {
	s := schematest.Compile(t, "review-item.schema.json")
	doc := schematest.Doc(t, "review-item.schema.json")
	set := collect(t, evaluation())
	for _, items := range [][]review.Item{set.Items(), set.Blind(1)} {
		for _, it := range items {
			line, err := json.Marshal(it)
			require.NoError(t, err)
			if err := schematest.Validate(t, s, string(line)); err != nil {
				t.Errorf("%s: %v", line, err)
			}
		}
	}
	for _, c := range []struct {
		what string
		path []string
		typ  any
	}{
		{"item", nil, review.Item{}},
		{"attempt", []string{"properties", "attempts", "items"}, review.Attempt{}},
		{"content", []string{"$defs", "content"}, review.Content{}},
		{"question", []string{"$defs", "content", "properties", "question"}, review.Question{}},
		{"citation", []string{"$defs", "citation"}, review.CitationContent{}},
		{"located", []string{"$defs", "citation", "properties", "located", "items"}, review.Located{}},
		{"page", []string{"$defs", "citation", "properties", "pages", "items"}, review.PageText{}},
		{"claim", []string{"$defs", "citation", "properties", "supports", "items"}, review.Claim{}},
		{"span", []string{"$defs", "citation", "properties", "supports", "items", "properties", "evidence", "items"}, review.Span{}},
		{"field", []string{"$defs", "field"}, review.FieldContent{}},
		{"abstention", []string{"$defs", "abstention"}, review.AbstentionContent{}},
		{"cited", []string{"$defs", "abstention", "properties", "citations", "items"}, review.Cited{}},
	} {
		schematest.CheckProperties(t, c.what, schematest.At(t, doc, c.path...), c.typ)
	}
	// A content of two kinds is refused.
	it := set.Items()[0]
	it.Content.Field = &review.FieldContent{Values: []string{}}
	line, err := json.Marshal(it)
	require.NoError(t, err)
	if schematest.Validate(t, s, string(line)) == nil {
		t.Errorf("a citation's content with a field: accepted")
	}
}
