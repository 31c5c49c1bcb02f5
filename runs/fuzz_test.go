package runs

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
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
	// Vendor shapes met in the wild: both spellings of a Gemini key, a support into a
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

// FuzzRecordsApart: reading a run file gives, record by record, what
// reading each record alone gives: the record at its own line (after as
// many blank lines) and read in the file's format (with FormatAuto, the
// one its first record shows). A record keeps bytes of its line
// (retrieval cards, a vendor's citations, Gemini's chunks), so a reader
// that let a later line share its memory breaks this. When the whole read
// fails, its error is the first failing record's alone, and the records
// before it are the same.
func FuzzRecordsApart(f *testing.F) {
	for _, s := range apartSeeds(f) {
		f.Add(s.data, s.which)
	}
	formats := append([]string{FormatAuto}, Formats...)
	f.Fuzz(func(t *testing.T, data string, which uint8) {
		// Each record alone is read after its line's blank lines: the
		// work grows with the square of the lines.
		if len(data) > 1<<16 || strings.Count(data, "\n") > 256 {
			return
		}
		format := formats[int(which)%len(formats)]
		whole, werr := ReadRuns(strings.NewReader(data), "in.jsonl", format)

		var alone []Record
		var aerr error
		lineFormat := format
		for i, line := range strings.SplitAfter(data, "\n") {
			recs, err := ReadRuns(strings.NewReader(strings.Repeat("\n", i)+line), "in.jsonl", lineFormat)
			alone = append(alone, recs...)
			if err != nil {
				aerr = err
				break
			}
			if lineFormat == FormatAuto && len(recs) > 0 {
				lineFormat = formatShown(t, line, i == 0)
			}
		}

		if (werr == nil) != (aerr == nil) || werr != nil && werr.Error() != aerr.Error() {
			t.Fatalf("%s: the whole file: %v; its records alone: %v", format, werr, aerr)
		}
		if len(whole) != len(alone) {
			t.Fatalf("%s: %d records in the whole file, %d alone", format, len(whole), len(alone))
		}
		for i := range whole {
			if !reflect.DeepEqual(whole[i], alone[i]) {
				t.Fatalf("%s: record %d, line %d in the whole file, %d alone:\nwhole %s\nalone %s", format, i+1, whole[i].Line, alone[i].Line, shown(whole[i]), shown(alone[i]))
			}
		}
	})
}

// shown is rec in JSON, or why it is not JSON and its retrieval cards
// (which a record keeps as bytes of its line).
func shown(rec Record) string {
	data, err := json.Marshal(rec)
	if err != nil {
		return fmt.Sprintf("(not JSON: %v; retrieval %q)", err, rec.Retrieval)
	}
	return string(data)
}

// formatShown is the format eachAuto reads a file in whose first record
// is line (the file's first line when first): a line that is not JSON is
// left to the run record reader, else DetectFormat says.
func formatShown(t *testing.T, line string, first bool) string {
	t.Helper()
	data := strings.TrimRight(line, "\r\n")
	if first {
		data = strings.TrimPrefix(data, "\uFEFF")
	}
	if !json.Valid([]byte(data)) {
		return "run"
	}
	format, err := DetectFormat([]byte(data))
	if err != nil {
		t.Fatalf("a record read in format auto shows none: %v", err)
	}
	return format
}

// apartSeed is a seed of FuzzRecordsApart: a file, and which format it is
// read in (0 is FormatAuto, i is Formats[i-1]).
type apartSeed struct {
	data  string
	which uint8
}

// apartSeeds are files of several records of different lengths in each
// format: the adapter fixtures' records of one format together, in file
// order, longest first (where a reused line buffer overwrote a kept
// record), and spaced by blank lines with a short one repeated; run
// records with retrieval cards and native citations, the fixtures' and
// the worked examples' (../shared/grading/runs.jsonl, when present); and
// a file whose middle record is at fault.
func apartSeeds(f *testing.F) []apartSeed {
	var seeds []apartSeed
	add := func(format string, lines []string) {
		which := uint8(slices.Index(Formats, format) + 1)
		byLength := slices.Clone(lines)
		slices.SortStableFunc(byLength, func(a, b string) int { return len(b) - len(a) })
		spaced := strings.Join(lines, "\n\n") + "\n\n \n" + byLength[len(byLength)-1]
		seeds = append(seeds,
			apartSeed{strings.Join(lines, "\n") + "\n", which},
			apartSeed{strings.Join(byLength, "\n") + "\n", which},
			apartSeed{strings.Join(byLength, "\n"), 0},
			apartSeed{spaced, which})
	}
	for _, format := range Formats[1:] {
		files, _ := filepath.Glob(filepath.Join("testdata", "adapters", format+"-*.jsonl"))
		var lines []string
		for _, file := range append([]string{filepath.Join("testdata", "adapters", format+".jsonl")}, files...) {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			lines = append(lines, strings.Split(strings.TrimSpace(string(data)), "\n")...)
		}
		add(format, lines)
	}

	// Run records: cards and native citations of lengths that rise and
	// fall from record to record.
	var runLines []string
	for i := range 6 {
		card := fmt.Sprintf(`{"title": "a.pdf", "text": %q, "score": 0.%d}`, strings.Repeat("card ", 1+(i*7)%11), i)
		native := fmt.Sprintf(`{"type": "char_location", "cited_text": %q, "start_char_index": %d}`, strings.Repeat("y", 1+(i*5)%9), i)
		runLines = append(runLines, fmt.Sprintf(`{"arm": "A%d", "session": %d, "question": "q%02d", "status": "ok", "response": %q, "citations": [{"id": "c1", "document": "a.pdf", "quote": "y", "native": %s}], "retrieval": [%s]}`,
			i, 1+i%2, i, strings.Repeat("answer ", 1+(i*3)%5), native, card))
	}
	add("run", runLines)
	for _, file := range []string{filepath.Join("..", "fixtures", "runs", "graded.jsonl"), filepath.Join("..", "fixtures", "citations", "run.jsonl")} {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		add("run", strings.Split(strings.TrimSpace(string(data)), "\n"))
	}
	if data, err := os.ReadFile(filepath.Join("..", "..", "shared", "grading", "runs.jsonl")); err == nil {
		var lines []string
		recs := strings.Split(strings.TrimSpace(string(data)), "\n")
		for i, line := range recs[:min(12, len(recs))] {
			line = strings.TrimSuffix(strings.TrimSpace(line), "}")
			lines = append(lines, fmt.Sprintf(`%s, "retrieval": [{"document": "supplier-qa.pdf", "page": 2, "text": %q}]}`, line, strings.Repeat("card ", 1+(i*7)%13)))
		}
		add("run", lines)
	}
	bad := slices.Clone(runLines[:3])
	bad[1] = strings.Replace(bad[1], `"status"`, `"Status"`, 1)
	seeds = append(seeds, apartSeed{strings.Join(bad, "\n"), 0}, apartSeed{strings.Join(bad, "\n"), 1})
	return seeds
}
