package runs

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/internal/schematest"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"
)

// runFiles are the run-record files of the repository: the fixtures and
// the records each adapter produces (testdata/adapters/*.want.json).
func runFiles(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{
		"fixtures/citations/run.jsonl": schematest.Lines(t, fixtures.Run()),
		"fixtures/runs/graded.jsonl":   schematest.Lines(t, fixtures.GradedRun()),
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
	s := schematest.Compile(t, "run.schema.json")
	for file, lines := range runFiles(t) {
		for i, line := range lines {
			if err := schematest.Validate(t, s, line); err != nil {
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
		{"page zero", strings.Replace(base, `"page": 2`, `"page": 0`, 1), false, true, "pages are 1-based; the reader keeps the citation as malformed, not the file refused"},
		{"last_page without page", strings.Replace(base, `"page": 2, `, ``, 1), false, true, "a range needs its start; the citation is malformed, the record read"},
		{"citation without document", strings.Replace(base, `"document": "a.pdf", `, ``, 1), false, true, "a citation names its document; one that does not is malformed, the record read"},
		{"empty candidate list", strings.Replace(base, `"l": ["a.pdf", "b.pdf"]`, `"l": []`, 1), false, false, "a list of candidates is not empty"},
		{"mapping to a number", strings.Replace(base, `"k": "a.pdf"`, `"k": 1`, 1), false, false, "a name or a list of names"},
		{"retrieval card not an object", strings.Replace(base, `[{"t": 1}]`, `["t"]`, 1), false, false, "cards are objects"},
		{"unknown timing", strings.Replace(base, `"total_ms": 5`, `"total_s": 5`, 1), false, false, "seven phases"},
		{"duplicate key", strings.Replace(minimal, `"arm": "A"`, `"arm": "A", "arm": "B"`, 1), true, false, "a schema cannot see duplicate keys"},
		{"two citations with one id", strings.Replace(minimal, `"citations": []`, `"citations": [`+cite+`, `+cite+`]`, 1), true, false, "a schema cannot compare items' ids"},
		{"last_page before page", strings.Replace(base, `"last_page": 3`, `"last_page": 1`, 1), true, true, "a schema cannot compare two values; the reader keeps the citation as malformed"},
		{"an external source", strings.Replace(minimal, `"citations": []`, `"citations": [{"id": "c1", "document": "https://example.com/a", "quote": null, "external": true, "title": "A"}]`, 1), true, true, "a web page, kept"},
		{"a retrieved quote", strings.Replace(minimal, `"citations": []`, `"citations": [{"id": "c1", "document": "a.pdf", "quote": "x", "quote_from": "retrieval_result"}]`, 1), true, true, "the vendor's retrieved text"},
		{"another quote source", strings.Replace(minimal, `"citations": []`, `"citations": [{"id": "c1", "document": "a.pdf", "quote": "x", "quote_from": "model"}]`, 1), false, false, "retrieval_result or none"},
		{"page_physical without a page", strings.Replace(minimal, `"citations": []`, `"citations": [{"id": "c1", "document": "a.pdf", "quote": "x", "page_physical": true}]`, 1), false, false, "a page base needs a page"},
		{"unread notes", strings.Replace(minimal, `"citations": []`, `"citations": [], "unread": ["the answer has citation markers ([1])"]`, 1), true, true, "an adapter's notes"},
		{"unread not a list", strings.Replace(minimal, `"citations": []`, `"citations": [], "unread": "x"`, 1), false, false, "notes are a list of text"},
	}
	checkAgreement(t, s, cases, func(line string) error {
		_, err := ReadRecords(strings.NewReader(line+"\n"), "r.jsonl")
		return err
	})
	doc := schematest.Doc(t, "run.schema.json")
	schematest.CheckProperties(t, "run record", doc, Record{})
	schematest.CheckProperties(t, "citation", schematest.At(t, doc, "$defs", "citation"), Citation{})
	schematest.CheckProperties(t, "timing", schematest.At(t, doc, "$defs", "timing"), Timing{})
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
			}), true, true, "a web page is an external source, never a refused file"},
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
			}), true, true, "that citation's document is unknown; the file is read"},
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
			}), false, true, "pages are read as 1-based: 0 is not guessed; the citation is kept as malformed, the file read"},
			{"page range", edit(func(m map[string]any) {
				response(m)["content"].([]any)[1].(map[string]any)["pageNumber"] = []any{1, 2}
			}), true, true, "lmstudio-js: pageNumber?: number | [start, end]"},
			{"page range from 0", edit(func(m map[string]any) {
				response(m)["content"].([]any)[1].(map[string]any)["pageNumber"] = []any{0, 2}
			}), false, true, "a range is 1-based too; the citation is malformed, the file read"},
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
			s := schematest.Compile(t, name)
			files, _ := filepath.Glob(filepath.Join("testdata", "adapters", format+"-*.jsonl"))
			files = append(files, filepath.Join("testdata", "adapters", format+".jsonl"))
			for _, file := range files {
				data, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				for i, line := range schematest.Lines(t, data) {
					if err := schematest.Validate(t, s, line); err != nil {
						t.Errorf("%s:%d: %v", file, i+1, err)
					}
				}
			}
			for i, line := range schematest.Lines(t, evalRuns(t)[format]) {
				if err := schematest.Validate(t, s, line); err != nil {
					t.Errorf("fixtures.EvalRuns %s line %d: %v", format, i+1, err)
				}
			}
			checkAgreement(t, s, envelopeCases(t, format), func(line string) error {
				_, err := ReadRuns(strings.NewReader(line+"\n"), "e.jsonl", format)
				return err
			})
			doc := schematest.Doc(t, name)
			schematest.CheckProperties(t, name, doc, Envelope{})
			own := map[string]any{"required": doc["required"], "additionalProperties": doc["additionalProperties"]}
			for k, v := range schematest.At(t, doc, "properties") {
				if k != "response" {
					own["properties."+k] = v
				}
			}
			for _, k := range []string{"name", "mapping", "timing"} {
				own["$defs."+k] = schematest.At(t, doc, "$defs", k)
			}
			if shared == nil {
				shared = own
			} else if !reflect.DeepEqual(own, shared) {
				t.Errorf("%s: the envelope's own keys differ from envelope-%s.schema.json's", name, Formats[1])
			}
			// The envelope's timing is the run record's.
			if run := schematest.At(t, schematest.Doc(t, "run.schema.json"), "$defs", "timing"); !reflect.DeepEqual(run, own["$defs.timing"]) {
				t.Errorf("%s: timing differs from run.schema.json's", name)
			}
		})
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

// TestRunRecordFieldTable: docs/formats.md's table of run-record fields
// lists every key the schema allows, with its type and whether it is
// required.
func TestRunRecordFieldTable(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "formats.md"))
	require.NoError(t, err)
	schematest.CheckFieldTable(t, string(doc), "### Run-record fields", schematest.Fields(t, schematest.Doc(t, "run.schema.json")))
}
