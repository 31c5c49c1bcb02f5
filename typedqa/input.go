package typedqa

import (
	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/citecheck/citecheck/internal/strictjson"

	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
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

// checkJSONKeys parses data with internal/strictjson, which refuses two
// equal keys (encoding/json keeps the last), keys equal under case folding
// (encoding/json binds them to one field), lone surrogate escapes and
// anything after the one JSON value, then requires every object key to be
// one of known, spelled exactly; which keys belong to which object is left
// to the decoder's DisallowUnknownFields.
func checkJSONKeys(data []byte, file string, known map[string]bool) error {
	v, err := strictjson.Parse(data, file, strictjson.Limits{})
	if err != nil {
		var se *strictjson.Error
		if !errors.As(err, &se) {
			return &InputError{File: file, Err: err}
		}
		return &InputError{File: file, Line: se.Line, Field: se.Path, Err: se.Err}
	}
	var walk func(v *strictjson.Value) error
	walk = func(v *strictjson.Value) error {
		for _, m := range v.Members {
			if !known[m.Key] {
				return &InputError{File: file, Line: lineAt(data, m.KeyOffset), Field: m.Key, Err: ErrUnknownKey}
			}
			if err := walk(m.Value); err != nil {
				return err
			}
		}
		for _, e := range v.Elems {
			if err := walk(e); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(v)
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
