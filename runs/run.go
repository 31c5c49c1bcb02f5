package runs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/citecheck/citecheck/internal/strictjson"
)

// Record is one attempt of a run, one JSON Lines record:
//
//	{"arm": "A", "session": 1, "question": "q01", "status": "ok",
//	 "stop_reason": "eos", "response": "...", "fields": {"limit": "..."},
//	 "citations": [{"id": "c1", "document": "policy.pdf", "page": 2, "quote": "..."}],
//	 "retrieval": [{"title": "policy.pdf", "text": "...", "score": 0.82}],
//	 "documents": {"file-abc": "policy.pdf", "file-2": ["sop.pdf", "prices.pdf"]},
//	 "timing": {"retrieval_ms": 12.5, "generation_ms": 840, "total_ms": 901}}
//
// The response is kept verbatim. A citation's document is a corpus file
// name, a "blake3:" hash, or a key of documents; its quote may be null when
// the format carries none. A documents value is a name or a non-empty list
// of candidate names (Mapping; several corpus documents make the mapping
// ambiguous). retrieval holds the native retrieval cards of the attempt
// (any JSON objects), verbatim: they are shown with the record and never
// treated as citations ("Native retrieval cards alone are not answer
// citations").
type Record struct {
	Arm        string            `json:"arm"`
	Session    int               `json:"session"`
	Question   string            `json:"question"`
	Status     string            `json:"status"`
	StopReason string            `json:"stop_reason,omitempty"`
	Response   string            `json:"response"`
	Fields     map[string]string `json:"fields,omitempty"`
	Citations  []Citation        `json:"citations"`
	// Retrieval are the retrieval results (cards, chunks, source nodes) the
	// attempt reports beside its citations, each a JSON object kept
	// verbatim; adapters put here what a vendor retrieved but the answer
	// did not cite.
	Retrieval []json.RawMessage `json:"retrieval,omitempty"`
	Documents Mapping           `json:"documents,omitempty"`
	Timing    *Timing           `json:"timing,omitempty"`
	// Format names the native format an adapter read ("anthropic", ...).
	Format string `json:"format,omitempty"`
	// Unread notes, one per finding, what of the vendor's response the
	// adapter left unread although it looks like citations: citation
	// markers in an answer of which no citation was read, a citation-like
	// key of a shape the adapter does not know, a citation type it does
	// not read. The audit reports such a record by line and is never clean
	// (audit.Report.Unread).
	Unread []string `json:"unread,omitempty"`
	// Line is the record's line in its file (not serialized).
	Line int `json:"-"`
}

// Citation is one citation an answer emitted.
type Citation struct {
	ID        string  `json:"id"`
	Document  string  `json:"document"`
	Page      *int    `json:"page,omitempty"`      // 1-based
	LastPage  *int    `json:"last_page,omitempty"` // inclusive end of a page range
	PageLabel string  `json:"page_label,omitempty"`
	Quote     *string `json:"quote"`
	// Claim is the answer text the citation is attached to, when the
	// format says (Anthropic's text block, Gemini's segment).
	Claim string `json:"claim,omitempty"`
	// Native keeps the vendor's citation object verbatim, offsets
	// included: they are recorded, never trusted.
	Native json.RawMessage `json:"native,omitempty"`
	// External: the citation names a source outside the corpus (a web
	// page: its address is the document); it is kept, never looked up,
	// and graded unresolved (external_source).
	External bool `json:"external,omitempty"`
	// QuoteFrom says where the quote comes from when it is not the
	// citation's own: QuoteFromRetrieval.
	QuoteFrom string `json:"quote_from,omitempty"`
	// PagePhysical: the format defines Page (and LastPage) as 1-based
	// physical pages by contract (Anthropic page_location, Gemini
	// pageNumber, Vertex pageSpan, File Search page markers), so a page
	// that holds the quote only under another convention is a wrong page.
	PagePhysical bool `json:"page_physical,omitempty"`
	// Title is the title the vendor gives the cited document beside its
	// reference (Anthropic's document_title, a web page's title): one that
	// names a corpus document wins over a documents list that disagrees.
	Title string `json:"title,omitempty"`
	// Fault says what in the citation's own values cannot be read as given
	// (a page 0, a range that ends before it starts, no document): the
	// citation is kept, and graded unresolved (malformed_citation), never
	// looked up; the record's other citations are not affected.
	Fault string `json:"-"`
}

// QuoteFromRetrieval marks a quote that is the text the vendor's retrieval
// returned for the cited document (a chunk, a source node, a file search
// result), not words the answer quoted: it shows which document and
// passage were cited, never that the model quoted them.
const QuoteFromRetrieval = "retrieval_result"

// Timing holds the phases of an attempt in milliseconds; an absent phase
// was not measured.
type Timing struct {
	RetrievalMS  *float64 `json:"retrieval_ms,omitempty"`
	EmbeddingMS  *float64 `json:"embedding_ms,omitempty"`
	PromptMS     *float64 `json:"prompt_ms,omitempty"`
	GenerationMS *float64 `json:"generation_ms,omitempty"`
	TotalMS      *float64 `json:"total_ms,omitempty"`
	ColdStartMS  *float64 `json:"cold_start_ms,omitempty"`
	IndexingMS   *float64 `json:"indexing_ms,omitempty"`
}

// AttemptStatuses are the valid Record.Status values.
var AttemptStatuses = []string{"ok", "error", "timeout", "interrupted"}

// TimingShape lists the keys of a run record's timing, which results keep
// (package grade); runShape the keys of a run record.
var (
	TimingShape = &strictjson.Shape{Keys: map[string]*strictjson.Shape{
		"retrieval_ms": nil, "embedding_ms": nil, "prompt_ms": nil, "generation_ms": nil, "total_ms": nil, "cold_start_ms": nil, "indexing_ms": nil,
	}}
	runShape = &strictjson.Shape{Keys: map[string]*strictjson.Shape{
		"arm": nil, "session": nil, "question": nil, "status": nil, "stop_reason": nil, "response": nil,
		"fields": nil, "documents": nil, "format": nil, "retrieval": nil, "unread": nil,
		"citations": {Elem: &strictjson.Shape{Keys: map[string]*strictjson.Shape{
			"id": nil, "document": nil, "page": nil, "last_page": nil, "page_label": nil, "quote": nil, "claim": nil, "native": nil,
			"external": nil, "quote_from": nil, "page_physical": nil, "title": nil,
		}}},
		"timing": TimingShape,
	}}
)

// ReadRecords reads run records strictly (see ReadLocateRequests for
// what is refused), in file order.
func ReadRecords(r io.Reader, file string) ([]Record, error) {
	var out []Record
	err := eachRunRecord(r, file, func(rec *Record) error {
		out = append(out, *rec)
		return nil
	})
	return out, err
}

func eachRunRecord(r io.Reader, file string, fn func(*Record) error) error {
	return strictjson.Objects{Limits: lineLimits, Shape: runShape, Explain: mixedFormats("run")}.Each(r, file, func(n int, v *strictjson.Value, data []byte) error {
		rec := &Record{}
		if f, err := decodeRunRecord(v, data, rec); err != nil {
			return &InputError{File: file, Line: n, Field: f, Err: err}
		}
		if k := v.Missing("arm", "session", "question", "status", "response", "citations"); k != "" {
			return &InputError{File: file, Line: n, Field: k, Err: strictjson.ErrMissing}
		}
		rec.Line = n
		if f, err := rec.Validate(); err != nil {
			return &InputError{File: file, Line: n, Field: f, Err: err}
		}
		return fn(rec)
	})
}

// Validate checks a record's values (adapters call it on what they build)
// and returns the field at fault. A citation whose own values cannot be
// read as given (no document named, a page below 1, a page range that
// ends before it starts) does not make the record unreadable: a run is
// evidence of what a system did, so the citation is kept with its Fault
// set, and graded as a malformed citation; the record's other citations
// and its answer are graded as usual.
func (rec *Record) Validate() (string, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{strictjson.ErrValue}, args...)...)
	}
	switch {
	case !isIdentifier(rec.Arm):
		return "arm", bad("%q is not a name (non-empty, no surrounding space or control characters)", rec.Arm)
	case rec.Session < 1:
		return "session", bad("%d (sessions are numbered from 1)", rec.Session)
	case !isIdentifier(rec.Question):
		return "question", bad("%q is not a question id", rec.Question)
	case !slices.Contains(AttemptStatuses, rec.Status):
		return "status", bad("%q (want one of %s)", rec.Status, strings.Join(AttemptStatuses, ", "))
	}
	seen := map[string]bool{}
	for i := range rec.Citations {
		c := &rec.Citations[i]
		f := func(k string) string { return fmt.Sprintf("citations[%d].%s", i, k) }
		if c.Fault == "" {
			c.Fault = c.fault()
		}
		switch {
		case !isIdentifier(c.ID):
			return f("id"), bad("%q is not a citation id", c.ID)
		case seen[c.ID]:
			return f("id"), bad("%q repeats an earlier citation's id", c.ID)
		case c.PagePhysical && c.Page == nil:
			return f("page_physical"), bad("page_physical needs a page")
		case c.QuoteFrom != "" && c.QuoteFrom != QuoteFromRetrieval:
			return f("quote_from"), bad("%q (want %q or none)", c.QuoteFrom, QuoteFromRetrieval)
		}
		seen[c.ID] = true
	}
	for i, card := range rec.Retrieval {
		if t := bytes.TrimSpace(card); len(t) == 0 || t[0] != '{' {
			return fmt.Sprintf("retrieval[%d]", i), bad("a retrieval card is a JSON object")
		}
	}
	for _, k := range slices.Sorted(maps.Keys(rec.Documents)) {
		if len(rec.Documents[k]) == 0 {
			return strictjson.JoinKey("documents", k), bad("an empty list of document names (give one name, or the candidates)")
		}
	}
	return "", nil
}

// fault says what in a citation's own values cannot be read as given, or
// "" when nothing.
func (c *Citation) fault() string {
	switch {
	case strings.TrimSpace(c.Document) == "":
		return "it names no document"
	case c.Page != nil && *c.Page < 1:
		return fmt.Sprintf("page %d: pages are 1-based", *c.Page)
	case c.LastPage != nil && c.Page == nil:
		return fmt.Sprintf("last_page %d without a page", *c.LastPage)
	case c.LastPage != nil && *c.LastPage < *c.Page:
		return fmt.Sprintf("pages %d to %d: the range ends before it starts", *c.Page, *c.LastPage)
	}
	return ""
}

func isIdentifier(s string) bool {
	return s != "" && len(s) <= 256 && strings.TrimFunc(s, unicode.IsSpace) == s && strings.IndexFunc(s, unicode.IsControl) < 0
}
