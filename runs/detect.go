package runs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/citecheck/citecheck/internal/strictjson"
)

// FormatAuto asks EachRun and ReadRuns to tell a run file's format from
// the shape of its first record (DetectFormat); the rest of the file is
// read in that format.
const FormatAuto = "auto"

// ErrUnknownFormat reports a first record whose shape DetectFormat cannot
// tie to one format with certainty; the error's text names the format it
// looks like, when any.
var ErrUnknownFormat = inputerr.New("cannot tell the run format")

// ErrMixedFormats reports a line of another format than the file's: one
// run file holds the records of one format.
var ErrMixedFormats = inputerr.New("the file mixes formats")

// mixedFormats returns the Explain of a reader of format: a line that
// fails to read and whose shape is another format's own is a line of a
// file that mixes formats, which its fault would not say.
func mixedFormats(format string) func(data []byte, fault *inputerr.Error) error {
	return func(data []byte, fault *inputerr.Error) error {
		other, _, err := detectFormat(data)
		if err != nil || other == format {
			return fault
		}
		return &InputError{File: fault.File, Line: fault.Line, Err: fmt.Errorf("%w: this line is %s, but the file is read as %s (the format of its first record, or --format); one file holds one format: put each format's records in a file of their own",
			ErrMixedFormats, formatName(other), formatName(format))}
	}
}

// formatName names a format in a message.
func formatName(format string) string {
	switch {
	case format == "run":
		return "a run record"
	case strings.ContainsRune("aeiou", rune(format[0])):
		return "an " + format + " envelope"
	}
	return "a " + format + " envelope"
}

// DetectFormat names the run format of one record (a line of a run file)
// by its shape, and returns an error wrapping ErrUnknownFormat when the
// shape is unclear:
//
//   - a record whose "response" is a string is a run record ("run"); so is
//     one without a response that has citations (the reader then says
//     what is missing);
//   - a record whose "response" is an object is an envelope, and the
//     object's shape names the vendor: an Anthropic message ("type":
//     "message" with a content list), an OpenAI Responses response or
//     Assistants thread message ("object": "response" or
//     "thread.message"), a Gemini generateContent response (a candidates
//     list, with camelCase or snake_case keys), an LM Studio assistant
//     message (a role, with citation blocks, a citations list or stats), a
//     LangChain cited-answer output (an answer beside its context, an
//     answer object, or the XML parser's cited_answer list) or a LlamaIndex
//     response (source_nodes).
//
// A vendor response given without its envelope, a response that could be
// either of two vendors', or one that only resembles a vendor's (an
// assistant message without LM Studio's own keys) is an error that says
// which --format it looks like, never a guess.
func DetectFormat(record []byte) (string, error) {
	format, _, err := detectFormat(record)
	return format, err
}

// detectFormat is DetectFormat, also naming the key at fault.
func detectFormat(record []byte) (format, field string, err error) {
	var top map[string]any
	if err := json.Unmarshal(record, &top); err != nil || top == nil {
		return "", "", fmt.Errorf("%w: the record is not a JSON object", ErrUnknownFormat)
	}
	_, hasArm := top["arm"]
	_, hasSession := top["session"]
	_, hasQuestion := top["question"]
	identity := hasArm || hasSession || hasQuestion
	if !identity {
		if sh := vendorShapes(top); len(sh) > 0 {
			return "", "", fmt.Errorf("%w: looks like %s without an envelope: wrap each as {\"arm\", \"session\", \"question\", \"response\": {...}} (docs/formats.md#envelopes) and use --format %s",
				ErrUnknownFormat, sh[0].what, sh[0].format)
		}
	}
	resp, hasResponse := top["response"]
	switch r := resp.(type) {
	case string:
		return "run", "", nil
	case map[string]any:
		format, err := vendorFormat(r)
		return format, "response", err
	case nil:
		if _, ok := top["citations"]; ok && !hasResponse {
			return "run", "", nil
		}
		if hasResponse {
			return "", "response", fmt.Errorf("%w: the response is null, which shows no format: give --format (%s)", ErrUnknownFormat, strings.Join(Formats, ", "))
		}
	default:
		return "", "response", fmt.Errorf("%w: the response is a JSON %s, neither a run record's answer text (a string) nor a vendor's response (an object)", ErrUnknownFormat, jsonType(r))
	}
	return "", "", fmt.Errorf("%w: neither a run record (arm, session, question, status, response text, citations) nor an envelope around a vendor's response (docs/formats.md)", ErrUnknownFormat)
}

// vendorFormat names the vendor of an envelope's response object.
func vendorFormat(resp map[string]any) (string, error) {
	shapes := vendorShapes(resp)
	var sure []shape
	for _, s := range shapes {
		if s.sure {
			sure = append(sure, s)
		}
	}
	switch {
	case len(sure) == 1:
		return sure[0].format, nil
	case len(sure) > 1:
		var names []string
		for _, s := range sure {
			names = append(names, s.format)
		}
		return "", fmt.Errorf("%w: the response has the shape of several formats (%s): use --format", ErrUnknownFormat, strings.Join(names, ", "))
	case len(shapes) > 0:
		return "", fmt.Errorf("%w: looks like %s: %s", ErrUnknownFormat, shapes[0].what, shapes[0].advice())
	}
	return "", fmt.Errorf("%w: the response has the shape of no vendor format citecheck reads (%s): give --format, see docs/formats.md#envelopes",
		ErrUnknownFormat, strings.Join(Formats[1:], ", "))
}

// shape is a vendor format a response resembles; sure when its shape is
// that format's own.
type shape struct {
	format, what string
	sure         bool
}

func (s shape) advice() string { return "use --format " + s.format }

// vendorShapes lists the vendor formats an object resembles, the sure
// ones first.
func vendorShapes(o map[string]any) []shape {
	var out []shape
	add := func(format, what string, sure bool) { out = append(out, shape{format: format, what: what, sure: sure}) }

	if o["type"] == "message" {
		_, list := o["content"].([]any)
		add("anthropic", "an Anthropic Messages response", list)
	}
	switch o["object"] {
	case "response":
		add("openai", "an OpenAI Responses API response", true)
	case "thread.message":
		add("openai", "an OpenAI Assistants thread message", true)
	}
	if _, ok := o["candidates"].([]any); ok {
		// camelCase (the REST API) or snake_case (google-genai's Python
		// model_dump()): the adapter reads both.
		add("gemini", "a Gemini generateContent response", true)
	}
	if role, ok := o["role"].(string); ok && o["type"] == nil && o["object"] == nil {
		own := false
		if blocks, ok := o["content"].([]any); ok {
			for _, b := range blocks {
				if m, ok := b.(map[string]any); ok && m["type"] == "citation" {
					own = true
				}
			}
		}
		if cs, ok := o["citations"].([]any); ok {
			for _, c := range cs {
				if m, ok := c.(map[string]any); ok && (m["citedText"] != nil || m["fileName"] != nil) {
					own = true
				}
			}
		}
		if _, ok := o["stats"].(map[string]any); ok {
			own = true
		}
		if role == "assistant" || own {
			add("lmstudio", "an LM Studio assistant message", own)
		}
	}
	if answer, ok := o["answer"]; ok {
		_, context := o["context"].([]any)
		_, object := answer.(map[string]any)
		add("langchain", "a LangChain chain's output (answer, context)", context || object)
	} else if _, ok := o["cited_answer"].([]any); ok {
		add("langchain", "a LangChain XMLOutputParser cited_answer", true)
	}
	if _, ok := o["source_nodes"].([]any); ok {
		add("llamaindex", "a LlamaIndex response (response, source_nodes)", true)
	} else if _, ok := o["response"].(string); ok {
		if _, meta := o["metadata"]; meta {
			add("llamaindex", "a LlamaIndex response without source_nodes", false)
		}
	}
	// Sure shapes first, keeping the order above.
	var sorted []shape
	for _, sure := range []bool{true, false} {
		for _, s := range out {
			if s.sure == sure {
				sorted = append(sorted, s)
			}
		}
	}
	return sorted
}

func jsonType(v any) string {
	switch v.(type) {
	case []any:
		return "array"
	case float64:
		return "number"
	case bool:
		return "boolean"
	}
	return "value"
}

// errDetected stops the first pass of eachAuto at the first record.
var errDetected = errors.New("format detected")

// eachAuto reads a run file whose format is told by its first record: it
// reads up to that record, detects the format, and reads the whole file
// again in that format from the bytes it kept, so that a stream (stdin)
// is read once and line numbers are the file's. A first line that is not
// JSON is left to the run record reader, whose errors name the fault.
func eachAuto(r io.Reader, file string, fn func(*Record) error) error {
	var seen bytes.Buffer
	format := ""
	err := strictjson.EachLine(io.TeeReader(r, &seen), file, lineLimits, func(n int, data []byte) error {
		if !json.Valid(data) {
			format = "run"
			return errDetected
		}
		f, field, err := detectFormat(data)
		if err != nil {
			return &InputError{File: file, Line: n, Field: field, Err: err}
		}
		format = f
		return errDetected
	})
	switch {
	case errors.Is(err, errDetected):
	case err != nil:
		return err
	default:
		return nil // no records
	}
	return EachRun(io.MultiReader(&seen, r), file, format, fn)
}
