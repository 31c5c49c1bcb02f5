package runs

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/citecheck/citecheck/internal/strictjson"
)

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
