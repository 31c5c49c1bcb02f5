package runs

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
)

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
		key := sn.Metadata.FileName // the mapping's key: the file name, else the path
		if !mapped(rec.Documents, key) && mapped(rec.Documents, sn.Metadata.FilePath) {
			key = sn.Metadata.FilePath
		}
		rc := Citation{ID: fmt.Sprintf("[%d]", n), Document: ref(rec.Documents, key, name),
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
