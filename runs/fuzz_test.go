package runs

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/internal/strictjson"
)

// FuzzReadRuns feeds the run readers untrusted JSON Lines in every
// native format: they must never panic, and every refusal must be an
// *InputError naming the file and a line of it.
func FuzzReadRuns(f *testing.F) {
	for i, format := range Formats {
		if format == "run" {
			continue
		}
		// The format's own fixture and the published payloads read in it.
		files, _ := filepath.Glob(filepath.Join("testdata", "adapters", format+"-*.jsonl"))
		for _, file := range append(files, filepath.Join("testdata", "adapters", format+".jsonl")) {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(string(data), uint8(i))
		}
	}
	// Shapes of issue 18: both spellings of a Gemini key, a support into a
	// missing chunk, an LM Studio page range, LangChain's XML parser output,
	// markers without citations.
	f.Add(`{"arm": "A", "session": 1, "question": "q", "response": {"candidates": [{"content": {"parts": [{"text": "x"}]}, "grounding_metadata": {"grounding_chunks": [], "grounding_supports": [{"segment": {"end_index": 1}, "grounding_chunk_indices": [2]}]}, "groundingMetadata": null}]}}`, uint8(3))
	f.Add(`{"arm": "A", "session": 1, "question": "q", "response": {"role": "assistant", "content": [{"type": "citationBlock.create", "citedText": "x", "fileName": "a.pdf", "pageNumber": [1, 2]}]}}`, uint8(4))
	f.Add(`{"arm": "A", "session": 1, "question": "q", "response": {"cited_answer": [{"answer": "x"}, {"citations": [{"citation": [{"source_id": "0"}, {"quote": "q"}]}]}]}}`, uint8(5))
	f.Add(`{"arm": "A", "session": 1, "question": "q", "response": {"type": "message", "content": [{"type": "text", "text": "x [1][2] parts[0]"}]}}`, uint8(1))
	f.Add(`{"arm": "A", "session": 1, "question": "q01", "status": "ok", "response": "x", "citations": [{"id": "c1", "document": "a.pdf", "page": 2, "quote": "y"}]}`, uint8(0))
	f.Add(`{"arm": "A", "session": 1, "question": "q01", "status": "ok", "response": "x", "citations": [{"id": "c1", "document": "file-2", "quote": "y"}], "retrieval": [{"text": "y", "score": 0.5}], "documents": {"file-2": ["a.pdf", "b.pdf"], "file-3": "c.pdf", "file-4": []}}`, uint8(0))
	f.Fuzz(func(t *testing.T, data string, which uint8) {
		if len(data) > 1<<16 {
			return
		}
		lines := strings.Count(data, "\n") + 1
		check := func(err error) {
			if err == nil {
				return
			}
			var ie *InputError
			if !errors.As(err, &ie) || ie.File != "in.jsonl" || ie.Line < 0 || ie.Line > lines {
				t.Fatalf("refusal without a position in the file: %v", err)
			}
		}
		format := Formats[int(which)%len(Formats)]
		// The run records' tree decoder agrees with encoding/json.
		for _, line := range strings.Split(data, "\n") {
			v, err := parseRunLine([]byte(line))
			if err != nil || v.Kind != strictjson.Object {
				continue
			}
			var got, want Record
			_, err = decodeRunRecord(v, []byte(line), &got)
			jerr := json.Unmarshal([]byte(line), &want)
			if (err == nil) != (jerr == nil) || err == nil && !reflect.DeepEqual(got, want) {
				t.Fatalf("%q: tree decoder %v %+v; encoding/json %v %+v", line, err, got, jerr, want)
			}
		}
		_, err := ReadRuns(strings.NewReader(data), "in.jsonl", format)
		check(err)
	})
}
