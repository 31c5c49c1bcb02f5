package citations

import (
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/citecheck/citecheck/internal/strictjson"
)

// LocateRequest is one input record of "citecheck locate":
// {"id": "...", "document": "name.pdf", "quote": "...", "page": 3}.
// page (1-based), page_label and quote_from are optional; quote_from
// QuoteFromRetrieval says the quote is a
// retrieval result, whose first and last words may be cut short
// (Query.Retrieval).
type LocateRequest struct {
	ID        string `json:"id"`
	Document  string `json:"document"`
	Quote     string `json:"quote"`
	Page      *int   `json:"page,omitempty"`
	PageLabel string `json:"page_label,omitempty"`
	QuoteFrom string `json:"quote_from,omitempty"`
}

// QuoteFromRetrieval is the quote_from value of a quote that is a
// retrieval result's text; it is the run record's value of the same name
// (runs.QuoteFromRetrieval), which audit's tests hold equal.
const QuoteFromRetrieval = "retrieval_result"

// Query turns the request into a locator query.
func (r LocateRequest) Query() Query {
	q := Query{Document: r.Document, Quote: r.Quote, PageLabel: r.PageLabel, Retrieval: r.QuoteFrom == QuoteFromRetrieval}
	if r.Page != nil {
		q.Page = *r.Page
	}
	return q
}

// MaxQuoteBytes caps the quote of a LocateRequest: 64 KiB of UTF-8, some
// twenty pages of text, far beyond any passage a citation quotes. Locating
// a quote costs memory in proportion to its length (its normalized text,
// offset maps and search windows: a 10 MB quote took about 700 MB), so a
// longer one is refused as too long (strictjson.ErrTooLarge) rather than
// searched.
const MaxQuoteBytes = 64 << 10

var locateShape = &strictjson.Shape{Keys: map[string]*strictjson.Shape{"id": nil, "document": nil, "quote": nil, "page": nil, "page_label": nil, "quote_from": nil}}

// ReadLocateRequests reads JSON Lines of LocateRequest strictly: unknown,
// duplicate or case-variant keys, a missing id, document or quote, an empty
// quote, a quote longer than MaxQuoteBytes (strictjson.ErrTooLarge), a
// page below 1 and invalid UTF-8 are InputErrors naming file, line and
// field. Records keep input order.
func ReadLocateRequests(r io.Reader, file string) ([]LocateRequest, error) {
	var out []LocateRequest
	err := strictjson.Objects{Limits: lineLimits, Shape: locateShape}.Each(r, file, func(n int, v *strictjson.Value, data []byte) error {
		fail := func(field string, err error) error { return &InputError{File: file, Line: n, Field: field, Err: err} }
		var req LocateRequest
		if f, err := decodeLocateRequest(v, data, &req); err != nil {
			return fail(f, err)
		}
		if v.Missing("quote") != "" {
			return fail("quote", strictjson.ErrMissing)
		}
		switch {
		case req.ID == "":
			return fail("id", strictjson.ErrMissing)
		case req.Document == "":
			return fail("document", strictjson.ErrMissing)
		case strings.TrimFunc(req.Quote, unicode.IsSpace) == "":
			return fail("quote", fmt.Errorf("%w: empty quote", strictjson.ErrValue))
		case len(req.Quote) > MaxQuoteBytes:
			return fail("quote", fmt.Errorf("%w: a quote of %d bytes, longer than the %d (64 KiB) a quote may hold: not searched", strictjson.ErrTooLarge, len(req.Quote), MaxQuoteBytes))
		case req.Page != nil && *req.Page < 1:
			return fail("page", fmt.Errorf("%w: %d (pages are 1-based)", strictjson.ErrValue, *req.Page))
		case req.QuoteFrom != "" && req.QuoteFrom != QuoteFromRetrieval:
			return fail("quote_from", fmt.Errorf("%w: %q (want %q or none)", strictjson.ErrValue, req.QuoteFrom, QuoteFromRetrieval))
		}
		out = append(out, req)
		return nil
	})
	return out, err
}

// LocateRecord is one output record of "citecheck locate": the contract's
// fields (id, status, pages, spans, match, crosses_page), then the extra
// facts. Field order is fixed.
type LocateRecord struct {
	ID          string `json:"id"`
	Status      Status `json:"status"`
	Pages       []int  `json:"pages"`
	Spans       []Span `json:"spans"`
	Match       *Level `json:"match"`
	CrossesPage bool   `json:"crosses_page,omitempty"`

	Document            string           `json:"document,omitempty"`
	Occurrences         int              `json:"occurrences,omitempty"`
	PageCheck           PageCheck        `json:"page_check,omitempty"`
	DisambiguatedByPage bool             `json:"disambiguated_by_page,omitempty"`
	Short               bool             `json:"short,omitempty"`
	Elided              bool             `json:"elided,omitempty"`
	DocumentStatus      string           `json:"document_status,omitempty"`
	PageFlags           []string         `json:"page_flags,omitempty"`
	FoundIn             []FoundElsewhere `json:"found_in,omitempty"`
	Note                string           `json:"note,omitempty"`
}

// FoundElsewhere is a location in another document than the one named.
type FoundElsewhere struct {
	Document string `json:"document"`
	Pages    []int  `json:"pages"`
	Spans    []Span `json:"spans"`
	Match    Level  `json:"match"`
}

// NewLocateRecord renders a result as its output record.
func NewLocateRecord(id string, r Result) LocateRecord {
	rec := LocateRecord{
		ID: id, Status: r.Status, Pages: r.Pages(), Spans: r.Spans(),
		Document: r.Document, PageCheck: r.PageCheck, DisambiguatedByPage: r.DisambiguatedByPage,
		Short: r.Short, Elided: r.Elided, DocumentStatus: string(r.DocumentStatus), PageFlags: r.PageFlags,
		Note: r.Note,
	}
	if rec.Pages == nil {
		rec.Pages = []int{}
	}
	if rec.Spans == nil {
		rec.Spans = []Span{}
	}
	if r.Found() {
		l := r.Level
		if loc, ok := r.Location(); ok {
			l = loc.Level
		}
		rec.Match = &l
		rec.CrossesPage = r.CrossesPage()
		rec.Occurrences = len(r.Locations)
	}
	for _, e := range r.Elsewhere {
		rec.FoundIn = append(rec.FoundIn, FoundElsewhere{Document: e.Document, Pages: e.Pages(), Spans: e.Spans, Match: e.Level})
	}
	return rec
}

// decodeLocateRequest fills a locate request from its checked tree, as
// encoding/json would, without parsing the line a second time.
func decodeLocateRequest(v *strictjson.Value, data []byte, req *LocateRequest) (string, error) {
	d := &strictjson.TreeDecoder{Data: data}
	if v.Kind != strictjson.Null && !d.Want(v, "", strictjson.Object, "citations.LocateRequest") {
		return d.Path, d.Err
	}
	for _, m := range v.Members {
		switch m.Key {
		case "id":
			req.ID = d.Str(m.Value, m.Key)
		case "document":
			req.Document = d.Str(m.Value, m.Key)
		case "quote":
			req.Quote = d.Str(m.Value, m.Key)
		case "page":
			req.Page = d.IntPtr(m.Value, m.Key)
		case "page_label":
			req.PageLabel = d.Str(m.Value, m.Key)
		case "quote_from":
			req.QuoteFrom = d.Str(m.Value, m.Key)
		}
	}
	return d.Path, d.Err
}
