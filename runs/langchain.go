package runs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/citecheck/citecheck/internal/strictjson"
)

// langchainDoc is a serialized LangChain Document.
type langchainDoc struct {
	PageContent string `json:"page_content"`
	Metadata    struct {
		Source    string          `json:"source"`
		FilePath  string          `json:"file_path"`
		Page      *int            `json:"page"`
		PageLabel json.RawMessage `json:"page_label"`
	} `json:"metadata"`
}

// LangChain RAG chain output with citations (the "cited answer" patterns
// of LangChain's "How to get a RAG application to add citations" guide):
// {"context": [Document...], "answer": ...} where answer is text (no
// citations), the structured output {"answer", "citations"}, each citation
// {"source_id": N, "quote": "..."} or just N, an index into context, or
// the XMLOutputParser's {"cited_answer": [{"answer": ...}, {"citations":
// [{"citation": [{"source_id": "N"}, {"quote": ...}]}]}]} (source ids are
// text there); the parser's output may also be the response itself. A
// Document's metadata.page is 0-based (PyPDFLoader) and becomes page+1;
// page_label is kept as a label; start_index is recorded, not trusted. A
// citation without a quote quotes its whole Document (QuoteFromRetrieval).
// A Document whose source is a web address the run does not map is an
// external source.
func adaptLangChain(rec *Record, raw json.RawMessage) (string, error) {
	var out struct {
		Context     []json.RawMessage `json:"context"`
		Answer      json.RawMessage   `json:"answer"`
		CitedAnswer json.RawMessage   `json:"cited_answer"`
	}
	if f, err := unmarshal(raw, &out); err != nil {
		return f, err
	}
	answer, at := out.Answer, ".answer"
	if (len(out.Answer) == 0 || string(out.Answer) == "null") && (len(out.CitedAnswer) == 0 || string(out.CitedAnswer) == "null") {
		return ".answer", strictjson.ErrMissing
	}
	if len(out.CitedAnswer) > 0 && string(out.CitedAnswer) != "null" {
		if len(out.Answer) > 0 && string(out.Answer) != "null" {
			return ".cited_answer", fmt.Errorf("%w: both answer and cited_answer", strictjson.ErrValue)
		}
		answer, at = raw, ""
	}
	cited := make([]bool, len(out.Context))
	// What was retrieved and not cited goes verbatim to the retrieval.
	defer func() {
		for i, d := range out.Context {
			if !cited[i] {
				rec.Retrieval = append(rec.Retrieval, d)
			}
		}
	}()
	var plain string
	if json.Unmarshal(answer, &plain) == nil {
		rec.Response = plain
		return "", nil // a plain answer emits no citations
	}
	var ans struct {
		Answer      string            `json:"answer"`
		Citations   []json.RawMessage `json:"citations"`
		CitedAnswer []json.RawMessage `json:"cited_answer"`
	}
	if f, err := unmarshal(answer, &ans); err != nil {
		return at + f, err
	}
	citeAt, natives := at+".citations", ans.Citations
	if ans.CitedAnswer != nil {
		text, cites, raws, f, err := langchainXML(ans.CitedAnswer)
		if err != nil {
			return at + ".cited_answer" + f, err
		}
		ans.Answer, ans.Citations, natives, citeAt = text, cites, raws, at+".cited_answer"
	}
	rec.Response = ans.Answer
	for i, cr := range ans.Citations {
		at := fmt.Sprintf("%s[%d]", citeAt, i)
		var c struct {
			SourceID json.RawMessage `json:"source_id"`
			Quote    *string         `json:"quote"`
		}
		if bytes.HasPrefix(bytes.TrimSpace(cr), []byte("{")) {
			if f, err := unmarshal(cr, &c); err != nil {
				return at + f, err
			}
		} else {
			c.SourceID = cr // a bare source id
		}
		id, ok := sourceID(c.SourceID)
		if !ok {
			if len(c.SourceID) == 0 || string(c.SourceID) == "null" {
				return at + ".source_id", strictjson.ErrMissing
			}
			return at + ".source_id", fmt.Errorf("%w: %s (want an index into context)", strictjson.ErrValue, c.SourceID)
		}
		if id < 0 || id >= len(out.Context) {
			rec.Citations = append(rec.Citations, Citation{Document: fmt.Sprintf("context[%d]", id), Quote: c.Quote, Native: natives[i]})
			continue
		}
		rc, f, err := langchainCitation(rec.Documents, id, out.Context[id], c.Quote)
		if err != nil {
			return f, err
		}
		cited[id] = true
		rc.Native = wrapNative([]string{"citation", "document"}, []json.RawMessage{natives[i], out.Context[id]})
		rec.Citations = append(rec.Citations, rc)
	}
	return "", nil
}

// langchainCitation reads the Document context[id] that a citation with
// quote cites: its source names the document, its text is the quote when
// the citation has none, its 0-based page becomes page+1.
func langchainCitation(m Mapping, id int, doc json.RawMessage, quote *string) (Citation, string, error) {
	var d langchainDoc
	if f, err := unmarshal(doc, &d); err != nil {
		return Citation{}, fmt.Sprintf(".context[%d]%s", id, f), err
	}
	src := d.Metadata.Source
	if src == "" {
		src = d.Metadata.FilePath
	}
	name := "" // no source: the citation names no document (malformed), not "."
	if src != "" {
		name = path.Base(strings.ReplaceAll(src, `\`, "/"))
	}
	rc := Citation{Document: ref(m, src, name), Quote: quote}
	if isWebURL(src) && !mapped(m, src) {
		rc.Document, rc.External = src, true
	}
	if rc.Quote == nil {
		rc.Quote, rc.QuoteFrom = ptr(d.PageContent), QuoteFromRetrieval
	}
	if d.Metadata.Page != nil {
		if *d.Metadata.Page < 0 {
			return Citation{}, fmt.Sprintf(".context[%d].metadata.page", id), fmt.Errorf("%w: %d (0-based)", strictjson.ErrValue, *d.Metadata.Page)
		}
		rc.Page = ptr(*d.Metadata.Page + 1)
	}
	rc.PageLabel = labelString(d.Metadata.PageLabel)
	return rc, "", nil
}

// sourceID reads a LangChain source id: a number, or a number written as
// text (the XML parser's).
func sourceID(raw json.RawMessage) (int, bool) {
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		return 0, false
	}
	var n int
	if json.Unmarshal(raw, &n) == nil {
		return n, true
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
			return n, true
		}
	}
	return 0, false
}

// langchainXML reads the XMLOutputParser's cited_answer list: one-key
// objects {"answer": text} and {"citations": [{"citation": [one-key
// objects]}]}. It returns the answer, each citation as an object
// {"source_id", "quote"} to read, and each citation as the parser wrote it.
func langchainXML(items []json.RawMessage) (answer string, cites, raws []json.RawMessage, field string, err error) {
	var texts []string
	for i, ir := range items {
		var item struct {
			Answer    *string           `json:"answer"`
			Citations []json.RawMessage `json:"citations"`
		}
		if f, err := unmarshal(ir, &item); err != nil {
			return "", nil, nil, fmt.Sprintf("[%d]%s", i, f), err
		}
		if item.Answer != nil {
			texts = append(texts, *item.Answer)
		}
		for k, cr := range item.Citations {
			at := fmt.Sprintf("[%d].citations[%d]", i, k)
			var c struct {
				Citation []map[string]json.RawMessage `json:"citation"`
			}
			if f, err := unmarshal(cr, &c); err != nil {
				return "", nil, nil, at + f, err
			}
			fields := map[string]json.RawMessage{}
			for _, kv := range c.Citation {
				for key, val := range kv {
					if _, dup := fields[key]; dup {
						return "", nil, nil, at + ".citation", fmt.Errorf("%w: %q twice", strictjson.ErrDuplicateKey, key)
					}
					fields[key] = val
				}
			}
			var keys []string
			var vals []json.RawMessage
			for _, key := range []string{"source_id", "quote"} {
				if v, ok := fields[key]; ok {
					keys, vals = append(keys, key), append(vals, v)
				}
			}
			cites, raws = append(cites, wrapNative(keys, vals)), append(raws, cr)
		}
	}
	return strings.Join(texts, "\n"), cites, raws, "", nil
}
