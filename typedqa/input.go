package typedqa

import (
	"github.com/citecheck/citecheck/internal/inputerr"

	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
)

// Size caps. Character accuracy is quadratic in value length and the
// assignment solver cubic in list length, so the per-value caps bound the
// cost of scoring one item; the file caps bound memory.
const (
	MaxDataFileBytes   = 64 << 20 // ground truth and responses
	MaxConfigFileBytes = 4 << 20  // questions and dictionary
	MaxValueBytes      = 8 << 10  // one answer or ground-truth value
	MaxListEntries     = 256      // entries in one list value
	MaxIdentifierBytes = 256      // model, condition, run, document
	MaxQuestions       = 1000
)

// readAll reads at most limit bytes of r; a longer input is an error rather
// than a silent truncation. A leading UTF-8 byte-order mark, as spreadsheet
// programs write, is removed; any other invalid UTF-8 is an error naming the
// line.
func readAll(r io.Reader, file string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, &InputError{File: file, Err: fmt.Errorf("read: %w", err)}
	}
	if int64(len(data)) > limit {
		return nil, &InputError{File: file, Err: fmt.Errorf("%w: more than %d bytes", ErrTooLarge, limit)}
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	if !utf8.Valid(data) {
		off := inputerr.InvalidUTF8(data)
		col := off - bytes.LastIndexByte(data[:off], '\n') // 1-based byte column
		return nil, &InputError{File: file, Line: lineAt(data, off), Err: fmt.Errorf("%w at byte %d of the line", ErrInvalidUTF8, col)}
	}
	return data, nil
}

// lineAt is the 1-based line holding byte offset off.
func lineAt(data []byte, off int) int {
	if off > len(data) {
		off = len(data)
	}
	if off < 0 {
		off = 0
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// checkJSONKeys walks data token by token. encoding/json keeps the last of
// two duplicate keys and matches field names case-insensitively, so a file
// with "id" twice, or with "ID", would decode without complaint; this pass
// makes both errors. Every object key must be one of known, spelled
// exactly; which keys belong to which object is left to the decoder's
// DisallowUnknownFields. The data must hold exactly one JSON value.
func checkJSONKeys(data []byte, file string, known map[string]bool) error {
	type frame struct {
		object    bool
		expectKey bool
		seen      map[string]string // folded key -> key as written
	}
	fold := cases.Fold()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var stack []*frame
	started := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			if !started {
				return &InputError{File: file, Line: 1, Err: errors.New("empty input: expected a JSON object")}
			}
			return nil
		}
		if err != nil {
			return jsonError(data, file, dec.InputOffset(), err)
		}
		if started && len(stack) == 0 {
			return &InputError{File: file, Line: lineAt(data, int(dec.InputOffset())), Err: errors.New("extra data after the JSON value")}
		}
		started = true
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if key, ok := tok.(string); ok && top != nil && top.object && top.expectKey {
			line := lineAt(data, int(dec.InputOffset()))
			f := fold.String(key)
			if prev, ok := top.seen[f]; ok {
				if prev == key {
					return &InputError{File: file, Line: line, Field: key, Err: ErrDuplicateKey}
				}
				return &InputError{File: file, Line: line, Field: key, Err: fmt.Errorf("%w: %q differs from %q only in case", ErrDuplicateKey, key, prev)}
			}
			top.seen[f] = key
			if !known[key] {
				return &InputError{File: file, Line: line, Field: key, Err: ErrUnknownKey}
			}
			top.expectKey = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, expectKey: true, seen: map[string]string{}})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				top = stack[len(stack)-1]
			} else {
				top = nil
			}
		}
		// A complete value was read: the enclosing object expects a key next.
		if top != nil && top.object {
			top.expectKey = true
		}
	}
}

// jsonError turns a decoder error into an InputError with the line.
func jsonError(data []byte, file string, fallback int64, err error) error {
	off := fallback
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	field := ""
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
		field = te.Field
		err = fmt.Errorf("expected %s, found JSON %s", te.Type, te.Value)
	}
	msg := err.Error()
	// DisallowUnknownFields reports `json: unknown field "x"`.
	if name, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return &InputError{File: file, Line: lineAt(data, int(off)), Field: strings.Trim(name, `"`), Err: fmt.Errorf("%w here", ErrUnknownKey)}
	}
	return &InputError{File: file, Line: lineAt(data, int(off)), Field: field, Err: errors.New(strings.TrimPrefix(msg, "json: "))}
}

// checkIdentifier enforces the rules for model, condition, run, document
// and question names: non-empty, bounded, no control characters and no
// surrounding white space (" gpt" and "gpt" would otherwise be two models).
func checkIdentifier(s string) error {
	switch {
	case s == "":
		return errors.New("is empty")
	case len(s) > MaxIdentifierBytes:
		return fmt.Errorf("is longer than %d bytes", MaxIdentifierBytes)
	case strings.TrimFunc(s, unicode.IsSpace) != s:
		return fmt.Errorf("%q has leading or trailing white space", s)
	case strings.IndexFunc(s, unicode.IsControl) >= 0:
		return fmt.Errorf("%q contains a control character", s)
	}
	return nil
}

// decodeTopArray decodes {"<key>": [...]} element by element, rejecting
// unknown fields, and returns each element's line for later messages. The
// keys must already have passed checkJSONKeys.
func decodeTopArray[T any](data []byte, file, key string) ([]T, []int, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	fail := func(err error) ([]T, []int, error) {
		return nil, nil, jsonError(data, file, dec.InputOffset(), err)
	}
	if tok, err := dec.Token(); err != nil {
		return fail(err)
	} else if tok != json.Delim('{') {
		return nil, nil, &InputError{File: file, Line: 1, Err: errors.New("expected a JSON object")}
	}
	var list []T
	var lines []int
	seen := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fail(err)
		}
		if tok != key {
			return nil, nil, &InputError{File: file, Line: lineAt(data, int(dec.InputOffset())), Field: fmt.Sprint(tok), Err: fmt.Errorf("%w at the top level", ErrUnknownKey)}
		}
		seen = true
		if tok, err := dec.Token(); err != nil {
			return fail(err)
		} else if tok != json.Delim('[') {
			return nil, nil, &InputError{File: file, Line: lineAt(data, int(dec.InputOffset())), Field: key, Err: errors.New("expected an array")}
		}
		for dec.More() {
			line := lineAt(data, nextValue(data, int(dec.InputOffset())))
			var v T
			if err := dec.Decode(&v); err != nil {
				return fail(err)
			}
			list = append(list, v)
			lines = append(lines, line)
		}
		if _, err := dec.Token(); err != nil { // the closing ']'
			return fail(err)
		}
	}
	if !seen {
		return nil, nil, &InputError{File: file, Line: 1, Field: key, Err: errors.New("missing")}
	}
	return list, lines, nil
}

// nextValue skips white space and a separating comma from off: where the
// decoder's next value starts.
func nextValue(data []byte, off int) int {
	for off < len(data) && strings.IndexByte(", \t\n\r", data[off]) >= 0 {
		off++
	}
	return off
}
