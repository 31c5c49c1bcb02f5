package runs_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Payloads an adversarial review found read wrongly without an error,
// each pinned as it is read now.

// A CJK answer puts no space before a marker: "工作日[1]。" is a citation,
// not an index like "parts[0]" (it vanished with no unread note).
func TestAdapterLlamaIndexCJKMarkerDropped(t *testing.T) {
	rec := mustRead(t, "llamaindex", "", `{"response": "交付期限为10个工作日[1]。", "source_nodes": [{"node": {"metadata": {"file_name": "supplier-policy.pdf"}, "text": "Source 1:\nOrders must be delivered"}, "score": 0.8}]}`)
	assert.True(t, len(rec.Citations) == 1 || len(rec.Unread) > 0, "citation dropped silently: citations=%v unread=%v", rec.Citations, rec.Unread)
}

// An envelope's documents object maps a vendor path to a corpus name
// (formats.md Envelopes: "an object from the vendor's file id, title or
// path"): LlamaIndex's file_path is looked up there too (it cited the
// path's base name).
func TestAdapterLlamaIndexFilePathMappingIgnored(t *testing.T) {
	rec := mustRead(t, "llamaindex", `{"/data/x/policy-v2.pdf": "supplier-policy.pdf"}`, `{"response": "10 days [1].", "source_nodes": [{"node": {"metadata": {"file_path": "/data/x/policy-v2.pdf"}, "text": "Orders must be delivered"}, "score": 0.8}]}`)
	require.Len(t, rec.Citations, 1)
	assert.Contains(t, rec.Documents, rec.Citations[0].Document, "document %q bypasses the run's mapping", rec.Citations[0].Document)
}

// Gemini 2.5 with includeThoughts returns thought-summary parts
// ("thought": true): they are reasoning, not the answer (they were joined
// into it).
func TestAdapterGeminiThoughtPartsInAnswer(t *testing.T) {
	rec := mustRead(t, "gemini", "", `{"candidates": [{"content": {"parts": [{"text": "**Looking up deadline** I should search the policy.", "thought": true}, {"text": "Delivery deadline: 10 working days"}], "role": "model"}, "finishReason": "STOP", "groundingMetadata": {"groundingChunks": [{"retrievedContext": {"title": "supplier-policy.pdf", "text": "Orders must be delivered within 10 working days"}}], "groundingSupports": [{"segment": {"partIndex": 1, "startIndex": 19, "endIndex": 34, "text": "10 working days"}, "groundingChunkIndices": [0]}]}}]}`)
	assert.Equal(t, "Delivery deadline: 10 working days", rec.Response)
}

// formats.md "Citations, never retrieval": what the vendor retrieved
// without citing goes verbatim to the record's retrieval: OpenAI's
// uncited file_search results (they were dropped).
func TestAdapterOpenAIUncitedResultsDropped(t *testing.T) {
	rec := mustRead(t, "openai", `{"file-A": "supplier-policy.pdf", "file-B": "price-list.pdf"}`, `{"object": "response", "status": "completed", "output": [{"type": "file_search_call", "results": [{"file_id": "file-A", "filename": "a.pdf", "score": 0.9, "text": "Orders must be delivered"}, {"file_id": "file-B", "filename": "b.pdf", "score": 0.8, "text": "Prices"}]}, {"type": "message", "content": [{"type": "output_text", "text": "10 days", "annotations": [{"type": "file_citation", "index": 7, "file_id": "file-A", "filename": "a.pdf"}]}]}]}`)
	require.Len(t, rec.Citations, 1)
	assert.NotEmpty(t, rec.Retrieval, "the uncited result of file-B is lost")
}

// Same rule, LangChain: an uncited context Document.
func TestAdapterLangChainUncitedContextDropped(t *testing.T) {
	rec := mustRead(t, "langchain", "", `{"context": [{"metadata": {"source": "/d/supplier-policy.pdf", "page": 0}, "page_content": "Orders must be delivered"}, {"metadata": {"source": "/d/price-list.pdf", "page": 0}, "page_content": "Prices"}], "answer": {"answer": "10 days", "citations": [{"source_id": 0, "quote": "Orders"}]}}`)
	require.Len(t, rec.Citations, 1)
	assert.NotEmpty(t, rec.Retrieval, "the uncited context[1] is lost")
}

// A Document without source or file_path names no document: the citation
// is malformed ("it names no document"); it cited the document ".".
func TestAdapterLangChainNoSourceCitesDot(t *testing.T) {
	rec := mustRead(t, "langchain", "", `{"context": [{"metadata": {"page": 0}, "page_content": "Orders must be delivered"}], "answer": {"answer": "10 days", "citations": [0]}}`)
	require.Len(t, rec.Citations, 1)
	assert.NotEqual(t, ".", rec.Citations[0].Document)
	assert.NotEmpty(t, rec.Citations[0].Fault, "should be graded malformed_citation")
}

// Keys the vendor's users choose (a tool's input, a file's attributes) are
// not keys citecheck reads: a case variant of one ("URL") is no misspelt
// key (such valid responses were refused).
func TestAdapterUserKeysRefused(t *testing.T) {
	_, err := readEnvelope("anthropic", `["supplier-policy.pdf"]`, `{"type": "message", "role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "fetch", "input": {"URL": "https://x"}}, {"type": "text", "text": "10 days", "citations": [{"type": "page_location", "cited_text": "Orders", "document_index": 0, "document_title": "supplier-policy.pdf", "start_page_number": 1, "end_page_number": 2}]}], "stop_reason": "end_turn"}`)
	assert.NoError(t, err)
	_, err = readEnvelope("openai", `{"file-A": "supplier-policy.pdf"}`, `{"object": "response", "status": "completed", "output": [{"type": "file_search_call", "results": [{"file_id": "file-A", "filename": "a.pdf", "score": 0.9, "text": "Orders", "attributes": {"Title": "Supplier policy"}}]}, {"type": "message", "content": [{"type": "output_text", "text": "10 days", "annotations": [{"type": "file_citation", "index": 7, "file_id": "file-A", "filename": "a.pdf"}]}]}]}`)
	assert.NoError(t, err)
}

// A null in an envelope's documents list is refused, naming documents[0],
// as a run record's mapping refuses it (it was read as the name "").
func TestAdapterEnvelopeDocumentsListNull(t *testing.T) {
	_, err := readEnvelope("anthropic", `[null, "supplier-policy.pdf"]`, `{"type": "message", "role": "assistant", "content": [{"type": "text", "text": "10 days", "citations": [{"type": "char_location", "cited_text": "Orders", "document_index": 0, "document_title": "price-list.pdf", "start_char_index": 0, "end_char_index": 6}]}], "stop_reason": "end_turn"}`)
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "documents"), "%v", err)
}

// A File Search chunk that ends on a page marker ("--- PAGE 2 ---" with
// no text after it) holds text of page 1 only (it was read as pages 1-2).
func TestAdapterGeminiTrailingPageMarker(t *testing.T) {
	rec := mustRead(t, "gemini", "", `{"candidates": [{"content": {"parts": [{"text": "10 days"}]}, "groundingMetadata": {"groundingChunks": [{"retrievedContext": {"title": "supplier-policy.pdf", "text": "--- PAGE 1 ---\nOrders must be delivered\n--- PAGE 2 ---\n"}}], "groundingSupports": [{"segment": {"startIndex": 0, "endIndex": 7, "text": "10 days"}, "groundingChunkIndices": [0]}]}}]}`)
	require.Len(t, rec.Citations, 1)
	assert.Nil(t, rec.Citations[0].LastPage)
}
