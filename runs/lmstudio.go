package runs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/citecheck/citecheck/internal/strictjson"
)

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
			// The vendor's page, not the file, is at fault: the citation is
			// kept and graded as malformed.
			rc.Fault = "pageNumber " + string(bytes.Join(bytes.Fields(c.PageNumber), nil)) + ": " + strings.TrimPrefix(err.Error(), strictjson.ErrValue.Error()+": ")
		} else if first > 0 {
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
// page: it is a fault of the citation, not guessed.
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
