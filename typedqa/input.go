package typedqa

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/citecheck/citecheck/internal/strictjson"
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
		return nil, &InputError{File: file, Err: fmt.Errorf("%w: more than %d bytes", strictjson.ErrTooLarge, limit)}
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	if !utf8.Valid(data) {
		off := inputerr.InvalidUTF8(data)
		col := off - bytes.LastIndexByte(data[:off], '\n') // 1-based byte column
		return nil, &InputError{File: file, Line: lineAt(data, off), Err: fmt.Errorf("%w at byte %d of the line", strictjson.ErrInvalidUTF8, col)}
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

// decodeTopArray reads {"<key>": [...]} with internal/strictjson, which
// refuses two equal keys (encoding/json keeps the last), keys equal under
// case folding (encoding/json binds them to one field), lone surrogate
// escapes, anything after the one JSON value, and every key elem's shape
// does not list. decode fills one element from its tree, with paths
// relative to the element. It returns each element's line for later
// messages.
func decodeTopArray[T any](data []byte, file, key string, elem *strictjson.Shape, decode func(d *strictjson.TreeDecoder, v *strictjson.Value, out *T)) ([]T, []int, error) {
	v, err := strictjson.Parse(data, file, strictjson.Limits{})
	if err == nil && v.Kind != strictjson.Object {
		return nil, nil, &InputError{File: file, Line: 1, Err: errors.New("expected a JSON object")}
	}
	if err == nil {
		err = (&strictjson.Shape{Keys: map[string]*strictjson.Shape{key: {Elem: elem}}}).Check(data, file, v, nil)
	}
	if err != nil {
		var se *strictjson.Error
		if !errors.As(err, &se) {
			return nil, nil, &InputError{File: file, Err: err}
		}
		return nil, nil, &InputError{File: file, Line: se.Line, Field: se.Path, Err: se.Err}
	}
	m := v.Get(key)
	if m == nil {
		return nil, nil, &InputError{File: file, Line: 1, Field: key, Err: errors.New("missing")}
	}
	if m.Value.Kind != strictjson.Array {
		return nil, nil, &InputError{File: file, Line: lineAt(data, m.Value.Offset), Field: key, Err: errors.New("expected an array")}
	}
	list := make([]T, len(m.Value.Elems))
	lines := make([]int, len(m.Value.Elems))
	d := &strictjson.TreeDecoder{Data: data}
	for i, e := range m.Value.Elems {
		lines[i] = lineAt(data, e.Offset)
		if e.Kind != strictjson.Null && d.Want(e, "", strictjson.Object, fmt.Sprintf("%T", list[i])) {
			decode(d, e, &list[i])
		}
		if d.Err != nil {
			return nil, nil, &InputError{File: file, Line: lineAt(data, d.Offset), Field: d.Path, Err: d.Err}
		}
	}
	return list, lines, nil
}
