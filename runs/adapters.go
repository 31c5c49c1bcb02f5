package runs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/citecheck/citecheck/internal/strictjson"
)

// Formats lists the run formats ReadRuns reads: "run" is Record JSON
// Lines; the others are envelopes around a vendor's native response.
// FormatAuto tells them apart by shape (DetectFormat).
var Formats = []string{"run", "anthropic", "openai", "gemini", "lmstudio", "langchain", "llamaindex"}

// Envelope is one line of a native capture: the attempt's identity as the
// harness knows it, how the run names documents, and the vendor's response
// object verbatim:
//
//	{"arm": "B", "session": 1, "question": "q01", "status": "ok",
//	 "documents": ["policy.pdf", "prices.pdf"],
//	 "timing": {"total_ms": 2310},
//	 "response": { ...the vendor's JSON... }}
//
// documents is a list (Anthropic's document_index is a position in the
// request's documents) or an object from the vendor's file id, title or
// path to a corpus name or hash, or to a list of candidate names (see
// Mapping). status defaults to "ok".
type Envelope struct {
	Arm        string          `json:"arm"`
	Session    int             `json:"session"`
	Question   string          `json:"question"`
	Status     string          `json:"status"`
	StopReason string          `json:"stop_reason"`
	Documents  json.RawMessage `json:"documents"`
	Timing     *Timing         `json:"timing"`
	Response   json.RawMessage `json:"response"`
}

var envelopeShape = &strictjson.Shape{Keys: map[string]*strictjson.Shape{
	"arm": nil, "session": nil, "question": nil, "status": nil, "stop_reason": nil,
	"documents": nil, "response": nil, "timing": TimingShape,
}}

// vendorKeys are, per format, the field names the adapter reads from the
// vendor's payload, folded to their exact spelling: a payload key differing
// only in case would be bound by encoding/json without notice, so it is
// refused. Gemini's are in both spellings its SDKs write (camelCase REST,
// snake_case Python model_dump()): they are two keys, not case variants.
var vendorKeys = map[string]map[string]string{
	"anthropic": keySet(`type role content text citations cited_text document_index document_title
		start_page_number end_page_number stop_reason url title source`),
	"openai": keySet(`object status output type content text annotations file_id filename value
		file_citation quote incomplete_details reason results score url title`),
	"gemini": keySet(`candidates content parts text finishReason finish_reason groundingMetadata grounding_metadata
		groundingChunks grounding_chunks groundingSupports grounding_supports retrievedContext retrieved_context
		web maps uri title pageNumber page_number ragChunk rag_chunk pageSpan page_span firstPage first_page
		lastPage last_page segment partIndex part_index startIndex start_index endIndex end_index
		groundingChunkIndices grounding_chunk_indices`),
	"lmstudio":   keySet(`role content citations type text citedText fileName fileIdentifier pageNumber stats stopReason`),
	"langchain":  keySet(`context answer citations source_id quote page_content metadata source file_path page page_label cited_answer citation`),
	"llamaindex": keySet(`response source_nodes node text metadata file_name file_path page_label`),
}

func keySet(fields string) map[string]string {
	m := map[string]string{}
	for _, k := range strings.Fields(fields) {
		m[strictjson.Fold(k)] = k
	}
	return m
}

// ReadRuns reads a run file in the given format (one of Formats, or
// FormatAuto) and returns run records, each validated. Native formats are
// read through their adapter; no adapter trusts a vendor's offsets: they
// are kept in the citation's Native field and every quote is located again
// in the corpus's own text.
func ReadRuns(r io.Reader, file, format string) ([]Record, error) {
	var out []Record
	err := EachRun(r, file, format, func(rec *Record) error {
		out = append(out, *rec)
		return nil
	})
	return out, err
}

// EachRun reads a run file as ReadRuns does and calls fn with each record
// in file order, as it is read, so that a grader can stream files of any
// length; it stops at the first input error or error of fn. fn may keep
// the record. What an adapter left unread although it looks like
// citations is noted in the record's Unread, never dropped in silence.
func EachRun(r io.Reader, file, format string, fn func(*Record) error) error {
	if format == "run" || format == "" {
		return eachRunRecord(r, file, fn)
	}
	if format == FormatAuto {
		return eachAuto(r, file, fn)
	}
	adapt, ok := adapters[format]
	if !ok {
		return &InputError{File: file, Err: fmt.Errorf("%w: format %q (want one of %s)", strictjson.ErrValue, format, strings.Join(Formats, ", "))}
	}
	return strictjson.EachObject(r, file, lineLimits, envelopeShape, vendorKeys[format], func(n int, v *strictjson.Value, data []byte) error {
		fail := func(field string, err error) error { return &InputError{File: file, Line: n, Field: field, Err: err} }
		var env Envelope
		if f, err := decodeEnvelope(v, data, &env); err != nil {
			return fail(f, err)
		}
		if k := v.Missing("arm", "session", "question", "response"); k != "" {
			return fail(k, strictjson.ErrMissing)
		}
		rec := &Record{Arm: env.Arm, Session: env.Session, Question: env.Question, Status: env.Status,
			StopReason: env.StopReason, Timing: env.Timing, Format: format, Line: n, Citations: []Citation{}}
		m, f, err := envelopeDocuments(env.Documents)
		if err != nil {
			return fail(f, err)
		}
		rec.Documents = m
		if f, err := adapt(rec, env.Response); err != nil {
			return fail("response"+f, err)
		}
		if m := v.Get("response"); m != nil {
			noteUnread(rec, format, m.Value)
		}
		if rec.Status == "" {
			rec.Status = "ok"
		}
		for i := range rec.Citations {
			if rec.Citations[i].ID == "" {
				rec.Citations[i].ID = fmt.Sprintf("c%d", i+1)
			}
		}
		if len(rec.Documents) == 0 {
			rec.Documents = nil
		}
		if f, err := rec.Validate(); err != nil {
			return fail(f, err)
		}
		return fn(rec)
	})
}

// envelopeDocuments turns the envelope's documents into a Mapping; a list
// is keyed "document_index:N".
func envelopeDocuments(raw json.RawMessage) (Mapping, string, error) {
	m := Mapping{}
	if len(raw) == 0 || string(raw) == "null" {
		return m, "", nil
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		for i, name := range list {
			m[indexKey(i)] = []string{name}
		}
		return m, "", nil
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, "documents", fmt.Errorf("%w: want a list of names or an object of names", strictjson.ErrValue)
	}
	return m, "", nil
}

func indexKey(i int) string { return "document_index:" + strconv.Itoa(i) }

// ref returns how a citation names its document: key when the run's
// mapping knows it, else the first non-empty fallback.
func ref(m Mapping, key string, fallbacks ...string) string {
	if mapped(m, key) {
		return key
	}
	if f := firstOf(fallbacks...); f != "" {
		return f
	}
	return key
}

type adapter func(rec *Record, resp json.RawMessage) (field string, err error)

var adapters = map[string]adapter{
	"anthropic":  adaptAnthropic,
	"openai":     adaptOpenAI,
	"gemini":     adaptGemini,
	"lmstudio":   adaptLMStudio,
	"langchain":  adaptLangChain,
	"llamaindex": adaptLlamaIndex,
}

// unmarshal decodes a vendor's payload, whose keys the envelope's reader
// has checked, into the adapter's view of it, and returns the JSON path
// (".key") of a type fault.
func unmarshal(raw json.RawMessage, v any) (string, error) {
	if err := json.Unmarshal(raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return "." + te.Field, decodeFault(err)
		}
		return "", decodeFault(err)
	}
	return "", nil
}

func ptr[T any](v T) *T { return &v }

// Anthropic Messages API response with citations enabled on the documents:
// content is a list of text blocks, each with optional citations of type
// char_location (plain text documents: 0-based character indices, end
// exclusive), page_location (PDFs: 1-based pages by contract, end
// exclusive) or content_block_location (custom content: block indices).
// cited_text is the quote; document_index is the document's position in
// the request, document_title its title (kept, and checked against the
// corpus by Ground). search_result_location cites a search result by its
// source; web_search_result_location a web page: an external source. A
// citation of another type is noted as unread, never guessed.
func adaptAnthropic(rec *Record, raw json.RawMessage) (string, error) {
	var msg struct {
		Type    string `json:"type"`
		Content []struct {
			Type      string            `json:"type"`
			Text      string            `json:"text"`
			Citations []json.RawMessage `json:"citations"`
		} `json:"content"`
		StopReason string `json:"stop_reason"`
	}
	if f, err := unmarshal(raw, &msg); err != nil {
		return f, err
	}
	if msg.Type != "message" {
		return ".type", fmt.Errorf("%w: %q (want an Anthropic \"message\" object)", strictjson.ErrValue, msg.Type)
	}
	var text strings.Builder
	for b, block := range msg.Content {
		if block.Type != "text" {
			continue
		}
		text.WriteString(block.Text)
		for k, cr := range block.Citations {
			at := fmt.Sprintf(".content[%d].citations[%d]", b, k)
			var c struct {
				Type            string  `json:"type"`
				CitedText       *string `json:"cited_text"`
				DocumentIndex   *int    `json:"document_index"`
				DocumentTitle   string  `json:"document_title"`
				StartPageNumber *int    `json:"start_page_number"`
				EndPageNumber   *int    `json:"end_page_number"`
				URL             string  `json:"url"`
				Title           string  `json:"title"`
				Source          string  `json:"source"`
			}
			if f, err := unmarshal(cr, &c); err != nil {
				return at + f, err
			}
			rc := Citation{Quote: c.CitedText, Claim: block.Text, Native: cr}
			switch c.Type {
			case "char_location", "page_location", "content_block_location":
				if c.DocumentIndex == nil || *c.DocumentIndex < 0 {
					return at + ".document_index", strictjson.ErrMissing
				}
				rc.Document = ref(rec.Documents, indexKey(*c.DocumentIndex), c.DocumentTitle)
				if c.DocumentTitle != rc.Document {
					rc.Title = c.DocumentTitle
				}
			case "search_result_location":
				rc.Document, rc.Title = ref(rec.Documents, c.Source, c.Title), c.Title
				rc.External = isWebURL(rc.Document) && !mapped(rec.Documents, c.Source)
				if rc.Document == "" {
					return at + ".source", strictjson.ErrMissing
				}
			case "web_search_result_location":
				rc.Document, rc.Title, rc.External = firstOf(c.URL, c.Title, "web search result"), c.Title, true
			default:
				rec.Unread = append(rec.Unread, fmt.Sprintf("response%s: citation type %q is not read", at, c.Type))
				continue
			}
			if c.Type == "page_location" {
				if c.StartPageNumber == nil || *c.StartPageNumber < 1 || c.EndPageNumber == nil || *c.EndPageNumber <= *c.StartPageNumber {
					return at, fmt.Errorf("%w: page_location needs 1 <= start_page_number < end_page_number", strictjson.ErrValue)
				}
				rc.Page, rc.PagePhysical = ptr(*c.StartPageNumber), true
				if last := *c.EndPageNumber - 1; last > *c.StartPageNumber {
					rc.LastPage = ptr(last)
				}
			}
			rec.Citations = append(rec.Citations, rc)
		}
	}
	rec.Response = text.String()
	if rec.StopReason == "" {
		rec.StopReason = msg.StopReason
	}
	return "", nil
}

// isWebURL reports whether a document reference is a web address.
func isWebURL(s string) bool {
	return strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "http://")
}

// mapped reports whether the run's mapping names key.
func mapped(m Mapping, key string) bool {
	_, ok := m[key]
	return ok && key != ""
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// OpenAI: a Responses API response (object "response"), whose message
// output_text parts carry file_citation annotations {file_id, filename,
// index} with index a position in the answer text and no quote, or an
// Assistants thread message (object "thread.message") whose text
// annotations may carry file_citation.quote. A response requested with
// include=["file_search_call.results"] carries, in its file_search_call
// items, the text retrieved from each file: the best-scored result of the
// cited file is the quote, marked QuoteFromRetrieval; without one the
// citation has no quote and can be counted, never verified. url_citation
// annotations cite web pages: external sources.
func adaptOpenAI(rec *Record, raw json.RawMessage) (string, error) {
	type annotation struct {
		Type         string `json:"type"`
		FileID       string `json:"file_id"`
		Filename     string `json:"filename"`
		URL          string `json:"url"`
		Title        string `json:"title"`
		FileCitation *struct {
			FileID string  `json:"file_id"`
			Quote  *string `json:"quote"`
		} `json:"file_citation"`
	}
	var head struct {
		Object string `json:"object"`
	}
	if f, err := unmarshal(raw, &head); err != nil {
		return f, err
	}
	var text strings.Builder
	retrieved := map[string]*openAIResult{} // file id -> its best-scored result
	add := func(at string, anns []json.RawMessage) (string, error) {
		for k, ar := range anns {
			var a annotation
			if f, err := unmarshal(ar, &a); err != nil {
				return fmt.Sprintf("%s[%d]%s", at, k, f), err
			}
			switch a.Type {
			case "file_citation":
			case "url_citation":
				rec.Citations = append(rec.Citations, Citation{Document: firstOf(a.URL, a.Title, "url_citation"), Title: a.Title, External: true, Native: ar})
				continue
			default:
				if strings.Contains(a.Type, "citation") {
					rec.Unread = append(rec.Unread, fmt.Sprintf("response%s[%d]: annotation type %q is not read", at, k, a.Type))
				}
				continue
			}
			id := a.FileID
			var quote *string
			from := ""
			if a.FileCitation != nil {
				id = a.FileCitation.FileID
				quote = a.FileCitation.Quote
			} else if r := retrieved[id]; r != nil && r.Text != nil {
				quote, from = r.Text, QuoteFromRetrieval
			}
			if quote != nil && strings.TrimSpace(*quote) == "" {
				quote, from = nil, ""
			}
			rec.Citations = append(rec.Citations, Citation{Document: ref(rec.Documents, id, a.Filename), Quote: quote, QuoteFrom: from, Native: ar})
		}
		return "", nil
	}
	switch head.Object {
	case "response":
		var resp struct {
			Status            string `json:"status"`
			IncompleteDetails *struct {
				Reason string `json:"reason"`
			} `json:"incomplete_details"`
			Output []struct {
				Type    string          `json:"type"`
				Results []*openAIResult `json:"results"`
				Content []struct {
					Type        string            `json:"type"`
					Text        string            `json:"text"`
					Annotations []json.RawMessage `json:"annotations"`
				} `json:"content"`
			} `json:"output"`
		}
		if f, err := unmarshal(raw, &resp); err != nil {
			return f, err
		}
		for _, item := range resp.Output {
			if item.Type != "file_search_call" {
				continue
			}
			for _, r := range item.Results {
				if r == nil || r.FileID == "" {
					continue
				}
				if best := retrieved[r.FileID]; best == nil || r.Score > best.Score {
					retrieved[r.FileID] = r
				}
			}
		}
		for o, item := range resp.Output {
			if item.Type != "message" {
				continue
			}
			for c, part := range item.Content {
				if part.Type != "output_text" {
					continue
				}
				text.WriteString(part.Text)
				if f, err := add(fmt.Sprintf(".output[%d].content[%d].annotations", o, c), part.Annotations); err != nil {
					return f, err
				}
			}
		}
		if rec.Status == "" && resp.Status == "failed" {
			rec.Status = "error"
		}
		if rec.StopReason == "" {
			rec.StopReason = resp.Status
			if resp.IncompleteDetails != nil && resp.IncompleteDetails.Reason != "" {
				rec.StopReason = resp.IncompleteDetails.Reason
			}
		}
	case "thread.message":
		var msg struct {
			Content []struct {
				Type string `json:"type"`
				Text struct {
					Value       string            `json:"value"`
					Annotations []json.RawMessage `json:"annotations"`
				} `json:"text"`
			} `json:"content"`
		}
		if f, err := unmarshal(raw, &msg); err != nil {
			return f, err
		}
		for c, part := range msg.Content {
			if part.Type != "text" {
				continue
			}
			text.WriteString(part.Text.Value)
			if f, err := add(fmt.Sprintf(".content[%d].text.annotations", c), part.Text.Annotations); err != nil {
				return f, err
			}
		}
	default:
		return ".object", fmt.Errorf("%w: %q (want \"response\" or \"thread.message\")", strictjson.ErrValue, head.Object)
	}
	rec.Response = text.String()
	return "", nil
}

// openAIResult is one result of a Responses file_search_call.
type openAIResult struct {
	FileID string  `json:"file_id"`
	Score  float64 `json:"score"`
	Text   *string `json:"text"`
}

// Gemini generateContent response with grounding, in the REST API's
// camelCase names or the snake_case ones google-genai's Python
// model_dump() writes (never both for one key): candidates[0] holds the
// answer parts and groundingMetadata. Each groundingSupport ties a segment
// of the answer (UTF-8 byte offsets into a part) to groundingChunks; a
// chunk from a retrieval tool (retrievedContext) names its document (the
// uri or title the run's documents maps, else the title, else the uri) and
// gives its text (or Vertex RAG's ragChunk.text), the quote, without the
// page markers File Search writes into it. Its pages are 1-based by
// contract: pageNumber, else ragChunk.pageSpan, else the page markers. A
// web (or maps) chunk is an external source. One citation per chunk that a
// support references, in order of first reference, with the chunk and its
// supports verbatim as native; a support into a chunk the response lacks
// cites an unknown document "groundingChunks[N]". Chunks no support
// references are retrieval results, not citations, and go verbatim to the
// record's Retrieval.
func adaptGemini(rec *Record, raw json.RawMessage) (string, error) {
	v, err := strictjson.Parse(raw, "", strictjson.Limits{})
	if err != nil { // checked by the envelope's reader already
		return "", fmt.Errorf("%w: %v", strictjson.ErrValue, err)
	}
	t := &vtree{data: raw}
	cands, cpaths := t.list(t.get(v, "", "candidates"))
	if t.err != nil {
		return t.result()
	}
	if len(cands) == 0 {
		return ".candidates", strictjson.ErrMissing
	}
	cand, cp := cands[0], cpaths[0]
	content, contentPath := t.get(cand, cp, "content")
	parts, ppaths := t.list(t.get(content, contentPath, "parts"))
	var partTexts []string
	for i, p := range parts {
		partTexts = append(partTexts, t.str(t.get(p, ppaths[i], "text")))
	}
	rec.Response = strings.Join(partTexts, "")
	if finish := t.str(t.get(cand, cp, "finishReason", "finish_reason")); rec.StopReason == "" {
		rec.StopReason = finish
	}
	gm, gp := t.get(cand, cp, "groundingMetadata", "grounding_metadata")
	chunks, chpaths := t.list(t.get(gm, gp, "groundingChunks", "grounding_chunks"))
	supports, spaths := t.list(t.get(gm, gp, "groundingSupports", "grounding_supports"))
	if t.err != nil {
		return t.result()
	}
	type cited struct {
		chunk    json.RawMessage
		supports []json.RawMessage
	}
	byChunk := map[int]int{} // chunk index -> citation index
	var natives []cited
	for s, sup := range supports {
		sp := spaths[s]
		seg, segp := t.get(sup, sp, "segment")
		pi := t.int(t.get(seg, segp, "partIndex", "part_index"))
		start := t.int(t.get(seg, segp, "startIndex", "start_index"))
		end := t.int(t.get(seg, segp, "endIndex", "end_index"))
		segText := t.str(t.get(seg, segp, "text"))
		indices, ipaths := t.list(t.get(sup, sp, "groundingChunkIndices", "grounding_chunk_indices"))
		if t.err != nil {
			return t.result()
		}
		partText, okPart := "", pi >= 0 && pi < len(partTexts)
		if okPart {
			partText = partTexts[pi]
		}
		claim := geminiSegment(partText, start, end, segText, okPart)
		for i, iv := range indices {
			ci := t.int(iv, ipaths[i])
			if t.err == nil && ci < 0 {
				t.fail(ipaths[i], fmt.Errorf("%w: chunk index %d (indices are 0-based)", strictjson.ErrValue, ci))
			}
			if t.err != nil {
				return t.result()
			}
			k, seen := byChunk[ci]
			if !seen {
				var rc Citation
				var chunkRaw json.RawMessage
				if ci < len(chunks) {
					chunkRaw = t.raw(chunks[ci])
					rc = geminiChunk(t, chunks[ci], chpaths[ci], rec.Documents)
					if t.err != nil {
						return t.result()
					}
				} else {
					// The response names a chunk it lacks (supports into an
					// empty groundingChunks): this citation's document is
					// unknown, the others stand.
					rc.Document = fmt.Sprintf("groundingChunks[%d]", ci)
				}
				k = len(rec.Citations)
				byChunk[ci] = k
				rec.Citations = append(rec.Citations, rc)
				natives = append(natives, cited{chunk: chunkRaw})
			}
			if claim != "" {
				if rec.Citations[k].Claim != "" {
					rec.Citations[k].Claim += " | "
				}
				rec.Citations[k].Claim += claim
			}
			natives[k].supports = append(natives[k].supports, t.raw(sup))
		}
	}
	for k := range rec.Citations {
		rec.Citations[k].Native = wrapNative([]string{"chunk", "supports"}, []json.RawMessage{natives[k].chunk, rawList(natives[k].supports)})
	}
	for ci, ch := range chunks {
		if _, cited := byChunk[ci]; !cited {
			rec.Retrieval = append(rec.Retrieval, t.raw(ch))
		}
	}
	return "", nil
}

// geminiChunk turns one grounding chunk into a citation.
func geminiChunk(t *vtree, ch *strictjson.Value, path string, m Mapping) Citation {
	var rc Citation
	if rctx, rp := t.get(ch, path, "retrievedContext", "retrieved_context"); rctx != nil {
		uri := t.str(t.get(rctx, rp, "uri"))
		title := t.str(t.get(rctx, rp, "title"))
		switch {
		case mapped(m, uri):
			rc.Document = uri
		case mapped(m, title):
			rc.Document = title
		default:
			rc.Document = firstOf(title, uri, path[strings.LastIndex(path, ".")+1:])
		}
		quote := t.strPtr(t.get(rctx, rp, "text"))
		rag, ragp := t.get(rctx, rp, "ragChunk", "rag_chunk")
		if quote == nil || strings.TrimSpace(*quote) == "" {
			quote = t.strPtr(t.get(rag, ragp, "text"))
		}
		var first, last int
		if quote != nil {
			q, pages := stripPageMarkers(*quote)
			quote = &q
			if len(pages) > 0 {
				first, last = pages[0], pages[1]
			}
			rc.QuoteFrom = QuoteFromRetrieval
		}
		span, sp := t.get(rag, ragp, "pageSpan", "page_span")
		if fp := t.int(t.get(span, sp, "firstPage", "first_page")); fp > 0 {
			first, last = fp, t.int(t.get(span, sp, "lastPage", "last_page"))
		}
		if pn := t.intPtr(t.get(rctx, rp, "pageNumber", "page_number")); pn != nil && *pn > 0 {
			first, last = *pn, 0
		}
		if first > 0 {
			rc.Page, rc.PagePhysical = ptr(first), true
			if last > first {
				rc.LastPage = ptr(last)
			}
		}
		rc.Quote = quote
		return rc
	}
	// A web page, a place on Google Maps or any other source no retrieval
	// over the corpus returned: outside the corpus.
	rc.External = true
	for _, kind := range ch.Members {
		if kind.Value.Kind != strictjson.Object {
			continue
		}
		kp := strictjson.JoinKey(path, kind.Key)
		uri := t.str(t.get(kind.Value, kp, "uri"))
		rc.Title = t.str(t.get(kind.Value, kp, "title"))
		rc.Document = firstOf(uri, rc.Title)
		break
	}
	if rc.Document == "" {
		rc.Document = path[strings.LastIndex(path, ".")+1:]
	}
	return rc
}

// pageMarker is the line File Search writes into a chunk's text where a
// page of the document begins: "--- PAGE 3 ---".
var pageMarker = regexp.MustCompile(`(?m)^[ \t]*-{3} PAGE (\d{1,6}) -{3}[ \t]*$`)

// stripPageMarkers removes the page markers of a chunk's text, joining
// what is between them by a line break, and returns the pages the text
// spans (first, last; last 0 for one page), none when it has no marker:
// text before the first marker is on the page before it.
func stripPageMarkers(s string) (string, []int) {
	locs := pageMarker.FindAllStringSubmatchIndex(s, -1)
	if len(locs) == 0 {
		return s, nil
	}
	var pieces []string
	prev := 0
	first, last := 0, 0
	for i, l := range locs {
		n, _ := strconv.Atoi(s[l[2]:l[3]])
		before := strings.TrimSpace(s[prev:l[0]])
		if before != "" {
			pieces = append(pieces, before)
		}
		if i == 0 {
			first = n
			if before != "" && n > 1 {
				first = n - 1
			}
		}
		last = n
		prev = l[1]
	}
	if rest := strings.TrimSpace(s[prev:]); rest != "" {
		pieces = append(pieces, rest)
	}
	if last == first {
		last = 0
	}
	return strings.Join(pieces, "\n"), []int{first, last}
}

// geminiSegment cuts the supported answer text from a part by UTF-8 byte
// offsets when they are valid and agree with the segment's own text, else
// returns the segment's text: the offsets are checked, not trusted.
func geminiSegment(part string, start, end int, text string, ok bool) string {
	if ok && start >= 0 && start <= end && end <= len(part) && utf8.ValidString(part[start:end]) &&
		(start == len(part) || utf8.RuneStart(part[start])) && (end == len(part) || utf8.RuneStart(part[end])) {
		if s := part[start:end]; text == "" || s == text {
			return s
		}
	}
	return text
}

// LM Studio citation blocks: the assistant message's content is a string
// or a list of blocks; citation blocks (type "citation", or lmstudio-js's
// processing update "citationBlock.create" placed among the content
// blocks: any block with citedText) and a top-level "citations" list carry
// citedText, fileName, fileIdentifier and pageNumber, a number or a
// [start, end] pair (lmstudio-js ProcessingUpdate.ts), taken as 1-based
// although no contract says so: the locator reports a 0-based page as
// such. stats.stopReason, when present, is the stop reason.
func adaptLMStudio(rec *Record, raw json.RawMessage) (string, error) {
	type citation struct {
		CitedText      *string         `json:"citedText"`
		FileName       string          `json:"fileName"`
		FileIdentifier string          `json:"fileIdentifier"`
		PageNumber     json.RawMessage `json:"pageNumber"`
	}
	var msg struct {
		Role      string            `json:"role"`
		Content   json.RawMessage   `json:"content"`
		Citations []json.RawMessage `json:"citations"`
		Stats     *struct {
			StopReason string `json:"stopReason"`
		} `json:"stats"`
	}
	if f, err := unmarshal(raw, &msg); err != nil {
		return f, err
	}
	addCitation := func(at string, cr json.RawMessage) (string, error) {
		var c citation
		if f, err := unmarshal(cr, &c); err != nil {
			return at + f, err
		}
		rc := Citation{Document: ref(rec.Documents, c.FileIdentifier, c.FileName), Quote: c.CitedText, Native: cr}
		first, last, err := lmstudioPages(c.PageNumber)
		if err != nil {
			return at + ".pageNumber", err
		}
		if first > 0 {
			rc.Page = ptr(first)
			if last > first {
				rc.LastPage = ptr(last)
			}
		}
		rec.Citations = append(rec.Citations, rc)
		return "", nil
	}
	var text strings.Builder
	var s string
	if len(msg.Content) > 0 && json.Unmarshal(msg.Content, &s) == nil {
		text.WriteString(s)
	} else if len(msg.Content) > 0 && string(msg.Content) != "null" {
		var blocks []json.RawMessage
		if err := json.Unmarshal(msg.Content, &blocks); err != nil {
			return ".content", fmt.Errorf("%w: want a string or a list of blocks", strictjson.ErrValue)
		}
		for i, br := range blocks {
			var b struct {
				Type      string          `json:"type"`
				Text      string          `json:"text"`
				CitedText json.RawMessage `json:"citedText"`
			}
			if f, err := unmarshal(br, &b); err != nil {
				return fmt.Sprintf(".content[%d]%s", i, f), err
			}
			switch {
			case b.Type == "text":
				text.WriteString(b.Text)
			case b.Type == "citation" || b.Type == "citationBlock" || b.Type == "citationBlock.create" || len(b.CitedText) > 0:
				if f, err := addCitation(fmt.Sprintf(".content[%d]", i), br); err != nil {
					return f, err
				}
			}
		}
	}
	for i, cr := range msg.Citations {
		if f, err := addCitation(fmt.Sprintf(".citations[%d]", i), cr); err != nil {
			return f, err
		}
	}
	rec.Response = text.String()
	if rec.StopReason == "" && msg.Stats != nil {
		rec.StopReason = msg.Stats.StopReason
	}
	return "", nil
}

// lmstudioPages reads an LM Studio pageNumber: absent, a page, or a
// [start, end] pair; 0 when absent. Page 0 can only be a 0-based first
// page: it is refused, not guessed.
func lmstudioPages(raw json.RawMessage) (first, last int, err error) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, 0, nil
	}
	var n int
	if json.Unmarshal(raw, &n) == nil {
		if n < 1 {
			return 0, 0, fmt.Errorf("%w: %d (LM Studio page numbers are read as 1-based)", strictjson.ErrValue, n)
		}
		return n, 0, nil
	}
	var pair []int
	if json.Unmarshal(raw, &pair) != nil || len(pair) != 2 {
		return 0, 0, fmt.Errorf("%w: want a page number or a [start, end] pair", strictjson.ErrValue)
	}
	if pair[0] < 1 || pair[1] < pair[0] {
		return 0, 0, fmt.Errorf("%w: [%d, %d] (want 1 <= start <= end; pages are read as 1-based)", strictjson.ErrValue, pair[0], pair[1])
	}
	return pair[0], pair[1], nil
}

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
		var d langchainDoc
		if f, err := unmarshal(out.Context[id], &d); err != nil {
			return fmt.Sprintf(".context[%d]%s", id, f), err
		}
		src := d.Metadata.Source
		if src == "" {
			src = d.Metadata.FilePath
		}
		rc := Citation{Document: ref(rec.Documents, src, path.Base(strings.ReplaceAll(src, `\`, "/"))), Quote: c.Quote}
		if isWebURL(src) && !mapped(rec.Documents, src) {
			rc.Document, rc.External = src, true
		}
		if rc.Quote == nil {
			rc.Quote, rc.QuoteFrom = ptr(d.PageContent), QuoteFromRetrieval
		}
		if d.Metadata.Page != nil {
			if *d.Metadata.Page < 0 {
				return fmt.Sprintf(".context[%d].metadata.page", id), fmt.Errorf("%w: %d (0-based)", strictjson.ErrValue, *d.Metadata.Page)
			}
			rc.Page = ptr(*d.Metadata.Page + 1)
		}
		rc.PageLabel = labelString(d.Metadata.PageLabel)
		rc.Native = wrapNative([]string{"citation", "document"}, []json.RawMessage{natives[i], out.Context[id]})
		rec.Citations = append(rec.Citations, rc)
	}
	return "", nil
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

// labelString reads a page label given as a string or a number.
func labelString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// llamaSource is the prefix CitationQueryEngine writes before each node's
// text ("Source 3:\n").
var llamaSource = regexp.MustCompile(`^\s*Source \d+:\s*`)

// LlamaIndex CitationQueryEngine response: {"response": "... [1] ...",
// "source_nodes": [{"node": {"text": "Source 1:\n...", "metadata":
// {"file_name", "page_label"}, "start_char_idx", "end_char_idx"},
// "score"}]}. Each citation marker [n] (or [n, m]) after white space or
// punctuation cites source node n; "[0]" in "parts[0]" is an index, not a
// marker. Source nodes the answer does not cite were retrieved, not cited:
// they go verbatim to the record's Retrieval, never to its citations. A
// marker beyond the source nodes cites an unknown document. The "Source
// n:" prefix the engine adds is not part of the quote, which is the node's
// retrieved text (QuoteFromRetrieval); start_char_idx is recorded, not
// trusted.
func adaptLlamaIndex(rec *Record, raw json.RawMessage) (string, error) {
	var resp struct {
		Response    string `json:"response"`
		SourceNodes []struct {
			Node struct {
				Text     string `json:"text"`
				Metadata struct {
					FileName  string          `json:"file_name"`
					FilePath  string          `json:"file_path"`
					PageLabel json.RawMessage `json:"page_label"`
				} `json:"metadata"`
			} `json:"node"`
		} `json:"source_nodes"`
	}
	if f, err := unmarshal(raw, &resp); err != nil {
		return f, err
	}
	var wrap struct {
		SourceNodes []json.RawMessage `json:"source_nodes"`
	}
	_ = json.Unmarshal(raw, &wrap) // decoded strictly above
	nodes := wrap.SourceNodes
	rec.Response = resp.Response
	var cited []int
	for _, m := range bracketMarkers(resp.Response) {
		for _, n := range m.numbers {
			if !slices.Contains(cited, n) {
				cited = append(cited, n)
			}
		}
	}
	for _, n := range cited {
		if n < 1 || n > len(resp.SourceNodes) {
			rec.Citations = append(rec.Citations, Citation{ID: fmt.Sprintf("[%d]", n), Document: fmt.Sprintf("source_nodes[%d]", n-1)})
			continue
		}
		sn := resp.SourceNodes[n-1].Node
		name := sn.Metadata.FileName
		if name == "" {
			name = path.Base(strings.ReplaceAll(sn.Metadata.FilePath, `\`, "/"))
		}
		rc := Citation{ID: fmt.Sprintf("[%d]", n), Document: ref(rec.Documents, sn.Metadata.FileName, name),
			Quote: ptr(llamaSource.ReplaceAllString(sn.Text, "")), QuoteFrom: QuoteFromRetrieval,
			PageLabel: labelString(sn.Metadata.PageLabel), Native: nodes[n-1]}
		rec.Citations = append(rec.Citations, rc)
	}
	for i, node := range nodes {
		if !slices.Contains(cited, i+1) {
			rec.Retrieval = append(rec.Retrieval, node)
		}
	}
	return "", nil
}
