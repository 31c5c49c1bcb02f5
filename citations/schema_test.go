package citations

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/internal/schematest"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

func TestQuoteSchema(t *testing.T) {
	s := schematest.Compile(t, "quote.schema.json")
	for i, line := range schematest.Lines(t, fixtures.Quotes()) {
		if err := schematest.Validate(t, s, line); err != nil {
			t.Errorf("fixtures/citations/quotes.jsonl:%d: %v", i+1, err)
		}
	}
	base := `{"id": "q1", "document": "supplier-policy.pdf", "quote": "Orders must be delivered", "page": 1, "page_label": "1"}`
	cases := []agreeCase{
		{"valid", base, true, true, "every key"},
		{"page null", strings.Replace(base, `"page": 1`, `"page": null`, 1), true, true, "null reads as absent"},
		{"no page", strings.Replace(base, `, "page": 1`, ``, 1), true, true, "page is optional"},
		{"missing quote", strings.Replace(base, `"quote": "Orders must be delivered", `, ``, 1), false, false, "quote is required"},
		{"missing id", strings.Replace(base, `"id": "q1", `, ``, 1), false, false, "id is required"},
		{"empty document", strings.Replace(base, `"supplier-policy.pdf"`, `""`, 1), false, false, "document is not empty"},
		{"blank quote", strings.Replace(base, `"Orders must be delivered"`, `" \u00a0\t"`, 1), false, false, "white space only is empty"},
		{"page zero", strings.Replace(base, `"page": 1`, `"page": 0`, 1), false, false, "pages are 1-based"},
		{"page as string", strings.Replace(base, `"page": 1`, `"page": "1"`, 1), false, false, "page is an integer"},
		{"unknown key", strings.Replace(base, `"id": "q1"`, `"id": "q1", "pages": [1]`, 1), false, false, "no other keys"},
		{"case variant", strings.Replace(base, `"id": "q1"`, `"ID": "q1"`, 1), false, false, "an unknown key for the schema; the reader refuses the case variant"},
		{"duplicate key", strings.Replace(base, `"id": "q1"`, `"id": "q1", "id": "q2"`, 1), true, false, "a schema cannot see duplicate keys"},
		{"quote over 64 KiB", strings.Replace(base, `"Orders must be delivered"`, `"`+strings.Repeat("é", 40000)+`"`, 1), true, false,
			"80,000 bytes in 40,000 code points: maxLength counts code points, the cap is bytes"},
	}
	checkAgreement(t, s, cases, func(line string) error {
		_, err := ReadLocateRequests(strings.NewReader(line+"\n"), "q.jsonl")
		return err
	})
	schematest.CheckProperties(t, "quote", schematest.Doc(t, "quote.schema.json"), LocateRequest{})
}

func TestLocatedSchema(t *testing.T) {
	s := schematest.Compile(t, "located.schema.json")
	ix := testIndex(t)
	// Every quote of the fixture, located, and queries that reach the keys
	// the fixture does not: document_status, note, page_flags.
	reqs, err := ReadLocateRequests(bytes.NewReader(fixtures.Quotes()), "quotes.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	queries := map[string]Query{}
	for _, r := range reqs {
		queries[r.ID] = r.Query()
	}
	queries["encrypted"] = Query{Document: "locked.pdf", Quote: "anything at all here"}
	queries["no document"] = Query{Quote: "Operating margin was 12.4% in the year."}
	queries["textless page"] = Query{Document: "annual-report.pdf", Quote: "Net debt fell to 310 million.", Page: 5}
	queries["elsewhere"] = Query{Document: "annual-report.pdf", Quote: "The board approved the dividend."}
	seen := map[string]bool{}
	for id, q := range queries {
		b, err := json.Marshal(NewLocateRecord(id, ix.Locate(q)))
		if err != nil {
			t.Fatal(err)
		}
		if err := schematest.Validate(t, s, string(b)); err != nil {
			t.Errorf("%s: %s: %v", id, b, err)
		}
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		for k := range m {
			seen[k] = true
		}
	}
	for _, k := range []string{"crosses_page", "document", "occurrences", "page_check", "disambiguated_by_page", "short", "elided",
		"document_status", "page_flags", "found_in", "note"} {
		if !seen[k] {
			t.Errorf("no located record has %q: the test does not exercise it", k)
		}
	}
	// The goldens of the command: locate's output and audit --json's
	// located records.
	golden, err := os.ReadFile(filepath.Join("..", "cmd", "citecheck", "testdata", "locate", "quotes.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range schematest.Lines(t, golden) {
		if err := schematest.Validate(t, s, line); err != nil {
			t.Errorf("cmd/citecheck/testdata/locate/quotes.jsonl:%d: %v", i+1, err)
		}
	}
	audit, err := os.ReadFile(filepath.Join("..", "cmd", "citecheck", "testdata", "audit", "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	var aj struct {
		Citations []struct {
			Located json.RawMessage `json:"located"`
		} `json:"citations"`
	}
	if err := json.Unmarshal(audit, &aj); err != nil || len(aj.Citations) == 0 {
		t.Fatalf("audit/run.json: %v, %d citations", err, len(aj.Citations))
	}
	for i, c := range aj.Citations {
		if err := schematest.Validate(t, s, string(c.Located)); err != nil {
			t.Errorf("cmd/citecheck/testdata/audit/run.json citations[%d].located: %v", i, err)
		}
	}
	base := `{"id":"q","status":"unique","pages":[1],"spans":[{"page":1,"start":243,"end":318}],"match":"exact","document":"a.pdf","occurrences":1}`
	for _, c := range []struct {
		name, doc string
		valid     bool
	}{
		{"valid", base, true},
		{"not found", `{"id":"q","status":"not_found","pages":[],"spans":[],"match":null}`, true},
		{"missing match", strings.Replace(base, `,"match":"exact"`, ``, 1), false},
		{"unknown status", strings.Replace(base, `"unique"`, `"found"`, 1), false},
		{"unknown level", strings.Replace(base, `"exact"`, `"fuzzy"`, 1), false},
		{"page as string", strings.Replace(base, `"pages":[1]`, `"pages":["1"]`, 1), false},
		{"span without end", strings.Replace(base, `,"end":318`, ``, 1), false},
		{"page zero", strings.Replace(base, `"pages":[1]`, `"pages":[0]`, 1), false},
		{"unknown key", strings.Replace(base, `"id":"q"`, `"id":"q","score":1`, 1), false},
	} {
		if err := schematest.Validate(t, s, c.doc); (err == nil) != c.valid {
			t.Errorf("%s: schema valid=%v, want %v: %v", c.name, err == nil, c.valid, err)
		}
	}
	doc := schematest.Doc(t, "located.schema.json")
	schematest.CheckProperties(t, "located", doc, LocateRecord{})
	schematest.CheckProperties(t, "found_in", schematest.At(t, doc, "properties", "found_in", "items"), FoundElsewhere{})
	schematest.CheckProperties(t, "span", schematest.At(t, doc, "$defs", "span"), Span{})
	checkLevels(t, schematest.At(t, doc, "$defs", "level"))
}

// checkLevels: the schema's levels are every Level's name.
func checkLevels(t *testing.T, level map[string]any) {
	t.Helper()
	var names []string
	for l := Exact; l <= maxLevel; l++ {
		names = append(names, l.String())
	}
	var got []string
	for _, v := range level["enum"].([]any) {
		got = append(got, v.(string))
	}
	if !slices.Equal(got, names) {
		t.Errorf("schema levels %v, Go levels %v", got, names)
	}
}

// TestSchemaFiles: every file of docs/schema compiles and is linked from
// docs/formats.md.
func TestSchemaFiles(t *testing.T) {
	formats, err := os.ReadFile(filepath.Join("..", "docs", "formats.md"))
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join("..", "docs", "schema", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no schemas: %v", err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		schematest.Compile(t, name)
		if id := schematest.Doc(t, name)["$id"]; id != "https://github.com/citecheck/citecheck/docs/schema/"+name {
			t.Errorf("%s: $id %v", name, id)
		}
		if !strings.Contains(string(formats), fmt.Sprintf("(schema/%s)", name)) {
			t.Errorf("docs/formats.md does not link schema/%s", name)
		}
	}
}

// agreeCase is a schematest.Case of this package, so that the tables above
// may list its fields unkeyed.
type agreeCase schematest.Case

func checkAgreement(t *testing.T, s *jsonschema.Schema, cases []agreeCase, read func(line string) error) {
	t.Helper()
	all := make([]schematest.Case, len(cases))
	for i, c := range cases {
		all[i] = schematest.Case(c)
	}
	schematest.CheckAgreement(t, s, all, read)
}
