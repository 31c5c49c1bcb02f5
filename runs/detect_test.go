package runs

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/fixtures"
	"github.com/citecheck/citecheck/internal/schematest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// firstLine returns the first record of testdata/adapters/<format>.jsonl.
func firstLine(t *testing.T, format string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "adapters", format+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return schematest.Lines(t, data)[0]
}

// editJSON decodes a record, lets edit change it, and encodes it again.
func editJSON(t *testing.T, line string, edit func(m map[string]any) any) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(edit(m))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func response(m map[string]any) map[string]any { return m["response"].(map[string]any) }

// evalRuns returns the evaluation bank's runs (fixtures.EvalRuns): arm A
// as Anthropic envelopes, arm B as LM Studio envelopes, over a plan of its
// 40 questions (Q01-Q40) in three repetitions.
func evalRuns(t *testing.T) map[string][]byte {
	t.Helper()
	var ids []string
	for i := 1; i <= 40; i++ {
		ids = append(ids, fmt.Sprintf("Q%02d", i))
	}
	type order struct {
		Repetition int      `json:"repetition"`
		Questions  []string `json:"questions"`
	}
	type session struct {
		Arm        string `json:"arm"`
		Repetition int    `json:"repetition"`
	}
	var p struct {
		Orders   []order   `json:"orders"`
		Sessions []session `json:"sessions"`
	}
	for r := 1; r <= 3; r++ {
		p.Orders = append(p.Orders, order{r, ids})
		p.Sessions = append(p.Sessions, session{"A", r}, session{"B", r})
	}
	plan, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	a, b, err := fixtures.EvalRuns(plan)
	if err != nil {
		t.Fatal(err)
	}
	return map[string][]byte{"anthropic": a, "lmstudio": b}
}

// TestDetectFormat: every record of every native fixture and run file is
// recognized as its format; unclear shapes are errors naming the --format
// they look like, never guesses.
func TestDetectFormat(t *testing.T) {
	type tc struct {
		name, record string
		want         string // the format, or "" for an error
		errHas       string // a part of the error's text
		why          string
	}
	var cases []tc
	for _, format := range Formats[1:] {
		data, err := os.ReadFile(filepath.Join("testdata", "adapters", format+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range schematest.Lines(t, data) {
			cases = append(cases, tc{fmt.Sprintf("adapters/%s.jsonl:%d", format, i+1), line, format, "",
				"the native fixture of " + format + " has that vendor's own shape"})
		}
	}
	for format, data := range evalRuns(t) {
		for i, line := range schematest.Lines(t, data) {
			cases = append(cases, tc{fmt.Sprintf("fixtures.EvalRuns %s:%d", format, i+1), line, format, "",
				"the evaluation bank's envelopes have their vendor's shape"})
		}
	}
	for name, data := range map[string][]byte{"fixtures/citations/run.jsonl": fixtures.Run(), "fixtures/runs/graded.jsonl": fixtures.GradedRun()} {
		for i, line := range schematest.Lines(t, data) {
			cases = append(cases, tc{fmt.Sprintf("%s:%d", name, i+1), line, "run", "", "a run record's response is the answer text"})
		}
	}
	anthropic, openai, gemini := firstLine(t, "anthropic"), firstLine(t, "openai"), firstLine(t, "gemini")
	lmstudio, langchain, llamaindex := firstLine(t, "lmstudio"), firstLine(t, "langchain"), firstLine(t, "llamaindex")
	bare := func(line string) string {
		return editJSON(t, line, func(m map[string]any) any { return m["response"] })
	}
	cases = append(cases,
		tc{"run record without response", `{"arm": "A", "session": 1, "question": "q", "status": "ok", "citations": []}`, "run", "",
			"citations and no response: a run record, whose reader then names the missing key"},
		tc{"bare Anthropic message", bare(anthropic), "", "looks like an Anthropic Messages response without an envelope",
			"a vendor's response without arm, session and question must be wrapped; the error says how"},
		tc{"bare Anthropic message names the format", bare(anthropic), "", "use --format anthropic", "the likely --format is named"},
		tc{"bare OpenAI response", bare(openai), "", "use --format openai", "object: response"},
		tc{"bare Gemini response", bare(gemini), "", "use --format gemini", "candidates"},
		tc{"bare LangChain output", bare(langchain), "", "use --format langchain", "answer beside context"},
		tc{"bare LlamaIndex response", bare(llamaindex), "", "LlamaIndex response (response, source_nodes) without an envelope",
			"its response key is text, like a run record's, but source_nodes and no arm say otherwise"},
		tc{"bare LM Studio message", bare(lmstudio), "", "use --format lmstudio", "citation blocks"},
		tc{"Anthropic message without content", editJSON(t, anthropic, func(m map[string]any) any {
			delete(response(m), "content")
			return m
		}), "", "looks like an Anthropic Messages response: use --format anthropic",
			"type message alone is not sure: the error names the likely format"},
		tc{"assistant message without LM Studio's keys", editJSON(t, lmstudio, func(m map[string]any) any {
			m["response"] = map[string]any{"role": "assistant", "content": "Orders must be delivered within 10 working days."}
			return m
		}), "", "looks like an LM Studio assistant message: use --format lmstudio",
			"any chat API has role and content: only citation blocks, citations or stats are LM Studio's own"},
		tc{"LM Studio message with stats only", editJSON(t, lmstudio, func(m map[string]any) any {
			response(m)["content"] = "Orders must be delivered within 10 working days."
			return m
		}), "lmstudio", "", "stats is LM Studio's own key"},
		tc{"LangChain answer without context", editJSON(t, langchain, func(m map[string]any) any {
			m["response"] = map[string]any{"answer": "Within 10 working days."}
			return m
		}), "", "use --format langchain", "a lone answer string could be any chain's output"},
		tc{"LangChain answer object without context", editJSON(t, langchain, func(m map[string]any) any {
			delete(response(m), "context")
			return m
		}), "langchain", "", "an answer object with citations is the cited-answer pattern"},
		tc{"LlamaIndex response without source nodes", editJSON(t, llamaindex, func(m map[string]any) any {
			delete(response(m), "source_nodes")
			return m
		}), "", "use --format llamaindex", "response and metadata alone resemble LlamaIndex, not surely"},
		tc{"Gemini with snake_case keys", editJSON(t, gemini, func(m map[string]any) any {
			c := response(m)["candidates"].([]any)[0].(map[string]any)
			c["grounding_metadata"], c["finish_reason"] = c["groundingMetadata"], c["finishReason"]
			delete(c, "groundingMetadata")
			delete(c, "finishReason")
			return m
		}), "gemini", "",
			"the Python SDK's model_dump() writes snake_case keys, which the gemini adapter reads as well"},
		tc{"LangChain XML parser output", `{"arm": "D", "session": 1, "question": "q", "response": {"cited_answer": [{"answer": "x"}, {"citations": []}]}}`,
			"langchain", "", "cited_answer is the XMLOutputParser's output of LangChain's citation guide"},
		tc{"two vendors' shapes", editJSON(t, gemini, func(m map[string]any) any {
			response(m)["source_nodes"] = []any{}
			return m
		}), "", "several formats (gemini, llamaindex)", "candidates and source_nodes: no guess between two sure shapes"},
		tc{"empty response object", `{"arm": "A", "session": 1, "question": "q", "response": {}}`, "", "no vendor format",
			"an envelope whose response shows nothing"},
		tc{"null response", `{"arm": "A", "session": 1, "question": "q", "response": null, "citations": []}`, "", "the response is null",
			"a null response shows no format"},
		tc{"response is a list", `{"arm": "A", "session": 1, "question": "q", "response": [1]}`, "", "a JSON array",
			"neither answer text nor a vendor's object"},
		tc{"not an object", `[1, 2]`, "", "not a JSON object", "a record is an object"},
		tc{"no known key", `{"answer_text": "x"}`, "", "neither a run record", "nothing of either shape"},
	)
	for _, c := range cases {
		got, err := DetectFormat([]byte(c.record))
		switch {
		case c.want != "" && (err != nil || got != c.want):
			t.Errorf("%s: got %q, %v; want %q (%s)", c.name, got, err, c.want, c.why)
		case c.want == "" && err == nil:
			t.Errorf("%s: got %q, want an error with %q (%s)", c.name, got, c.errHas, c.why)
		case c.want == "" && !errors.Is(err, ErrUnknownFormat):
			t.Errorf("%s: error %v does not wrap ErrUnknownFormat", c.name, err)
		case c.want == "" && !strings.Contains(err.Error(), c.errHas):
			t.Errorf("%s: error %q lacks %q (%s)", c.name, err, c.errHas, c.why)
		}
	}
}

// TestEachRunAuto: FormatAuto reads every native fixture and run file as
// its own format does, line numbers included, from a stream read once;
// an unclear first record is an input error naming file and line.
func TestEachRunAuto(t *testing.T) {
	read := func(data, format string) ([]Record, error) {
		// A reader that is not a strings.Reader: nothing may seek back.
		return ReadRuns(bufio.NewReader(strings.NewReader(data)), "f.jsonl", format)
	}
	files := map[string]string{"run": string(fixtures.Run()), "run (graded)": string(fixtures.GradedRun())}
	for format, data := range evalRuns(t) {
		files[format+" (eval)"] = string(data)
	}
	for _, format := range Formats[1:] {
		data, err := os.ReadFile(filepath.Join("testdata", "adapters", format+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		files[format] = string(data)
	}
	for name, data := range files {
		format, _, _ := strings.Cut(name, " ")
		want, err := read(data, format)
		if err != nil {
			t.Fatal(err)
		}
		// A byte-order mark and blank lines before the first record.
		for _, prefix := range []string{"", "\uFEFF\n  \n"} {
			got, err := read(prefix+data, FormatAuto)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if prefix != "" {
				for i := range want {
					want[i].Line += 2
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s (prefix %q): auto read differs from --format %s", name, prefix, format)
			}
			if prefix != "" {
				for i := range want {
					want[i].Line -= 2
				}
			}
		}
	}

	bad := []struct{ name, data, want string }{
		{"bad second line", firstLine(t, "anthropic") + "\n" + `{"arm": "B"}` + "\n", "f.jsonl:2: "},
		{"unclear first record", `{"arm": "A", "session": 1, "question": "q", "response": {}}` + "\n", "f.jsonl:1: response: cannot tell the run format"},
		{"first line not JSON", "\n{\"arm\": \n", "f.jsonl:2: arm: invalid value: invalid JSON"},
		{"duplicate key in a vendor file", strings.Replace(firstLine(t, "gemini"), `"finishReason": "STOP"`, `"finishReason": "STOP", "finishReason": "STOP"`, 1) + "\n", "duplicate key"},
	}
	for _, b := range bad {
		_, err := read(b.data, FormatAuto)
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: error %v, want one with %q", b.name, err, b.want)
		}
		var ie *InputError
		if !errors.As(err, &ie) {
			t.Errorf("%s: %T is not an *InputError", b.name, err)
		}
	}
	if got, err := read("", FormatAuto); err != nil || len(got) != 0 {
		t.Errorf("empty file: %v, %v; want no records and no error", got, err)
	}
}

// TestMixedFormatsSaid: a line of another format than the file's is
// refused as a file that mixes formats, naming both, not by the fault the
// other format's shape makes in this one's reader.
func TestMixedFormatsSaid(t *testing.T) {
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join("testdata", "adapters", name))
		require.NoError(t, err)
		return strings.SplitN(string(data), "\n", 2)[0] + "\n"
	}
	anthropic, lmstudio := read("anthropic.jsonl"), read("lmstudio.jsonl")
	run := `{"arm": "A", "session": 1, "question": "q", "status": "ok", "response": "x", "citations": []}` + "\n"
	for _, tc := range []struct {
		in, format, want, why string
	}{
		{anthropic + lmstudio, FormatAuto, "f.jsonl:2: the file mixes formats: this line is a lmstudio envelope, but the file is read as an anthropic envelope", "two vendors"},
		{run + anthropic, FormatAuto, "f.jsonl:2: the file mixes formats: this line is an anthropic envelope, but the file is read as a run record", "an envelope after a run record"},
		{anthropic + run, FormatAuto, "f.jsonl:2: the file mixes formats: this line is a run record, but the file is read as an anthropic envelope", "a run record after an envelope"},
		{lmstudio, "anthropic", "f.jsonl:1: the file mixes formats: this line is a lmstudio envelope, but the file is read as an anthropic envelope", "--format names another vendor"},
	} {
		err := EachRun(strings.NewReader(tc.in), "f.jsonl", tc.format, func(*Record) error { return nil })
		require.ErrorIs(t, err, ErrMixedFormats, tc.why)
		assert.Contains(t, err.Error(), tc.want, tc.why)
	}
	// A line that is no format's own keeps its own fault.
	err := EachRun(strings.NewReader(run+`{"arm": "A", "session": 1, "question": "q", "status": "ok", "response": "x", "citations": [], "bogus": 1}`+"\n"), "f.jsonl", FormatAuto, func(*Record) error { return nil })
	require.Error(t, err)
	assert.NotErrorIs(t, err, ErrMixedFormats)
}
