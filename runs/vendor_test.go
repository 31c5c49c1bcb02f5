package runs_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/audit"
	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/internal/strictjson"
	"github.com/citecheck/citecheck/runs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The adapters against the shapes vendors really emit: each test pins one
// way a vendor's shape could be misread, with a reason per case.

// readEnvelope reads one envelope around response in format; docs is the
// envelope's documents value or "".
func readEnvelope(format, docs, response string) ([]runs.Record, error) {
	line := `{"arm": "A", "session": 1, "question": "q"`
	if docs != "" {
		line += `, "documents": ` + docs
	}
	line += `, "response": ` + response + "}\n"
	return runs.ReadRuns(strings.NewReader(line), "v.jsonl", format)
}

func mustRead(t *testing.T, format, docs, response string) runs.Record {
	t.Helper()
	recs, err := readEnvelope(format, docs, response)
	require.NoError(t, err)
	require.Len(t, recs, 1)
	return recs[0]
}

// gemini builds a Gemini response from one part's text, its chunks and
// supports (JSON lists, camelCase).
func gemini(part, chunks, supports string) string {
	return `{"candidates": [{"content": {"parts": [{"text": ` + jsonString(part) + `}], "role": "model"}, "finishReason": "STOP", ` +
		`"groundingMetadata": {"groundingChunks": ` + chunks + `, "groundingSupports": ` + supports + `}}]}`
}

func jsonString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func quoteOf(c runs.Citation) string {
	if c.Quote == nil {
		return "<nil>"
	}
	return *c.Quote
}

func pageOf(c runs.Citation) [2]int {
	var p [2]int
	if c.Page != nil {
		p[0] = *c.Page
	}
	if c.LastPage != nil {
		p[1] = *c.LastPage
	}
	return p
}

// Problem 1: vendor framing is not part of a quote, and the page a marker
// names is kept.
func TestQuoteFraming(t *testing.T) {
	support := `[{"segment": {"endIndex": 6, "text": "Answer"}, "groundingChunkIndices": [0]}]`
	cases := []struct {
		name, format, response string
		quote                  string
		page                   [2]int
		why                    string
	}{
		{"File Search page marker", "gemini",
			gemini("Answer", `[{"retrievedContext": {"title": "t.pdf", "text": "--- PAGE 1 ---\n\nThe Answer is 42.\n"}}]`, support),
			"The Answer is 42.", [2]int{1, 0}, "the marker is File Search's, not the PDF's; it names page 1"},
		{"a chunk across two page markers", "gemini",
			gemini("Answer", `[{"retrievedContext": {"title": "t.pdf", "text": "--- PAGE 2 ---\n\nEnd of two.\n\n--- PAGE 3 ---\n\nStart of three.\n"}}]`, support),
			"End of two.\nStart of three.", [2]int{2, 3}, "every marker goes; the chunk runs from page 2 to page 3"},
		{"a chunk that starts before its first marker", "gemini",
			gemini("Answer", `[{"retrievedContext": {"title": "t.pdf", "text": "tail of three.\n\n--- PAGE 4 ---\n\nhead of four."}}]`, support),
			"tail of three.\nhead of four.", [2]int{3, 4}, "text before the first marker is on the page before it"},
		{"pageNumber wins over a marker", "gemini",
			gemini("Answer", `[{"retrievedContext": {"title": "t.pdf", "text": "--- PAGE 1 ---\n\nx y z", "pageNumber": 5}}]`, support),
			"x y z", [2]int{5, 0}, "the API's own page field is the page; the marker is still not quoted"},
		{"LlamaIndex source prefix", "llamaindex",
			`{"response": "It is 42 [1].", "source_nodes": [{"node": {"text": "Source 12:\nThe Answer is 42.", "metadata": {"file_name": "t.pdf"}}}]}`,
			"The Answer is 42.", [2]int{}, "CitationQueryEngine prefixes every node with \"Source N:\""},
	}
	for _, c := range cases {
		r := mustRead(t, c.format, "", c.response)
		require.Len(t, r.Citations, 1, c.name)
		assert.Equal(t, c.quote, quoteOf(r.Citations[0]), "%s: %s", c.name, c.why)
		assert.Equal(t, c.page, pageOf(r.Citations[0]), "%s: %s", c.name, c.why)
	}
}

// Problem 2: every spelling an SDK writes is read; a record that shows
// signs of citing but yields nothing is reported, never passed over.
func TestNoCitationSilentlyLost(t *testing.T) {
	snake := `{"candidates": [{"content": {"parts": [{"text": "Invoices are paid within 45 calendar days."}]}, "finish_reason": "STOP", ` +
		`"grounding_metadata": {"grounding_chunks": [{"retrieved_context": {"uri": "gs://b/supplier-policy.pdf", "title": "supplier-policy.pdf", "text": "Invoices are paid within 45 calendar days of receipt."}}], ` +
		`"grounding_supports": [{"segment": {"start_index": 0, "end_index": 42, "text": "Invoices are paid within 45 calendar days."}, "grounding_chunk_indices": [0]}]}}]}`
	r := mustRead(t, "gemini", "", snake)
	require.Len(t, r.Citations, 1, "google-genai's model_dump() keys")
	assert.Equal(t, "supplier-policy.pdf", r.Citations[0].Document)
	assert.Equal(t, "Invoices are paid within 45 calendar days.", r.Citations[0].Claim)
	assert.Equal(t, "STOP", r.StopReason)

	// Both spellings of one key in one object: refused, never one picked.
	both := []struct{ name, response, field string }{
		{"grounding metadata", strings.Replace(snake, `"grounding_metadata"`, `"groundingMetadata": null, "grounding_metadata"`, 1),
			"response.candidates[0].grounding_metadata"},
		{"segment start", strings.Replace(snake, `"start_index": 0`, `"start_index": 0, "startIndex": 0`, 1),
			"response.candidates[0].grounding_metadata.grounding_supports[0].segment.startIndex"},
	}
	for _, b := range both {
		_, err := readEnvelope("gemini", "", b.response)
		require.Error(t, err, b.name)
		assert.ErrorIs(t, err, strictjson.ErrDuplicateKey, b.name)
		assert.Contains(t, err.Error(), b.field, b.name)
	}

	xml := `{"cited_answer": [{"answer": "45 calendar days."}, {"citations": [{"citation": [{"source_id": "0"}, {"quote": "Invoices are paid within 45 calendar days of receipt."}]}]}]}`
	r = mustRead(t, "langchain", "", `{"context": [{"page_content": "Invoices are paid within 45 calendar days of receipt.", "metadata": {"source": "/d/supplier-policy.pdf", "page": 1}}], "answer": `+xml+`}`)
	require.Len(t, r.Citations, 1, "XMLOutputParser output inside the chain's answer")
	assert.Equal(t, "supplier-policy.pdf", r.Citations[0].Document)
	assert.Equal(t, "45 calendar days.", r.Response)
	r = mustRead(t, "langchain", "", xml)
	require.Len(t, r.Citations, 1, "the parser's output alone: a source id with no context")
	assert.Equal(t, "context[0]", r.Citations[0].Document)

	r = mustRead(t, "lmstudio", "", `{"role": "assistant", "content": [{"type": "text", "text": "x"}, `+
		`{"type": "citationBlock.create", "id": "c-0", "citedText": "Invoices are paid within 45 calendar days of receipt.", "fileName": "supplier-policy.pdf", "fileIdentifier": "f-1", "pageNumber": 2}]}`)
	require.Len(t, r.Citations, 1, "lmstudio-js's citationBlock.create among the content blocks")
	assert.Equal(t, "supplier-policy.pdf", r.Citations[0].Document)

	r = mustRead(t, "openai", "", `{"object": "response", "status": "completed", "output": [{"type": "message", "content": [{"type": "output_text", "text": "See x.", `+
		`"annotations": [{"type": "url_citation", "start_index": 0, "end_index": 5, "url": "https://example.com/x", "title": "X"}]}]}]}`)
	require.Len(t, r.Citations, 1, "a url_citation is a citation")
	assert.True(t, r.Citations[0].External)

	unread := []struct {
		name, format, response, has string
	}{
		{"markers but no annotation", "openai",
			`{"object": "thread.message", "content": [{"type": "text", "text": {"value": "32 parts【4:0†source】.", "annotations": []}}]}`,
			"the answer has citation markers (【4:0†source】)"},
		{"numbered markers, nothing cited", "anthropic",
			`{"type": "message", "content": [{"type": "text", "text": "Within 10 working days [1][2]."}]}`,
			"the answer has citation markers ([1], [2])"},
		{"a citation key the adapter does not read", "langchain",
			`{"answer": {"answer": "45 days.", "cited_sources": [{"id": 0}]}}`,
			"answer.cited_sources"},
		{"an Anthropic citation type the adapter does not know", "anthropic",
			`{"type": "message", "content": [{"type": "text", "text": "x", "citations": [{"type": "map_location", "cited_text": "x"}]}]}`,
			"content[0].citations[0]: citation type \"map_location\" is not read"},
	}
	for _, u := range unread {
		r := mustRead(t, u.format, "", u.response)
		assert.Contains(t, strings.Join(r.Unread, "; "), u.has, u.name)
	}
	// What is not a marker.
	r = mustRead(t, "anthropic", "", `{"type": "message", "content": [{"type": "text", "text": "Read parts[0] and x[2]."}]}`)
	assert.Empty(t, r.Unread, "an index is not a citation marker")

	// The audit says so per line, and is not clean.
	recs, err := readEnvelope("anthropic", "", unread[1].response)
	require.NoError(t, err)
	rep := audit.Run(testIndex(t), recs, 0, nil)
	require.Len(t, rep.Unread, 1)
	assert.Equal(t, 1, rep.Unread[0].Line)
	assert.True(t, rep.Unread[0].NoCitations)
	assert.False(t, rep.Clean(), "no citations read is never clean")
	assert.Equal(t, 1, rep.Totals[len(rep.Totals)-1].Unread)
}

// Problem 3: the retrieved text a Responses payload carries is the quote,
// marked as such; never the model's own words.
func TestOpenAIRetrievalQuote(t *testing.T) {
	resp := `{"object": "response", "status": "completed", "output": [` +
		`{"type": "file_search_call", "status": "completed", "results": [` +
		`{"file_id": "file-A", "filename": "supplier-policy.pdf", "score": 0.41, "text": "Minimum order: 250 pieces"}, ` +
		`{"file_id": "file-A", "filename": "supplier-policy.pdf", "score": 0.93, "text": "Invoices are paid within 45 calendar days of receipt."}]}, ` +
		`{"type": "message", "content": [{"type": "output_text", "text": "45 calendar days.", "annotations": [` +
		`{"type": "file_citation", "index": 17, "file_id": "file-A", "filename": "supplier-policy.pdf"}, ` +
		`{"type": "file_citation", "index": 17, "file_id": "file-B", "filename": "price-list.pdf"}]}]}]}`
	r := mustRead(t, "openai", "", resp)
	require.Len(t, r.Citations, 2)
	assert.Equal(t, "Invoices are paid within 45 calendar days of receipt.", quoteOf(r.Citations[0]), "the best-scored result of the cited file")
	assert.Equal(t, runs.QuoteFromRetrieval, r.Citations[0].QuoteFrom)
	assert.Nil(t, r.Citations[1].Quote, "no result for file-B: no quote, never the answer's text")
	assert.Empty(t, r.Citations[1].QuoteFrom)
	g := testIndex(t).Ground(audit.FromRun(r.Citations[0]), r.Documents)
	assert.Equal(t, citations.GroundedUnique, g.Grounding)

	a := mustRead(t, "openai", "", `{"object": "thread.message", "content": [{"type": "text", "text": {"value": "x", "annotations": [`+
		`{"type": "file_citation", "text": "x", "file_citation": {"file_id": "supplier-policy.pdf", "quote": "Minimum order"}}]}}]}`)
	assert.Empty(t, a.Citations[0].QuoteFrom, "an Assistants quote is the citation's own")
}

// Problem 4: web and other non-corpus sources get one treatment in every
// adapter: kept, external, never a file-level error.
func TestExternalSources(t *testing.T) {
	cases := []struct {
		name, format, docs, response string
		document                     string
		why                          string
	}{
		{"Anthropic web search", "anthropic", `["supplier-policy.pdf"]`,
			`{"type": "message", "content": [{"type": "text", "text": "x", "citations": [{"type": "web_search_result_location", "cited_text": "Example text", "url": "https://example.com/a", "title": "A", "encrypted_index": "Eo8"}]}]}`,
			"https://example.com/a", "it used to refuse the whole file"},
		{"Gemini web chunk", "gemini", "",
			gemini("Answer", `[{"web": {"uri": "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC", "title": "example.com"}}]`,
				`[{"segment": {"endIndex": 6, "text": "Answer"}, "groundingChunkIndices": [0]}]`),
			"https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC", "it used to be an unknown document named by a domain"},
		{"OpenAI url_citation", "openai", "",
			`{"object": "response", "output": [{"type": "message", "content": [{"type": "output_text", "text": "x", "annotations": [{"type": "url_citation", "start_index": 0, "end_index": 1, "url": "https://example.com/b", "title": "B"}]}]}]}`,
			"https://example.com/b", "it used to disappear"},
		{"LangChain web document", "langchain", "",
			`{"context": [{"page_content": "Cheetahs run fast.", "metadata": {"source": "https://en.wikipedia.org/wiki/Cheetah"}}], "answer": {"answer": "fast", "citations": [0]}}`,
			"https://en.wikipedia.org/wiki/Cheetah", "a web page the run does not map to a corpus document"},
	}
	ix := testIndex(t)
	for _, c := range cases {
		r := mustRead(t, c.format, c.docs, c.response)
		require.Len(t, r.Citations, 1, c.name)
		rc := r.Citations[0]
		assert.True(t, rc.External, "%s: %s", c.name, c.why)
		assert.Equal(t, c.document, rc.Document, c.name)
		g := ix.Ground(audit.FromRun(rc), r.Documents)
		assert.Equal(t, citations.GroundedExternal, g.Grounding, c.name)
		assert.Contains(t, g.Detail, "outside the corpus", c.name)
		rep := audit.Run(ix, []runs.Record{r}, 0, nil)
		assert.Equal(t, 1, rep.Totals[len(rep.Totals)-1].External, "%s: counted apart", c.name)
	}
}

// Problem 5: Anthropic's document_title, when it names a corpus document,
// wins over an envelope's documents list that disagrees, and the
// disagreement is reported.
func TestAnthropicDocumentTitle(t *testing.T) {
	msg := func(title string) string {
		return `{"type": "message", "content": [{"type": "text", "text": "x", "citations": [{"type": "char_location", ` +
			`"cited_text": "Invoices are paid within 45 calendar days of receipt.", "document_index": 0, "document_title": ` + title + `}]}]}`
	}
	ix := testIndex(t)
	cases := []struct {
		name, title string
		grounding   citations.Grounding
		note        string
		why         string
	}{
		{"title names the cited document", `"supplier-policy.pdf"`, citations.GroundedUnique,
			`title "supplier-policy.pdf" names supplier-policy.pdf, document_index:0 names price-list.pdf: the title is used`,
			"an out-of-order documents list is the capture's mistake, not the model's"},
		{"title is a human title", `"Supplier policy"`, citations.GroundedWrongDocument, "",
			"a title that names no corpus document cannot correct the list"},
		{"no title", `null`, citations.GroundedWrongDocument, "", "document_index alone"},
		{"title agrees", `"price-list.pdf"`, citations.GroundedWrongDocument, "", "both say price-list.pdf: the quote is elsewhere"},
	}
	for _, c := range cases {
		r := mustRead(t, "anthropic", `["price-list.pdf", "supplier-policy.pdf"]`, msg(c.title))
		g := ix.Ground(audit.FromRun(r.Citations[0]), r.Documents)
		assert.Equal(t, c.grounding, g.Grounding, "%s: %s", c.name, c.why)
		assert.Equal(t, c.note, g.Note, c.name)
	}
	r := mustRead(t, "anthropic", `["price-list.pdf", "supplier-policy.pdf"]`, msg(`"supplier-policy.pdf"`))
	rep := audit.Run(ix, []runs.Record{r}, 0, nil)
	assert.Contains(t, rep.Entries[0].Note, "the title is used", "the audit reports the disagreement")
}

// Problem 6: a page range from LM Studio and a support into an empty
// chunk list are per-citation facts, never a refused file.
func TestPerCitationOutcomes(t *testing.T) {
	r := mustRead(t, "lmstudio", "", `{"role": "assistant", "content": [{"type": "text", "text": "x"}, `+
		`{"type": "citation", "citedText": "Invoices are paid within 45 calendar days of receipt.", "fileName": "supplier-policy.pdf", "pageNumber": [1, 2]}]}`)
	require.Len(t, r.Citations, 1)
	assert.Equal(t, [2]int{1, 2}, pageOf(r.Citations[0]), "lmstudio-js: pageNumber?: number | [start, end]")
	assert.Equal(t, citations.GroundedUnique, testIndex(t).Ground(audit.FromRun(r.Citations[0]), nil).Grounding, "the quote is on page 2, inside 1-2")
	r = mustRead(t, "lmstudio", "", `{"role": "assistant", "content": [{"type": "citation", "citedText": "x", "fileName": "a.pdf", "pageNumber": [2, 1]}]}`)
	assert.Contains(t, r.Citations[0].Fault, "pageNumber [2,1]", "a range that ends before it starts is a malformed citation, the record read")

	r = mustRead(t, "gemini", "", gemini("Answer", `[]`, `[{"segment": {"endIndex": 6, "text": "Answer"}, "groundingChunkIndices": [3]}]`))
	require.Len(t, r.Citations, 1, "a support into an empty groundingChunks (a condition users report)")
	assert.Equal(t, "groundingChunks[3]", r.Citations[0].Document)
	assert.Equal(t, "Answer", r.Citations[0].Claim)
	assert.Nil(t, r.Citations[0].Quote)
	assert.Equal(t, citations.GroundedUnknownDocument, testIndex(t).Ground(audit.FromRun(r.Citations[0]), nil).Grounding)
}

// Problem 7: a format whose page base is its contract reports a page one
// off as wrong_page; page_convention stays for formats whose base is
// unknown. The quote is on page 2; each citation says page 1.
func TestPageBase(t *testing.T) {
	quote := "Invoices are paid within 45 calendar days of receipt."
	cases := []struct {
		name, format, response string
		want                   citations.Grounding
		why                    string
	}{
		{"Anthropic page_location", "anthropic",
			`{"type": "message", "content": [{"type": "text", "text": "x", "citations": [{"type": "page_location", "cited_text": ` + jsonString(quote) +
				`, "document_index": 0, "start_page_number": 1, "end_page_number": 2}]}]}`,
			citations.GroundedWrongPage, "page_location pages are 1-based by contract"},
		{"Gemini pageNumber", "gemini",
			gemini("Answer", `[{"retrievedContext": {"title": "supplier-policy.pdf", "text": `+jsonString(quote)+`, "pageNumber": 1}}]`,
				`[{"segment": {"endIndex": 6, "text": "Answer"}, "groundingChunkIndices": [0]}]`),
			citations.GroundedWrongPage, "pageNumber is 1-based by contract"},
		{"Gemini page marker", "gemini",
			gemini("Answer", `[{"retrievedContext": {"title": "supplier-policy.pdf", "text": `+jsonString("--- PAGE 1 ---\n\n"+quote)+`}}]`,
				`[{"segment": {"endIndex": 6, "text": "Answer"}, "groundingChunkIndices": [0]}]`),
			citations.GroundedWrongPage, "File Search numbers pages from 1"},
		{"LM Studio pageNumber", "lmstudio",
			`{"role": "assistant", "content": [{"type": "citation", "citedText": ` + jsonString(quote) + `, "fileName": "supplier-policy.pdf", "pageNumber": 1}]}`,
			citations.GroundedPageConvention, "no published contract: a 0-based page is reported as such"},
	}
	ix := testIndex(t)
	for _, c := range cases {
		r := mustRead(t, c.format, `["supplier-policy.pdf"]`, c.response)
		require.Len(t, r.Citations, 1, c.name)
		g := ix.Ground(audit.FromRun(r.Citations[0]), r.Documents)
		assert.Equal(t, c.want, g.Grounding, "%s: %s (%s)", c.name, c.why, g.Detail)
	}
}

// Problem 8: native is the vendor's bytes; Vertex's ragChunk is read and a
// title preferred over a gs:// URI; LlamaIndex counts its own markers only.
func TestGeminiNativeAndVertex(t *testing.T) {
	chunk := `{"retrievedContext": {"title": "supplier-policy.pdf", "text": "Invoices are paid within 45 calendar days of receipt.", "fileSearchStore": "fileSearchStores/s-1"}}`
	support := `{"segment": {"endIndex": 6, "text": "Answer"}, "groundingChunkIndices": [0], "confidenceScores": [0.93]}`
	r := mustRead(t, "gemini", "", gemini("Answer", "["+chunk+"]", "["+support+"]"))
	native := string(r.Citations[0].Native)
	assert.Contains(t, native, chunk, "the chunk's bytes, verbatim")
	assert.Contains(t, native, support, "the support's bytes, verbatim")
	assert.NotContains(t, native, `"uri": ""`, "nothing the vendor did not write")
	assert.NotContains(t, native, `"pageNumber": null`)

	rag := `{"retrievedContext": {"uri": "gs://bucket/corpus/supplier-policy.pdf", "title": "supplier-policy.pdf", ` +
		`"ragChunk": {"text": "Invoices are paid within 45 calendar days of receipt.", "pageSpan": {"firstPage": 2, "lastPage": 2}}}}`
	r = mustRead(t, "gemini", "", gemini("Answer", "["+rag+"]", `[{"segment": {"endIndex": 6, "text": "Answer"}, "groundingChunkIndices": [0]}]`))
	c := r.Citations[0]
	assert.Equal(t, "supplier-policy.pdf", c.Document, "the title, not the gs:// URI")
	assert.Equal(t, "Invoices are paid within 45 calendar days of receipt.", quoteOf(c), "ragChunk.text")
	assert.Equal(t, [2]int{2, 0}, pageOf(c), "ragChunk.pageSpan, 1-based inclusive")
	assert.True(t, c.PagePhysical)
	assert.Equal(t, citations.GroundedUnique, testIndex(t).Ground(audit.FromRun(c), nil).Grounding)
	r = mustRead(t, "gemini", `{"gs://bucket/corpus/supplier-policy.pdf": "supplier-policy.pdf"}`,
		gemini("Answer", "["+strings.Replace(rag, `"title": "supplier-policy.pdf"`, `"title": "Supplier policy"`, 1)+"]",
			`[{"segment": {"endIndex": 6, "text": "Answer"}, "groundingChunkIndices": [0]}]`))
	assert.Equal(t, "gs://bucket/corpus/supplier-policy.pdf", r.Citations[0].Document, "a URI the run maps is used")
}

func TestLlamaIndexMarkers(t *testing.T) {
	nodes := `"source_nodes": [{"node": {"text": "Source 1:\nOne.", "metadata": {"file_name": "a.pdf"}}}, {"node": {"text": "Source 2:\nTwo.", "metadata": {"file_name": "b.pdf"}}}]`
	cases := []struct {
		answer string
		want   []string
		why    string
	}{
		{"Call parts[0] and then see [1].", []string{"[1]"}, "an index into a list is not a citation"},
		{"See x[2][1] here.", nil, "an index chain after a name is code"},
		{"Both [1][2].", []string{"[1]", "[2]"}, "adjacent markers"},
		{"Both [1, 2].", []string{"[1]", "[2]"}, "a marker listing two sources"},
		{"(see [2]) and [1].", []string{"[2]", "[1]"}, "markers after punctuation, in order of first use"},
	}
	for _, c := range cases {
		r := mustRead(t, "llamaindex", "", `{"response": `+jsonString(c.answer)+`, `+nodes+`}`)
		var ids []string
		for _, rc := range r.Citations {
			ids = append(ids, rc.ID)
		}
		assert.Equal(t, c.want, ids, "%q: %s", c.answer, c.why)
	}
}

// TestVendorInputErrors: what is still refused, and where.
func TestVendorInputErrors(t *testing.T) {
	_, err := readEnvelope("gemini", "", `{"candidates": [{"content": {"parts": [{"text": 1}]}}]}`)
	var ie *runs.InputError
	require.True(t, errors.As(err, &ie))
	assert.Equal(t, "response.candidates[0].content.parts[0].text", ie.Field)
	assert.ErrorIs(t, err, strictjson.ErrValue)
}
