package runs_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/audit"
	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/runs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files")

// adapterAudits is, per format, what the audit against the demo corpus
// says of each citation its payload holds: "question id: grounding
// detail".
var adapterAudits = map[string][]string{
	"anthropic": {"q01 c1: unique exact", "q01 c2: unique exact", "q02 c1: unique whitespace", "q02 c2: unique exact", "q02 c3: unique exact"},
	"openai": {
		"q01 c1: unverifiable no quote to verify",
		"q01 c2: external_source https://example.com/ is a source outside the corpus: the frozen corpus cannot check it",
		"q02 c1: unique whitespace",
	},
	"gemini":     {"q03 c1: unique exact"},
	"lmstudio":   {"q01 c1: unique exact", "q01 c2: wrong_page given page 2; found on page 1"},
	"langchain":  {"q01 c1: unique exact", "q01 c2: unique exact", "q02 c1: unique exact"},
	"llamaindex": {"q01 [1]: unique exact", `q01 [3]: unknown_document document "source_nodes[2]" is not in the corpus`},
}

// TestAdapters reads every native payload under testdata/adapters, checks
// the run records against the golden *.want.json, and audits them against
// the demo corpus: every quote is located again in our own text, with the
// groundings of adapterAudits.
func TestAdapters(t *testing.T) {
	ix := testIndex(t)
	for _, format := range runs.Formats[1:] {
		t.Run(format, func(t *testing.T) {
			path := filepath.Join("testdata", "adapters", format+".jsonl")
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			recs, err := runs.ReadRuns(f, path, format)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(recs, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := strings.TrimSuffix(path, ".jsonl") + ".want.json"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the adapter's output (run go test -update to accept):\n%s", golden, got)
			}
			var audited []string
			for _, e := range audit.Run(ix, recs, 0, nil).Entries {
				audited = append(audited, fmt.Sprintf("%s %s: %s %s", e.Question, e.Citation.ID, e.Grounding, e.Detail))
			}
			assert.Equal(t, adapterAudits[format], audited, "the audit of the %s payloads", format)
		})
	}
}

func readFormat(t *testing.T, format string) []runs.Record {
	t.Helper()
	path := filepath.Join("testdata", "adapters", format+".jsonl")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := runs.ReadRuns(bytes.NewReader(b), path, format)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func groundings(ix *citations.Index, recs []runs.Record) []citations.Grounding {
	var out []citations.Grounding
	for _, e := range audit.Run(ix, recs, 0, nil).Entries {
		out = append(out, e.Grounding)
	}
	return out
}

func TestAdapterAnthropic(t *testing.T) {
	recs := readFormat(t, "anthropic")
	r := recs[0]
	assert.Equal(t, "According to the policy, orders must be delivered within 10 working days and the minimum order is 250 pieces.", r.Response)
	assert.Equal(t, []string{"end_turn", "ok", "anthropic"}, []string{r.StopReason, r.Status, r.Format}, "stop reason, status, format")
	require.Len(t, r.Citations, 2)
	assert.Equal(t, "document_index:0", r.Citations[0].Document)
	assert.Equal(t, []string{"price-list.pdf"}, r.Documents["document_index:1"])
	assert.Equal(t, []citations.Grounding{citations.GroundedUnique, citations.GroundedUnique, citations.GroundedUnique, citations.GroundedUnique, citations.GroundedUnique}, groundings(testIndex(t), recs))
}

func TestAdapterOpenAI(t *testing.T) {
	recs := readFormat(t, "openai")
	c := recs[0].Citations
	assert.Equal(t, "completed", recs[0].StopReason)
	require.Len(t, c, 2)
	assert.Nil(t, c[0].Quote, "a file_citation without a quote")
	assert.Equal(t, "file-2dtbBZdjtDKS8eqWxqbgDi", c[0].Document)
	assert.True(t, c[1].External, "a url_citation is kept as an external source")
	assert.Equal(t, []string{"https://example.com/", "Example"}, []string{c[1].Document, c[1].Title})
	ix := testIndex(t)
	v := ix.Ground(audit.FromRun(c[0]), recs[0].Documents)
	assert.Equal(t, []string{string(citations.GroundedUnverifiable), string(citations.CauseNoQuote), "no quote to verify"}, []string{string(v.Grounding), string(v.Cause), v.Detail},
		"no quote to verify, never a pass")
	if q := recs[1].Citations[0].Quote; assert.NotNil(t, q, "assistants file_citation.quote") {
		assert.Equal(t, "The sample size is 32 parts for batches of up to 500 parts", *q)
	}
	assert.Equal(t, []citations.Grounding{citations.GroundedUnverifiable, citations.GroundedExternal, citations.GroundedUnique}, groundings(ix, recs))
}

func TestAdapterGemini(t *testing.T) {
	recs := readFormat(t, "gemini")
	c := recs[0].Citations
	if len(c) != 1 {
		t.Fatalf("one cited chunk (the second is retrieved, not cited): %+v", c)
	}
	if c[0].Claim != "Invoices are paid within 45 calendar days | paying within 10 calendar days earns a 1.5% discount — an “early-payment” rule." {
		t.Errorf("claims cut by UTF-8 byte offsets: %q", c[0].Claim)
	}
	assert.Equal(t, []citations.Grounding{citations.GroundedUnique}, groundings(testIndex(t), recs))
}

func TestAdapterLMStudio(t *testing.T) {
	recs := readFormat(t, "lmstudio")
	c := recs[0].Citations
	assert.Equal(t, "eosFound", recs[0].StopReason)
	require.Len(t, c, 2)
	assert.Equal(t, "supplier-policy.pdf", c[0].Document)
	assert.Equal(t, ptr(1), c[0].Page)
	assert.Equal(t, []citations.Grounding{citations.GroundedUnique, citations.GroundedWrongPage}, groundings(testIndex(t), recs), "the second quote is on page 1, cited as page 2")
}

func TestAdapterLangChainAndLlamaIndex(t *testing.T) {
	ix := testIndex(t)
	lc := readFormat(t, "langchain")
	assert.Equal(t, []citations.Grounding{citations.GroundedUnique, citations.GroundedUnique, citations.GroundedUnique}, groundings(ix, lc), "langchain")
	assert.Equal(t, ptr("Invoices are paid within 45 calendar days of receipt."), lc[1].Citations[0].Quote, "a bare source id quotes its chunk")
	li := readFormat(t, "llamaindex")
	require.Len(t, li[0].Citations, 2)
	assert.Equal(t, []string{"[1]", "source_nodes[2]"}, []string{li[0].Citations[0].ID, li[0].Citations[1].Document}, "llamaindex citations")
	assert.Equal(t, []citations.Grounding{citations.GroundedUnique, citations.GroundedUnknownDocument}, groundings(ix, li), "llamaindex")
}

func TestDecisionVendorPages(t *testing.T) {
	a := readFormat(t, "anthropic")
	c := a[1].Citations[0]
	if *c.Page != 1 || *c.LastPage != 2 {
		t.Errorf("page_location 1..3 (end exclusive) is pages 1-2: %d-%d", *c.Page, *c.LastPage)
	}
	if a[0].Citations[0].LastPage != nil {
		t.Error("page_location 1..2 is page 1 alone")
	}
	lc := readFormat(t, "langchain")
	if p := lc[0].Citations[0].Page; p == nil || *p != 1 || lc[0].Citations[0].PageLabel != "1" {
		t.Errorf("LangChain page 0 is page 1: %v", p)
	}
	lm := readFormat(t, "lmstudio")
	if *lm[0].Citations[1].Page != 2 {
		t.Error("LM Studio pageNumber is 1-based")
	}
	recs, err := runs.ReadRuns(strings.NewReader(`{"arm": "B", "session": 1, "question": "q", "response": {"role": "assistant", "content": [{"type": "citation", "citedText": "x", "fileName": "a.pdf", "pageNumber": 0}]}}`), "lm.jsonl", "lmstudio")
	if err != nil || recs[0].Citations[0].Page != nil || !strings.Contains(recs[0].Citations[0].Fault, "pageNumber 0") {
		t.Errorf("page 0 from LM Studio is a malformed citation, not guessed: %v %+v", err, recs)
	}
}

func TestDecisionRetrievalIsNotCitation(t *testing.T) {
	g := readFormat(t, "gemini")
	for _, c := range g[0].Citations {
		if c.Document == "fileSearchStores/policies-8k2/documents/price-list-pdf-2y" || c.Document == "price-list.pdf" {
			t.Errorf("an unreferenced chunk became a citation: %+v", c)
		}
	}
	if len(g[0].Retrieval) != 1 || !strings.Contains(string(g[0].Retrieval[0]), `"uri": "fileSearchStores/policies-8k2/documents/price-list-pdf-2y"`) {
		t.Errorf("the unreferenced chunk is kept, verbatim, as retrieval: %s", g[0].Retrieval)
	}
	li := readFormat(t, "llamaindex")
	for _, c := range li[0].Citations {
		if c.Document == "price-list.pdf" {
			t.Errorf("an unmarked source node became a citation: %+v", c)
		}
	}
	if len(li[0].Retrieval) != 1 || !strings.Contains(string(li[0].Retrieval[0]), `"file_name": "price-list.pdf"`) {
		t.Errorf("the unmarked source node is kept, verbatim, as retrieval: %s", li[0].Retrieval)
	}
	if n := len(audit.Run(testIndex(t), li, 0, nil).Entries); n != len(li[0].Citations) {
		t.Errorf("the audit checked %d entries for %d citations: retrieval is not audited", n, len(li[0].Citations))
	}
	lc, err := runs.ReadRuns(strings.NewReader(`{"arm": "D", "session": 1, "question": "q", "response": {"context": [{"page_content": "x", "metadata": {"source": "a.pdf", "page": 0}}], "answer": "a plain answer"}}`), "lc.jsonl", "langchain")
	if err != nil || len(lc[0].Citations) != 0 {
		t.Errorf("a plain LangChain answer emits no citation: %v %+v", err, lc)
	}
}

func TestAdapterInputErrors(t *testing.T) {
	bad := []struct{ format, in, want string }{
		{"anthropic", `{"arm": "B", "session": 1, "question": "q", "response": {"type": "message", "Content": []}}`, `response.Content: unknown key: "Content" is spelled "content"`},
		{"anthropic", `{"arm": "B", "session": 1, "question": "q", "response": {"type": "error"}}`, "response.type"},
		{"anthropic", `{"arm": "B", "session": 1, "question": "q", "response": {"type": "message", "content": [{"type": "text", "text": "x", "citations": [{"type": "char_location", "cited_text": "x"}]}]}}`, "content[0].citations[0].document_index: missing"},
		{"anthropic", `{"arm": "B", "session": 1, "question": "q", "response": {"type": "message", "content": [{"type": "text", "text": "x", "citations": [{"type": "page_location", "cited_text": "x", "document_index": 0, "start_page_number": 2, "end_page_number": 2}]}]}}`, "start_page_number < end_page_number"},
		{"openai", `{"arm": "B", "session": 1, "question": "q", "response": {"object": "chat.completion"}}`, "response.object"},
		{"gemini", `{"arm": "B", "session": 1, "question": "q", "response": {"candidates": [{"content": {"parts": [{"text": "x"}]}, "groundingMetadata": {"groundingChunks": [], "groundingSupports": [{"segment": {"startIndex": 0, "endIndex": 1}, "groundingChunkIndices": [-1]}]}}]}}`, "groundingChunkIndices[0]: invalid value: chunk index -1"},
		{"gemini", `{"arm": "B", "session": 1, "question": "q", "response": {"candidates": [{"content": {"parts": [{"text": "x"}]}, "finishReason": "STOP", "finish_reason": "STOP"}]}}`, "candidates[0].finish_reason: duplicate key"},
		{"langchain", `{"arm": "B", "session": 1, "question": "q", "response": {"context": [], "answer": {"answer": "x", "citations": [{"source_id": "first"}]}}}`, "answer.citations[0].source_id: invalid value"},
		{"langchain", `{"arm": "B", "session": 1, "question": "q", "response": {"context": [], "answer": {"answer": "x", "citations": [{"quote": "x"}]}}}`, "source_id: missing"},
		{"openai", `{"arm": "B", "session": 1, "question": "q"}`, "response: missing"},
		{"openai", `{"arm": "B", "session": 1, "question": "q", "response": {"object": "response"}, "extra": 1}`, "extra: unknown key"},
		{"bogus", `{}`, "format"},
	}
	for _, tc := range bad {
		_, err := runs.ReadRuns(strings.NewReader(tc.in), "n.jsonl", tc.format)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: %v (want %q)", tc.format, tc.in, err, tc.want)
		}
	}
}
