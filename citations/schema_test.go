package citations

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/fixtures"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The JSON Schemas of docs/schema document the formats this package reads
// and writes (docs/formats.md). These tests keep them true: every fixture
// and example validates, broken records are refused, and the schema and
// the Go reader agree or the case says why they cannot.

// docSchema compiles docs/schema/<name>.
func docSchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "docs", "schema", name))
	if err != nil {
		t.Fatal(err)
	}
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

// schemaErr validates one JSON text.
func schemaErr(t *testing.T, s *jsonschema.Schema, text string) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, text)
	}
	return s.Validate(inst)
}

// schemaDoc reads docs/schema/<name> as a generic tree.
func schemaDoc(t *testing.T, name string) map[string]any {
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

// at walks a schema tree by keys.
func at(t *testing.T, v any, path ...string) map[string]any {
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

// checkProperties: an object schema has exactly the JSON keys of a Go type.
func checkProperties(t *testing.T, what string, object map[string]any, typ any) {
	t.Helper()
	var props, tags []string
	for k := range at(t, object, "properties") {
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

// agreeCase is one record with the verdicts of the schema and of the Go
// reader; where they differ, why says what the other cannot see.
type agreeCase struct {
	name   string
	line   string
	schema bool
	reader bool
	why    string
}

func checkAgreement(t *testing.T, s *jsonschema.Schema, cases []agreeCase, read func(line string) error) {
	t.Helper()
	for _, c := range cases {
		if err := schemaErr(t, s, c.line); (err == nil) != c.schema {
			t.Errorf("%s: schema valid=%v, want %v (%s): %v", c.name, err == nil, c.schema, c.why, err)
		}
		if err := read(c.line); (err == nil) != c.reader {
			t.Errorf("%s: reader valid=%v, want %v (%s): %v", c.name, err == nil, c.reader, c.why, err)
		}
	}
}

func TestQuoteSchema(t *testing.T) {
	s := docSchema(t, "quote.schema.json")
	for i, line := range fileLines(t, fixtures.Quotes()) {
		if err := schemaErr(t, s, line); err != nil {
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
	checkProperties(t, "quote", schemaDoc(t, "quote.schema.json"), LocateRequest{})
}

func TestLocatedSchema(t *testing.T) {
	s := docSchema(t, "located.schema.json")
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
		if err := schemaErr(t, s, string(b)); err != nil {
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
	for i, line := range fileLines(t, golden) {
		if err := schemaErr(t, s, line); err != nil {
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
		if err := schemaErr(t, s, string(c.Located)); err != nil {
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
		if err := schemaErr(t, s, c.doc); (err == nil) != c.valid {
			t.Errorf("%s: schema valid=%v, want %v: %v", c.name, err == nil, c.valid, err)
		}
	}
	doc := schemaDoc(t, "located.schema.json")
	checkProperties(t, "located", doc, LocateRecord{})
	checkProperties(t, "found_in", at(t, doc, "properties", "found_in", "items"), FoundElsewhere{})
	checkProperties(t, "span", at(t, doc, "$defs", "span"), Span{})
	checkLevels(t, at(t, doc, "$defs", "level"))
}

// checkLevels: the schema's levels are every Level's name.
func checkLevels(t *testing.T, level map[string]any) {
	t.Helper()
	var names []string
	for l := Exact; l <= Reordered; l++ {
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

// runFiles are the run-record files of the repository: the fixtures and
// the records each adapter produces (testdata/adapters/*.want.json).
func runFiles(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{
		"fixtures/citations/run.jsonl": fileLines(t, fixtures.Run()),
		"fixtures/runs/graded.jsonl":   fileLines(t, fixtures.GradedRun()),
	}
	for _, format := range Formats[1:] {
		path := filepath.Join("testdata", "adapters", format+".want.json")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var recs []json.RawMessage
		if err := json.Unmarshal(data, &recs); err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			out[path] = append(out[path], string(r))
		}
	}
	// The run records the evaluation bank's envelopes become.
	for format, data := range evalRuns(t) {
		recs, err := ReadRuns(bytes.NewReader(data), format+".jsonl", format)
		if err != nil {
			t.Fatal(err)
		}
		name := "fixtures.EvalRuns " + format + " as run records"
		for _, r := range recs {
			b, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			out[name] = append(out[name], string(b))
		}
	}
	return out
}

func TestRunSchema(t *testing.T) {
	s := docSchema(t, "run.schema.json")
	for file, lines := range runFiles(t) {
		for i, line := range lines {
			if err := schemaErr(t, s, line); err != nil {
				t.Errorf("%s: record %d: %v", file, i+1, err)
			}
		}
	}
	base := `{"arm": "A", "session": 2, "question": "q1", "status": "ok", "stop_reason": "eos", "response": "r", "fields": {"f": "v"}, ` +
		`"citations": [{"id": "c1", "document": "a.pdf", "page": 2, "last_page": 3, "page_label": "ii", "quote": "x", "claim": "c", "native": {"k": [1, 2]}}], ` +
		`"retrieval": [{"t": 1}], "documents": {"k": "a.pdf", "l": ["a.pdf", "b.pdf"]}, "format": "run", ` +
		`"timing": {"retrieval_ms": 1.5, "embedding_ms": 2, "prompt_ms": 3e2, "generation_ms": 4, "total_ms": 5, "cold_start_ms": 6, "indexing_ms": 7}}`
	minimal := `{"arm": "A", "session": 1, "question": "q1", "status": "ok", "response": "", "citations": []}`
	cite := `{"id": "c1", "document": "a.pdf", "page": 2, "last_page": 3, "page_label": "ii", "quote": "x", "claim": "c", "native": {"k": [1, 2]}}`
	cases := []agreeCase{
		{"every key", base, true, true, "all keys"},
		{"minimal", minimal, true, true, "the required keys"},
		{"null optional keys", strings.Replace(minimal, `"citations": []`, `"citations": [{"id": "c1", "document": "a.pdf", "page": null, "quote": null}], "stop_reason": null, "fields": null, "retrieval": null, "documents": null, "timing": null, "format": null`, 1), true, true, "null reads as absent"},
		{"missing citations", strings.Replace(minimal, `, "citations": []`, ``, 1), false, false, "citations is required"},
		{"missing status", strings.Replace(minimal, `"status": "ok", `, ``, 1), false, false, "status is required"},
		{"session as string", strings.Replace(minimal, `"session": 1`, `"session": "1"`, 1), false, false, "session is an integer"},
		{"session zero", strings.Replace(minimal, `"session": 1`, `"session": 0`, 1), false, false, "sessions from 1"},
		{"unknown status", strings.Replace(minimal, `"ok"`, `"done"`, 1), false, false, "four statuses"},
		{"unknown key", strings.Replace(minimal, `"arm": "A"`, `"arm": "A", "model": "m"`, 1), false, false, "no other keys"},
		{"case variant", strings.Replace(minimal, `"arm": "A"`, `"Arm": "A"`, 1), false, false, "unknown for the schema; the reader refuses it too"},
		{"arm with a trailing space", strings.Replace(minimal, `"arm": "A"`, `"arm": "A "`, 1), false, false, "names have no surrounding white space"},
		{"page zero", strings.Replace(base, `"page": 2`, `"page": 0`, 1), false, false, "pages are 1-based"},
		{"last_page without page", strings.Replace(base, `"page": 2, `, ``, 1), false, false, "a range needs its start"},
		{"citation without document", strings.Replace(base, `"document": "a.pdf", `, ``, 1), false, false, "a citation names its document"},
		{"empty candidate list", strings.Replace(base, `"l": ["a.pdf", "b.pdf"]`, `"l": []`, 1), false, false, "a list of candidates is not empty"},
		{"mapping to a number", strings.Replace(base, `"k": "a.pdf"`, `"k": 1`, 1), false, false, "a name or a list of names"},
		{"retrieval card not an object", strings.Replace(base, `[{"t": 1}]`, `["t"]`, 1), false, false, "cards are objects"},
		{"unknown timing", strings.Replace(base, `"total_ms": 5`, `"total_s": 5`, 1), false, false, "seven phases"},
		{"duplicate key", strings.Replace(minimal, `"arm": "A"`, `"arm": "A", "arm": "B"`, 1), true, false, "a schema cannot see duplicate keys"},
		{"two citations with one id", strings.Replace(minimal, `"citations": []`, `"citations": [`+cite+`, `+cite+`]`, 1), true, false, "a schema cannot compare items' ids"},
		{"last_page before page", strings.Replace(base, `"last_page": 3`, `"last_page": 1`, 1), true, false, "a schema cannot compare two values"},
		{"an external source", strings.Replace(minimal, `"citations": []`, `"citations": [{"id": "c1", "document": "https://example.com/a", "quote": null, "external": true, "title": "A"}]`, 1), true, true, "a web page, kept"},
		{"a retrieved quote", strings.Replace(minimal, `"citations": []`, `"citations": [{"id": "c1", "document": "a.pdf", "quote": "x", "quote_from": "retrieval_result"}]`, 1), true, true, "the vendor's retrieved text"},
		{"another quote source", strings.Replace(minimal, `"citations": []`, `"citations": [{"id": "c1", "document": "a.pdf", "quote": "x", "quote_from": "model"}]`, 1), false, false, "retrieval_result or none"},
		{"page_physical without a page", strings.Replace(minimal, `"citations": []`, `"citations": [{"id": "c1", "document": "a.pdf", "quote": "x", "page_physical": true}]`, 1), false, false, "a page base needs a page"},
		{"unread notes", strings.Replace(minimal, `"citations": []`, `"citations": [], "unread": ["the answer has citation markers ([1])"]`, 1), true, true, "an adapter's notes"},
		{"unread not a list", strings.Replace(minimal, `"citations": []`, `"citations": [], "unread": "x"`, 1), false, false, "notes are a list of text"},
	}
	checkAgreement(t, s, cases, func(line string) error {
		_, err := ReadRunRecords(strings.NewReader(line+"\n"), "r.jsonl")
		return err
	})
	doc := schemaDoc(t, "run.schema.json")
	checkProperties(t, "run record", doc, RunRecord{})
	checkProperties(t, "citation", at(t, doc, "$defs", "citation"), RunCitation{})
	checkProperties(t, "timing", at(t, doc, "$defs", "timing"), Timing{})
}

// envelopeCases are, per format, broken envelopes around the format's
// first native fixture, each refused by the schema and the adapter, or
// with the reason they cannot agree.
func envelopeCases(t *testing.T, format string) []agreeCase {
	line := firstLine(t, format)
	edit := func(f func(m map[string]any)) string {
		return editJSON(t, line, func(m map[string]any) any { f(m); return m })
	}
	cases := []agreeCase{
		{"fixture", line, true, true, "the native fixture"},
		{"missing arm", edit(func(m map[string]any) { delete(m, "arm") }), false, false, "arm is required"},
		{"missing response", edit(func(m map[string]any) { delete(m, "response") }), false, false, "response is required"},
		{"session as string", edit(func(m map[string]any) { m["session"] = "1" }), false, false, "session is an integer"},
		{"unknown envelope key", edit(func(m map[string]any) { m["model"] = "x" }), false, false, "the envelope has no other keys"},
		{"documents as a number", edit(func(m map[string]any) { m["documents"] = 3 }), false, false, "a list or an object"},
		{"unknown status", edit(func(m map[string]any) { m["status"] = "done" }), false, false, "four statuses"},
		{"timing as string", edit(func(m map[string]any) { m["timing"] = "fast" }), false, false, "timing is an object"},
		{"extra vendor key", edit(func(m map[string]any) { response(m)["x_vendor_field"] = 1 }), true, true, "vendors add keys; citecheck ignores them"},
	}
	var vendor []agreeCase
	switch format {
	case "anthropic":
		vendor = []agreeCase{
			{"not a message", edit(func(m map[string]any) { response(m)["type"] = "error" }), false, false, "type is message"},
			{"web search citation", edit(func(m map[string]any) {
				c := response(m)["content"].([]any)[1].(map[string]any)["citations"].([]any)[0].(map[string]any)
				c["type"], c["url"], c["title"] = "web_search_result_location", "https://example.com/a", "A"
			}), true, true, "a web page is an external source, never a refused file (issue 18)"},
			{"unknown citation type", edit(func(m map[string]any) {
				c := response(m)["content"].([]any)[1].(map[string]any)["citations"].([]any)[0].(map[string]any)
				c["type"] = "map_location"
			}), true, true, "noted in the record's unread, never a refused file"},
			{"search result without its source", edit(func(m map[string]any) {
				c := response(m)["content"].([]any)[1].(map[string]any)["citations"].([]any)[0].(map[string]any)
				c["type"] = "search_result_location"
			}), false, false, "a search result citation names its source"},
			{"document_index missing", edit(func(m map[string]any) {
				c := response(m)["content"].([]any)[1].(map[string]any)["citations"].([]any)[0].(map[string]any)
				delete(c, "document_index")
			}), false, false, "a citation names its document by index"},
			{"page_location from page 0", edit(func(m map[string]any) {
				c := response(m)["content"].([]any)[1].(map[string]any)["citations"].([]any)[0].(map[string]any)
				c["start_page_number"] = 0
			}), false, false, "Anthropic's pages are 1-based"},
			{"end before start", edit(func(m map[string]any) {
				c := response(m)["content"].([]any)[1].(map[string]any)["citations"].([]any)[0].(map[string]any)
				c["start_page_number"], c["end_page_number"] = 3, 2
			}), true, false, "a schema cannot compare two values"},
			{"case variant", edit(func(m map[string]any) {
				c := response(m)["content"].([]any)[1].(map[string]any)["citations"].([]any)[0].(map[string]any)
				c["Cited_Text"] = c["cited_text"]
				delete(c, "cited_text")
			}), true, false, "the schema allows vendors' other keys; the reader refuses a case variant of one it reads"},
		}
	case "openai":
		vendor = []agreeCase{
			{"unknown object", edit(func(m map[string]any) { response(m)["object"] = "chat.completion" }), false, false, "a Responses response or an Assistants message"},
			{"text not a string", edit(func(m map[string]any) {
				response(m)["output"].([]any)[1].(map[string]any)["content"].([]any)[0].(map[string]any)["text"] = 1
			}), false, false, "output_text is text"},
		}
	case "gemini":
		vendor = []agreeCase{
			{"no candidates", edit(func(m map[string]any) { response(m)["candidates"] = []any{} }), false, false, "a candidate is needed"},
			{"negative chunk index", edit(func(m map[string]any) {
				gm := response(m)["candidates"].([]any)[0].(map[string]any)["groundingMetadata"].(map[string]any)
				gm["groundingSupports"].([]any)[0].(map[string]any)["groundingChunkIndices"] = []any{-1}
			}), false, false, "indices into groundingChunks"},
			{"chunk index beyond the chunks", edit(func(m map[string]any) {
				gm := response(m)["candidates"].([]any)[0].(map[string]any)["groundingMetadata"].(map[string]any)
				gm["groundingSupports"].([]any)[0].(map[string]any)["groundingChunkIndices"] = []any{9}
			}), true, true, "that citation's document is unknown; the file is read (issue 18)"},
			{"snake_case keys", edit(func(m map[string]any) {
				c := response(m)["candidates"].([]any)[0].(map[string]any)
				c["grounding_metadata"], c["finish_reason"] = c["groundingMetadata"], c["finishReason"]
				delete(c, "groundingMetadata")
				delete(c, "finishReason")
			}), true, true, "google-genai's Python model_dump() spelling"},
			{"both spellings of a key", edit(func(m map[string]any) {
				c := response(m)["candidates"].([]any)[0].(map[string]any)
				c["grounding_metadata"] = c["groundingMetadata"]
			}), false, false, "one key in two spellings: never one picked"},
			{"page 0", edit(func(m map[string]any) {
				gm := response(m)["candidates"].([]any)[0].(map[string]any)["groundingMetadata"].(map[string]any)
				gm["groundingChunks"].([]any)[0].(map[string]any)["retrievedContext"].(map[string]any)["pageNumber"] = 0
			}), false, true, "the reader ignores a page 0 (1-based by contract, so no page); the schema says pages start at 1"},
		}
	case "lmstudio":
		vendor = []agreeCase{
			{"page 0", edit(func(m map[string]any) {
				response(m)["content"].([]any)[1].(map[string]any)["pageNumber"] = 0
			}), false, false, "pages are read as 1-based: 0 is refused, not guessed"},
			{"page range", edit(func(m map[string]any) {
				response(m)["content"].([]any)[1].(map[string]any)["pageNumber"] = []any{1, 2}
			}), true, true, "lmstudio-js: pageNumber?: number | [start, end]"},
			{"page range from 0", edit(func(m map[string]any) {
				response(m)["content"].([]any)[1].(map[string]any)["pageNumber"] = []any{0, 2}
			}), false, false, "a range is 1-based too"},
			{"citationBlock.create block", edit(func(m map[string]any) {
				response(m)["content"].([]any)[1].(map[string]any)["type"] = "citationBlock.create"
			}), true, true, "lmstudio-js's processing update among the content blocks"},
			{"content a number", edit(func(m map[string]any) { response(m)["content"] = 1 }), false, false, "text or blocks"},
		}
	case "langchain":
		vendor = []agreeCase{
			{"no answer", edit(func(m map[string]any) { delete(response(m), "answer") }), false, false, "answer is required"},
			{"citation without source_id", edit(func(m map[string]any) {
				response(m)["answer"].(map[string]any)["citations"].([]any)[0].(map[string]any)["source_id"] = nil
			}), false, false, "a citation is an index into context"},
			{"XML parser output", edit(func(m map[string]any) {
				response(m)["answer"] = map[string]any{"cited_answer": []any{map[string]any{"answer": "x"},
					map[string]any{"citations": []any{map[string]any{"citation": []any{map[string]any{"source_id": "0"}, map[string]any{"quote": "q"}}}}}}}
			}), true, true, "XMLOutputParser's cited_answer, source ids as text"},
			{"source id as words", edit(func(m map[string]any) {
				response(m)["answer"].(map[string]any)["citations"].([]any)[0].(map[string]any)["source_id"] = "first"
			}), false, false, "a source id is a number, maybe written as text"},
			{"negative 0-based page", edit(func(m map[string]any) {
				response(m)["context"].([]any)[0].(map[string]any)["metadata"].(map[string]any)["page"] = -1
			}), false, false, "metadata.page is 0-based"},
		}
	case "llamaindex":
		vendor = []agreeCase{
			{"source_nodes not a list", edit(func(m map[string]any) { response(m)["source_nodes"] = "n" }), false, false, "a list of nodes"},
			{"node text not a string", edit(func(m map[string]any) {
				response(m)["source_nodes"].([]any)[0].(map[string]any)["node"].(map[string]any)["text"] = 1
			}), false, false, "a node's text is the quote"},
		}
	}
	return append(cases, vendor...)
}

func TestEnvelopeSchemas(t *testing.T) {
	var shared map[string]any // the envelope's own keys, identical in every schema
	for _, format := range Formats[1:] {
		t.Run(format, func(t *testing.T) {
			name := "envelope-" + format + ".schema.json"
			s := docSchema(t, name)
			files, _ := filepath.Glob(filepath.Join("testdata", "adapters", format+"-*.jsonl"))
			files = append(files, filepath.Join("testdata", "adapters", format+".jsonl"))
			for _, file := range files {
				data, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				for i, line := range fileLines(t, data) {
					if err := schemaErr(t, s, line); err != nil {
						t.Errorf("%s:%d: %v", file, i+1, err)
					}
				}
			}
			for i, line := range fileLines(t, evalRuns(t)[format]) {
				if err := schemaErr(t, s, line); err != nil {
					t.Errorf("fixtures.EvalRuns %s line %d: %v", format, i+1, err)
				}
			}
			checkAgreement(t, s, envelopeCases(t, format), func(line string) error {
				_, err := ReadRuns(strings.NewReader(line+"\n"), "e.jsonl", format)
				return err
			})
			doc := schemaDoc(t, name)
			checkProperties(t, name, doc, Envelope{})
			own := map[string]any{"required": doc["required"], "additionalProperties": doc["additionalProperties"]}
			for k, v := range at(t, doc, "properties") {
				if k != "response" {
					own["properties."+k] = v
				}
			}
			for _, k := range []string{"name", "mapping", "timing"} {
				own["$defs."+k] = at(t, doc, "$defs", k)
			}
			if shared == nil {
				shared = own
			} else if !reflect.DeepEqual(own, shared) {
				t.Errorf("%s: the envelope's own keys differ from envelope-%s.schema.json's", name, Formats[1])
			}
			// The envelope's timing is the run record's.
			if run := at(t, schemaDoc(t, "run.schema.json"), "$defs", "timing"); !reflect.DeepEqual(run, own["$defs.timing"]) {
				t.Errorf("%s: timing differs from run.schema.json's", name)
			}
		})
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
		docSchema(t, name)
		if id := schemaDoc(t, name)["$id"]; id != "https://github.com/citecheck/citecheck/docs/schema/"+name {
			t.Errorf("%s: $id %v", name, id)
		}
		if !strings.Contains(string(formats), fmt.Sprintf("(schema/%s)", name)) {
			t.Errorf("docs/formats.md does not link schema/%s", name)
		}
	}
}
