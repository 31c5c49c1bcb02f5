// Package runs reads what an AI system answered: run records (Record)
// and the six vendors' native responses in their envelopes (Anthropic,
// OpenAI, Gemini, LM Studio, LangChain, LlamaIndex), each turned into run
// records by its adapter (ReadRuns, EachRun; FormatAuto tells a file's
// format by the shape of its first record, DetectFormat).
//
// Reading is strict: unknown, duplicate or case-variant keys, a missing
// required key, invalid UTF-8, a line longer than MaxLineBytes and values
// out of range are InputErrors naming file, line and JSON path, an input
// fault (inputerr.ErrInput) wrapping the strict-JSON layer's sentinel of
// the fault (internal/strictjson: ErrUnknownKey, ErrDuplicateKey,
// ErrMissing, ErrValue, ErrTooLarge or ErrInvalidUTF8), the one each reader
// of the module wraps. A record is kept as read; nothing here opens a
// corpus or looks a quote up: package citations grounds the citations read.
//
// An adapter keeps the vendor's citation objects verbatim (Native) and
// never trusts their offsets; what it leaves unread although it looks
// like citations is noted on the record (Record.Unread).
//
// # Input formats
//
// A run record (Record, one JSON Lines record; ReadRecords) holds
// arm, session, question, status, response and citations (required), and
// optionally stop_reason, fields, timing, format, documents and retrieval.
// documents maps how a citation names a document to a corpus name or
// "blake3:" hash, or to a non-empty list of candidate names (Mapping): a
// one-name list is the name, and two or more candidates in the corpus make
// the cited document an ambiguous mapping. retrieval is a list of native
// retrieval cards, JSON objects kept verbatim and written back with the
// record, never read as citations. A line longer than MaxLineBytes (8 MiB)
// is refused before it is decoded.
//
// ReadRuns and EachRun read run records or, with a vendor's format, one
// envelope per line around that vendor's response; with FormatAuto they
// tell a file's format by its first record (DetectFormat) and refuse an
// unclear shape with an error naming the format it looks like. Every
// format is described in docs/formats.md, with JSON Schemas under
// docs/schema; the adapters are tested on payloads the vendors and their
// SDKs published (testdata/adapters, TestRealPayloads).
//
// # Ambiguities decided, each pinned by a test named after it
//
//   - TestDecisionVendorPages: LangChain's 0-based metadata.page becomes
//     page+1; Anthropic's end_page_number (exclusive) becomes LastPage
//     (inclusive); LM Studio's pageNumber is read as 1-based.
//   - TestPageBase: a format whose pages are 1-based physical pages by
//     contract (Anthropic page_location, Gemini pageNumber, Vertex
//     pageSpan, File Search page markers) reports a page one off as
//     wrong_page; page_convention stays for formats whose base is unknown.
//   - TestQuoteFraming: vendor framing is not part of a quote (File
//     Search's "--- PAGE n ---" lines, LlamaIndex's "Source n:"); the page a
//     marker names is kept, text before the first marker is on the page
//     before it.
//   - TestNoCitationSilentlyLost: both spellings a vendor's SDKs write are
//     read (Gemini camelCase and snake_case; both in one object is a
//     duplicate key); a record with citation markers of which no citation
//     was read, or a citation-like key of an unknown shape, is noted in
//     Record.Unread and the audit (package audit) is not clean.
//   - TestExternalSources: web pages (Anthropic web_search_result_location,
//     OpenAI url_citation, Gemini web chunks, an unmapped LangChain web
//     source) are external citations, never a refused file.
//   - TestOpenAIRetrievalQuote: the best-scored file_search_call result of
//     the cited file is a Responses citation's quote (QuoteFromRetrieval).
//   - TestAnthropicDocumentTitle: a document_title that names a corpus
//     document wins over a documents list that names another.
//   - TestLlamaIndexMarkers: a citation marker follows white space or
//     punctuation; "parts[0]" is an index.
//   - TestDecisionRetrievalIsNotCitation: Gemini chunks no support references
//     and LlamaIndex source nodes the answer does not mark with [n] are
//     retrieval results, not citations ("Native retrieval cards alone are not
//     answer citations"): the adapters keep them, verbatim, in the record's
//     retrieval, which nothing locates or grades.
package runs
