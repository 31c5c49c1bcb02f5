package citations

import (
	"encoding/json"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Formats lists the run formats ReadRuns reads: "run" is RunRecord JSON
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

var envelopeSchema = object(map[string]*schema{
	"arm": nil, "session": nil, "question": nil, "status": nil, "stop_reason": nil,
	"documents": freeSchema, "response": freeSchema,
	"timing": runSchema.keys["timing"],
})

// vendorKeys are, per format, the field names the adapter reads from the
// vendor's payload, folded to their exact spelling: a payload key differing
// only in case would be bound by encoding/json without notice, so it is
// refused.
var vendorKeys = map[string]map[string]string{
	"anthropic": keySet(`type role content text citations cited_text document_index document_title
		start_page_number end_page_number stop_reason`),
	"openai": keySet(`object status output type content text annotations file_id filename value
		file_citation quote incomplete_details reason`),
	"gemini": keySet(`candidates content parts text finishReason groundingMetadata groundingChunks
		groundingSupports retrievedContext web uri title pageNumber segment partIndex startIndex endIndex
		groundingChunkIndices`),
	"lmstudio":   keySet(`role content citations type text citedText fileName fileIdentifier pageNumber stats stopReason`),
	"langchain":  keySet(`context answer citations source_id quote page_content metadata source file_path page page_label`),
	"llamaindex": keySet(`response source_nodes node text metadata file_name file_path page_label`),
}

func keySet(fields string) map[string]string {
	m := map[string]string{}
	for _, k := range strings.Fields(fields) {
		m[fold.String(k)] = k
	}
	return m
}

// ReadRuns reads a run file in the given format (one of Formats, or
// FormatAuto) and returns run records, each validated. Native formats are
// read through their adapter; no adapter trusts a vendor's offsets: they
// are kept in the citation's Native field and every quote is located again
// in the corpus's own text.
func ReadRuns(r io.Reader, file, format string) ([]RunRecord, error) {
	var out []RunRecord
	err := EachRun(r, file, format, func(rec *RunRecord) error {
		out = append(out, *rec)
		return nil
	})
	return out, err
}

// EachRun reads a run file as ReadRuns does and calls fn with each record
// in file order, as it is read, so that a grader can stream files of any
// length; it stops at the first input error or error of fn. fn may keep
// the record.
func EachRun(r io.Reader, file, format string, fn func(*RunRecord) error) error {
	if format == "run" || format == "" {
		return eachRunRecord(r, file, fn)
	}
	if format == FormatAuto {
		return eachAuto(r, file, fn)
	}
	adapt, ok := adapters[format]
	if !ok {
		return &InputError{File: file, Err: fmt.Errorf("%w: format %q (want one of %s)", ErrInvalid, format, strings.Join(Formats, ", "))}
	}
	return eachLine(r, file, func(n int, data []byte) error {
		fail := func(field string, err error) error { return &InputError{File: file, Line: n, Field: field, Err: err} }
		v, f, err := checkKeys(data, envelopeSchema, vendorKeys[format])
		if err != nil {
			return fail(f, err)
		}
		var env Envelope
		if f, err := decodeStrict(data, &env); err != nil {
			return fail(f, err)
		}
		if k := missingKey(v, "arm", "session", "question", "response"); k != "" {
			return fail(k, ErrMissing)
		}
		rec := &RunRecord{Arm: env.Arm, Session: env.Session, Question: env.Question, Status: env.Status,
			StopReason: env.StopReason, Timing: env.Timing, Format: format, Line: n, Citations: []RunCitation{}}
		m, f, err := envelopeDocuments(env.Documents)
		if err != nil {
			return fail(f, err)
		}
		rec.Documents = m
		if f, err := adapt(rec, env.Response); err != nil {
			return fail("response"+f, err)
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
		return nil, "documents", fmt.Errorf("%w: want a list of names or an object of names", ErrInvalid)
	}
	return m, "", nil
}

func indexKey(i int) string { return "document_index:" + strconv.Itoa(i) }

// ref returns how a citation names its document: key when the run's
// mapping knows it, else the first non-empty fallback.
func ref(m Mapping, key string, fallbacks ...string) string {
	if _, ok := m[key]; ok && key != "" {
		return key
	}
	for _, f := range fallbacks {
		if f != "" {
			return f
		}
	}
	return key
}

type adapter func(rec *RunRecord, resp json.RawMessage) (field string, err error)

var adapters = map[string]adapter{
	"anthropic":  adaptAnthropic,
	"openai":     adaptOpenAI,
	"gemini":     adaptGemini,
	"lmstudio":   adaptLMStudio,
	"langchain":  adaptLangChain,
	"llamaindex": adaptLlamaIndex,
}

func unmarshal(raw json.RawMessage, v any) (string, error) {
	f, err := decodeStrict(raw, v)
	if f != "" {
		f = "." + f
	}
	return f, err
}

func ptr[T any](v T) *T { return &v }

// Anthropic Messages API response with citations enabled on the documents:
// content is a list of text blocks, each with optional citations of type
// char_location (plain text documents: 0-based character indices, end
// exclusive), page_location (PDFs: 1-based pages, end exclusive) or
// content_block_location (custom content: block indices). cited_text is
// the quote; document_index is the document's position in the request.
func adaptAnthropic(rec *RunRecord, raw json.RawMessage) (string, error) {
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
		return ".type", fmt.Errorf("%w: %q (want an Anthropic \"message\" object)", ErrInvalid, msg.Type)
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
			}
			if f, err := unmarshal(cr, &c); err != nil {
				return at + f, err
			}
			switch c.Type {
			case "char_location", "page_location", "content_block_location":
			default:
				return at + ".type", fmt.Errorf("%w: citation type %q is not a document citation", ErrInvalid, c.Type)
			}
			if c.DocumentIndex == nil || *c.DocumentIndex < 0 {
				return at + ".document_index", ErrMissing
			}
			rc := RunCitation{Document: ref(rec.Documents, indexKey(*c.DocumentIndex), c.DocumentTitle), Quote: c.CitedText, Claim: block.Text, Native: cr}
			if c.Type == "page_location" {
				if c.StartPageNumber == nil || *c.StartPageNumber < 1 || c.EndPageNumber == nil || *c.EndPageNumber <= *c.StartPageNumber {
					return at, fmt.Errorf("%w: page_location needs 1 <= start_page_number < end_page_number", ErrInvalid)
				}
				rc.Page = ptr(*c.StartPageNumber)
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

// OpenAI: a Responses API response (object "response"), whose message
// output_text parts carry file_citation annotations {file_id, filename,
// index} with index a position in the answer text and no quote, or an
// Assistants thread message (object "thread.message") whose text
// annotations may carry file_citation.quote. A citation without a quote can
// be counted, never verified. url_citation annotations cite no corpus
// document and are skipped.
func adaptOpenAI(rec *RunRecord, raw json.RawMessage) (string, error) {
	type annotation struct {
		Type         string `json:"type"`
		FileID       string `json:"file_id"`
		Filename     string `json:"filename"`
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
	add := func(at string, anns []json.RawMessage) (string, error) {
		for k, ar := range anns {
			var a annotation
			if f, err := unmarshal(ar, &a); err != nil {
				return fmt.Sprintf("%s[%d]%s", at, k, f), err
			}
			if a.Type != "file_citation" {
				continue
			}
			id := a.FileID
			var quote *string
			if a.FileCitation != nil {
				id = a.FileCitation.FileID
				quote = a.FileCitation.Quote
			}
			if quote != nil && strings.TrimSpace(*quote) == "" {
				quote = nil
			}
			rec.Citations = append(rec.Citations, RunCitation{Document: ref(rec.Documents, id, a.Filename), Quote: quote, Native: ar})
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
				Type    string `json:"type"`
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
		return ".object", fmt.Errorf("%w: %q (want \"response\" or \"thread.message\")", ErrInvalid, head.Object)
	}
	rec.Response = text.String()
	return "", nil
}

// Gemini generateContent response with grounding: candidates[0] holds the
// answer parts and groundingMetadata. Each groundingSupport ties a segment
// of the answer (UTF-8 byte offsets into a part) to groundingChunks; a chunk
// from a retrieval tool (retrievedContext) has the document's title or uri
// and the chunk's text, which is the quote. One citation per chunk that a
// support references, in order of first reference: chunks no support
// references are retrieval results, not citations, and go verbatim to the
// record's Retrieval.
func adaptGemini(rec *RunRecord, raw json.RawMessage) (string, error) {
	var resp struct {
		Candidates []struct {
			Content struct {
				Parts []struct {
					Text string `json:"text"`
				} `json:"parts"`
			} `json:"content"`
			FinishReason      string `json:"finishReason"`
			GroundingMetadata *struct {
				GroundingChunks []struct {
					RetrievedContext *struct {
						URI        string  `json:"uri"`
						Title      string  `json:"title"`
						Text       *string `json:"text"`
						PageNumber *int    `json:"pageNumber"`
					} `json:"retrievedContext"`
					Web *struct {
						URI   string `json:"uri"`
						Title string `json:"title"`
					} `json:"web"`
				} `json:"groundingChunks"`
				GroundingSupports []struct {
					Segment struct {
						PartIndex  int    `json:"partIndex"`
						StartIndex int    `json:"startIndex"`
						EndIndex   int    `json:"endIndex"`
						Text       string `json:"text"`
					} `json:"segment"`
					GroundingChunkIndices []int `json:"groundingChunkIndices"`
				} `json:"groundingSupports"`
			} `json:"groundingMetadata"`
		} `json:"candidates"`
	}
	if f, err := unmarshal(raw, &resp); err != nil {
		return f, err
	}
	if len(resp.Candidates) == 0 {
		return ".candidates", ErrMissing
	}
	cand := resp.Candidates[0]
	var text strings.Builder
	for _, p := range cand.Content.Parts {
		text.WriteString(p.Text)
	}
	rec.Response = text.String()
	if rec.StopReason == "" {
		rec.StopReason = cand.FinishReason
	}
	gm := cand.GroundingMetadata
	if gm == nil {
		return "", nil
	}
	byChunk := map[int]int{} // chunk index -> citation index
	var chunkRefs [][]json.RawMessage
	for s, sup := range gm.GroundingSupports {
		partText, okPart := "", false
		if pi := sup.Segment.PartIndex; pi >= 0 && pi < len(cand.Content.Parts) {
			partText, okPart = cand.Content.Parts[pi].Text, true
		}
		claim := geminiSegment(partText, sup.Segment.StartIndex, sup.Segment.EndIndex, sup.Segment.Text, okPart)
		for _, ci := range sup.GroundingChunkIndices {
			if ci < 0 || ci >= len(gm.GroundingChunks) {
				return fmt.Sprintf(".candidates[0].groundingMetadata.groundingSupports[%d].groundingChunkIndices", s), fmt.Errorf("%w: chunk %d of %d", ErrInvalid, ci, len(gm.GroundingChunks))
			}
			k, seen := byChunk[ci]
			if !seen {
				ch := gm.GroundingChunks[ci]
				var rc RunCitation
				switch {
				case ch.RetrievedContext != nil:
					rc.Document = ref(rec.Documents, ch.RetrievedContext.Title, ch.RetrievedContext.URI)
					if _, ok := rec.Documents[ch.RetrievedContext.URI]; ok {
						rc.Document = ch.RetrievedContext.URI
					}
					rc.Quote = ch.RetrievedContext.Text
					if p := ch.RetrievedContext.PageNumber; p != nil && *p > 0 {
						rc.Page = ptr(*p)
					}
				case ch.Web != nil:
					rc.Document = ref(rec.Documents, ch.Web.URI, ch.Web.Title)
				default:
					rc.Document = fmt.Sprintf("groundingChunks[%d]", ci)
				}
				chunkRaw, _ := json.Marshal(ch)
				chunkRefs = append(chunkRefs, []json.RawMessage{chunkRaw})
				k = len(rec.Citations)
				byChunk[ci] = k
				rec.Citations = append(rec.Citations, rc)
			}
			if claim != "" {
				if rec.Citations[k].Claim != "" {
					rec.Citations[k].Claim += " | "
				}
				rec.Citations[k].Claim += claim
			}
			supRaw, _ := json.Marshal(sup)
			chunkRefs[k] = append(chunkRefs[k], supRaw)
		}
	}
	for k := range rec.Citations {
		native, _ := json.Marshal(map[string]any{"chunk": chunkRefs[k][0], "supports": chunkRefs[k][1:]})
		rec.Citations[k].Native = native
	}
	// The chunks no support references, as the vendor wrote them.
	var rawChunks struct {
		Candidates []struct {
			GroundingMetadata *struct {
				GroundingChunks []json.RawMessage `json:"groundingChunks"`
			} `json:"groundingMetadata"`
		} `json:"candidates"`
	}
	_ = json.Unmarshal(raw, &rawChunks) // decoded strictly above
	if rg := rawChunks.Candidates[0].GroundingMetadata; rg != nil && len(rg.GroundingChunks) == len(gm.GroundingChunks) {
		for ci, chunk := range rg.GroundingChunks {
			if _, cited := byChunk[ci]; !cited {
				rec.Retrieval = append(rec.Retrieval, chunk)
			}
		}
	}
	return "", nil
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
// or a list of blocks; blocks of type "citation" (or a top-level
// "citations" list) carry citedText, fileName, fileIdentifier and
// pageNumber (taken as 1-based; the locator reports a 0-based page as
// such). stats.stopReason, when present, is the stop reason.
func adaptLMStudio(rec *RunRecord, raw json.RawMessage) (string, error) {
	type citation struct {
		CitedText      *string `json:"citedText"`
		FileName       string  `json:"fileName"`
		FileIdentifier string  `json:"fileIdentifier"`
		PageNumber     *int    `json:"pageNumber"`
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
		rc := RunCitation{Document: ref(rec.Documents, c.FileIdentifier, c.FileName), Quote: c.CitedText, Native: cr}
		if c.PageNumber != nil {
			if *c.PageNumber < 1 {
				// Page 0 can only be a 0-based first page: say so, do not guess.
				return at + ".pageNumber", fmt.Errorf("%w: %d (LM Studio page numbers are read as 1-based)", ErrInvalid, *c.PageNumber)
			}
			rc.Page = ptr(*c.PageNumber)
		}
		rec.Citations = append(rec.Citations, rc)
		return "", nil
	}
	var text strings.Builder
	var s string
	if len(msg.Content) > 0 && json.Unmarshal(msg.Content, &s) == nil {
		text.WriteString(s)
	} else if len(msg.Content) > 0 {
		var blocks []json.RawMessage
		if err := json.Unmarshal(msg.Content, &blocks); err != nil {
			return ".content", fmt.Errorf("%w: want a string or a list of blocks", ErrInvalid)
		}
		for i, br := range blocks {
			var b struct {
				Type string `json:"type"`
				Text string `json:"text"`
			}
			if f, err := unmarshal(br, &b); err != nil {
				return fmt.Sprintf(".content[%d]%s", i, f), err
			}
			switch b.Type {
			case "text":
				text.WriteString(b.Text)
			case "citation":
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

// LangChain RAG chain output with citations (the "cited answer" pattern):
// {"context": [Document...], "answer": {"answer": "...", "citations": [...]}}
// where a citation is {"source_id": N, "quote": "..."} or just N, an index
// into context. A Document's metadata.page is 0-based (PyPDFLoader) and
// becomes page+1; page_label is kept as a label; start_index is recorded,
// not trusted. A citation without a quote quotes its whole chunk.
func adaptLangChain(rec *RunRecord, raw json.RawMessage) (string, error) {
	var out struct {
		Context []json.RawMessage `json:"context"`
		Answer  json.RawMessage   `json:"answer"`
	}
	if f, err := unmarshal(raw, &out); err != nil {
		return f, err
	}
	var ans struct {
		Answer    string            `json:"answer"`
		Citations []json.RawMessage `json:"citations"`
	}
	var plain string
	if json.Unmarshal(out.Answer, &plain) == nil {
		rec.Response = plain
		return "", nil // a plain answer emits no citations
	}
	if f, err := unmarshal(out.Answer, &ans); err != nil {
		return ".answer" + f, err
	}
	rec.Response = ans.Answer
	for i, cr := range ans.Citations {
		at := fmt.Sprintf(".answer.citations[%d]", i)
		var c struct {
			SourceID *int    `json:"source_id"`
			Quote    *string `json:"quote"`
		}
		var id int
		if json.Unmarshal(cr, &id) == nil {
			c.SourceID = &id
		} else if f, err := unmarshal(cr, &c); err != nil {
			return at + f, err
		}
		if c.SourceID == nil {
			return at + ".source_id", ErrMissing
		}
		if *c.SourceID < 0 || *c.SourceID >= len(out.Context) {
			rec.Citations = append(rec.Citations, RunCitation{Document: fmt.Sprintf("context[%d]", *c.SourceID), Quote: c.Quote, Native: cr})
			continue
		}
		var d langchainDoc
		if f, err := unmarshal(out.Context[*c.SourceID], &d); err != nil {
			return fmt.Sprintf(".context[%d]%s", *c.SourceID, f), err
		}
		src := d.Metadata.Source
		if src == "" {
			src = d.Metadata.FilePath
		}
		rc := RunCitation{Document: ref(rec.Documents, src, path.Base(strings.ReplaceAll(src, `\`, "/"))), Quote: c.Quote}
		if rc.Quote == nil {
			rc.Quote = ptr(d.PageContent)
		}
		if d.Metadata.Page != nil {
			if *d.Metadata.Page < 0 {
				return fmt.Sprintf(".context[%d].metadata.page", *c.SourceID), fmt.Errorf("%w: %d (0-based)", ErrInvalid, *d.Metadata.Page)
			}
			rc.Page = ptr(*d.Metadata.Page + 1)
		}
		rc.PageLabel = labelString(d.Metadata.PageLabel)
		rc.Native, _ = json.Marshal(map[string]json.RawMessage{"citation": cr, "document": out.Context[*c.SourceID]})
		rec.Citations = append(rec.Citations, rc)
	}
	return "", nil
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

var (
	llamaMarker = regexp.MustCompile(`\[(\d{1,4})\]`)
	llamaSource = regexp.MustCompile(`^\s*Source \d+:\s*`)
)

// LlamaIndex CitationQueryEngine response: {"response": "... [1] ...",
// "source_nodes": [{"node": {"text": "Source 1:\n...", "metadata":
// {"file_name", "page_label"}, "start_char_idx", "end_char_idx"},
// "score"}]}. Source nodes the answer does not cite with [n] were
// retrieved, not cited: they go verbatim to the record's Retrieval, never
// to its citations. A marker beyond the source nodes
// cites an unknown document. The "Source n:" prefix the engine adds is not
// part of the quote; start_char_idx is recorded, not trusted.
func adaptLlamaIndex(rec *RunRecord, raw json.RawMessage) (string, error) {
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
	var nodes []json.RawMessage
	var wrap struct {
		SourceNodes []json.RawMessage `json:"source_nodes"`
	}
	_ = json.Unmarshal(raw, &wrap)
	nodes = wrap.SourceNodes
	rec.Response = resp.Response
	var cited []int
	for _, m := range llamaMarker.FindAllStringSubmatch(resp.Response, -1) {
		n, _ := strconv.Atoi(m[1])
		if !slices.Contains(cited, n) {
			cited = append(cited, n)
		}
	}
	for _, n := range cited {
		if n < 1 || n > len(resp.SourceNodes) {
			rec.Citations = append(rec.Citations, RunCitation{ID: fmt.Sprintf("[%d]", n), Document: fmt.Sprintf("source_nodes[%d]", n-1)})
			continue
		}
		sn := resp.SourceNodes[n-1].Node
		name := sn.Metadata.FileName
		if name == "" {
			name = path.Base(strings.ReplaceAll(sn.Metadata.FilePath, `\`, "/"))
		}
		rc := RunCitation{ID: fmt.Sprintf("[%d]", n), Document: ref(rec.Documents, sn.Metadata.FileName, name),
			Quote: ptr(llamaSource.ReplaceAllString(sn.Text, "")), PageLabel: labelString(sn.Metadata.PageLabel), Native: nodes[n-1]}
		rec.Citations = append(rec.Citations, rc)
	}
	for i, node := range nodes {
		if !slices.Contains(cited, i+1) {
			rec.Retrieval = append(rec.Retrieval, node)
		}
	}
	return "", nil
}
