package runs

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/citecheck/citecheck/internal/strictjson"
)

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
	var head struct {
		Object string `json:"object"`
	}
	if f, err := unmarshal(raw, &head); err != nil {
		return f, err
	}
	var text strings.Builder
	var f string
	var err error
	switch head.Object {
	case "response":
		f, err = openAIResponse(rec, raw, &text)
	case "thread.message":
		f, err = openAIThreadMessage(rec, raw, &text)
	default:
		return ".object", fmt.Errorf("%w: %q (want \"response\" or \"thread.message\")", strictjson.ErrValue, head.Object)
	}
	if err != nil {
		return f, err
	}
	rec.Response = text.String()
	return "", nil
}

// openAIResponse reads a Responses API response: the output_text parts of
// its messages, their annotations, and its status as the stop reason.
func openAIResponse(rec *Record, raw json.RawMessage, text *strings.Builder) (string, error) {
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
	// The file_search_call items come before the message that cites them
	// or after it: every result is gathered before any annotation is read.
	retrieved := map[string]*openAIResult{} // file id -> its best-scored result
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
	cited := map[string]bool{} // file ids the annotations cite
	for o, item := range resp.Output {
		if item.Type != "message" {
			continue
		}
		for c, part := range item.Content {
			if part.Type != "output_text" {
				continue
			}
			text.WriteString(part.Text)
			if f, err := openAIAnnotations(rec, retrieved, cited, fmt.Sprintf(".output[%d].content[%d].annotations", o, c), part.Annotations); err != nil {
				return f, err
			}
		}
	}
	// What was retrieved from a file no annotation cites goes verbatim to
	// the record's retrieval (decoded strictly above; read again as bytes).
	var rawOut struct {
		Output []struct {
			Type    string            `json:"type"`
			Results []json.RawMessage `json:"results"`
		} `json:"output"`
	}
	_ = json.Unmarshal(raw, &rawOut)
	for o, item := range resp.Output {
		if item.Type != "file_search_call" {
			continue
		}
		for k, r := range item.Results {
			if r != nil && !cited[r.FileID] && o < len(rawOut.Output) && k < len(rawOut.Output[o].Results) {
				rec.Retrieval = append(rec.Retrieval, rawOut.Output[o].Results[k])
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
	return "", nil
}

// openAIThreadMessage reads an Assistants thread message: its text parts
// and their annotations. It retrieves nothing, so a quote is the
// annotation's own or none.
func openAIThreadMessage(rec *Record, raw json.RawMessage, text *strings.Builder) (string, error) {
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
		if f, err := openAIAnnotations(rec, nil, nil, fmt.Sprintf(".content[%d].text.annotations", c), part.Text.Annotations); err != nil {
			return f, err
		}
	}
	return "", nil
}

// openAIAnnotations adds to rec the citations among one text part's
// annotations anns, found at the JSON path at. A file_citation without a
// quote of its own quotes the cited file's best retrieved result.
func openAIAnnotations(rec *Record, retrieved map[string]*openAIResult, cited map[string]bool, at string, anns []json.RawMessage) (string, error) {
	// The type keeps its name: a type fault's message names it.
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
		if cited != nil {
			cited[id] = true
		}
		rec.Citations = append(rec.Citations, Citation{Document: ref(rec.Documents, id, a.Filename), Quote: quote, QuoteFrom: from, Native: ar})
	}
	return "", nil
}

// openAIResult is one result of a Responses file_search_call.
type openAIResult struct {
	FileID string  `json:"file_id"`
	Score  float64 `json:"score"`
	Text   *string `json:"text"`
}
