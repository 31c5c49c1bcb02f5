package citations

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/citecheck/citecheck/internal/strictjson"
	"golang.org/x/text/cases"
)

// InputError is a fault in an input file: File and Line (1-based; 0 for a
// whole-file fault) locate it, Field names the JSON key path at fault
// ("citations[1].page") when there is one.
type InputError = inputerr.Error

// Sentinel errors inside InputError, for callers that branch on the kind.
var (
	ErrInvalidUTF8  = errors.New("invalid UTF-8")
	ErrDuplicateKey = strictjson.ErrDuplicateKey
	ErrUnknownKey   = errors.New("unknown key")
	ErrTooLarge     = errors.New("input too large")
	ErrMissing      = errors.New("missing")
	ErrInvalid      = errors.New("invalid value")
)

// MaxLineBytes caps one JSON Lines record: 8 MiB holds a run record with a
// whole long response, its citations and retrieval cards many times over,
// while a longer line is refused before it is decoded (input error naming
// file and line). MaxInputBytes caps a whole input file.
const (
	MaxLineBytes  = 8 << 20
	MaxInputBytes = 1 << 30
)

// eachLine calls fn with every non-blank line of r (1-based numbers), after
// checking its size and UTF-8. A leading byte-order mark is dropped.
func eachLine(r io.Reader, file string, fn func(line int, data []byte) error) error {
	br := bufio.NewReaderSize(io.LimitReader(r, MaxInputBytes+1), 64<<10)
	total := 0
	for n := 1; ; n++ {
		var line []byte
		for {
			chunk, err := br.ReadSlice('\n')
			line = append(line, chunk...)
			if len(line) > MaxLineBytes {
				return &InputError{File: file, Line: n, Err: fmt.Errorf("%w: a line longer than %d bytes", ErrTooLarge, MaxLineBytes)}
			}
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if err != nil && err != io.EOF {
				return &InputError{File: file, Line: n, Err: fmt.Errorf("read: %w", err)}
			}
			if err == io.EOF && len(line) == 0 {
				return nil
			}
			break
		}
		total += len(line)
		if total > MaxInputBytes {
			return &InputError{File: file, Line: n, Err: fmt.Errorf("%w: more than %d bytes", ErrTooLarge, MaxInputBytes)}
		}
		if n == 1 {
			line = bytes.TrimPrefix(line, []byte("\uFEFF"))
		}
		if !utf8.Valid(line) {
			off := inputerr.InvalidUTF8(line)
			return &InputError{File: file, Line: n, Err: fmt.Errorf("%w at byte %d of the line", ErrInvalidUTF8, off+1)}
		}
		if len(bytes.TrimSpace(line)) == 0 {
			if !bytes.HasSuffix(line, []byte("\n")) {
				return nil
			}
			continue
		}
		if err := fn(n, line); err != nil {
			return err
		}
		if !bytes.HasSuffix(line, []byte("\n")) {
			return nil
		}
	}
}

// schema says which keys an object may hold. A nil *schema accepts any keys
// (vendor payloads, free maps) but still refuses duplicates and case
// variants, and refuses a key that differs only in case from a field name
// of vendorKeys (encoding/json would silently bind it).
type schema struct {
	keys map[string]*schema // allowed keys and their values' schemas
	elem *schema            // array elements
	any  bool               // a free value: no key list
}

var freeSchema = &schema{any: true}

func object(keys map[string]*schema) *schema { return &schema{keys: keys} }
func arrayOf(s *schema) *schema              { return &schema{elem: s, any: s == nil || s.any} }

var fold = cases.Fold()

// checkKeys parses one record with internal/strictjson, which refuses what
// encoding/json would let through (two equal keys, of which it keeps the
// last; keys equal under case folding, which it binds to one field; lone
// surrogate escapes; trailing data), then refuses keys the schema does not
// list. It returns the JSON path of the fault.
func checkKeys(data []byte, sch *schema, vendorKeys map[string]string) (*strictjson.Value, string, error) {
	v, err := strictjson.Parse(data, "", strictjson.Limits{})
	if err != nil {
		var se *strictjson.Error
		if !errors.As(err, &se) {
			return nil, "", err
		}
		if errors.Is(se.Err, strictjson.ErrDuplicateKey) {
			return nil, se.Path, se.Err
		}
		return nil, se.Path, fmt.Errorf("%w: %w", ErrInvalid, se.Err)
	}
	p, err := checkValue(v, sch, "", vendorKeys)
	return v, p, err
}

// missingKey returns the first of keys that the parsed top-level object
// lacks, or "" when it has them all.
func missingKey(v *strictjson.Value, keys ...string) string {
	for _, k := range keys {
		found := false
		for _, m := range v.Members {
			if m.Key == k {
				found = true
				break
			}
		}
		if !found {
			return k
		}
	}
	return ""
}

// checkValue walks a parsed value against its schema.
func checkValue(v *strictjson.Value, sch *schema, path string, vendorKeys map[string]string) (string, error) {
	switch v.Kind {
	case strictjson.Object:
		if sch != nil && !sch.any && sch.keys == nil {
			return path, fmt.Errorf("%w: expected %s, found an object", ErrInvalid, sch.kind())
		}
		for _, m := range v.Members {
			kp := strictjson.JoinKey(path, m.Key)
			var sub *schema
			switch {
			case sch == nil || sch.any:
				if exact, ok := vendorKeys[fold.String(m.Key)]; ok && exact != m.Key {
					return kp, fmt.Errorf("%w: %q is spelled %q", ErrUnknownKey, m.Key, exact)
				}
				sub = sch
			default:
				s, ok := sch.keys[m.Key]
				if !ok {
					return kp, ErrUnknownKey
				}
				sub = s
			}
			if p, err := checkValue(m.Value, sub, kp, vendorKeys); err != nil {
				return p, err
			}
		}
	case strictjson.Array:
		if sch != nil && !sch.any && sch.elem == nil {
			return path, fmt.Errorf("%w: expected %s, found an array", ErrInvalid, sch.kind())
		}
		var sub *schema
		if sch != nil {
			sub = sch.elem
			if sch.any {
				sub = sch
			}
		}
		for i, e := range v.Elems {
			if p, err := checkValue(e, sub, strictjson.JoinIndex(path, i), vendorKeys); err != nil {
				return p, err
			}
		}
	}
	return "", nil
}

func (s *schema) kind() string {
	if s.elem != nil {
		return "an array"
	}
	if s.keys != nil {
		return "an object"
	}
	return "a value"
}

func jsonSyntax(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrInvalid, strings.TrimPrefix(err.Error(), "json: "))
}

// decodeStrict decodes a checked line into v, turning type errors into a
// field path.
func decodeStrict(data []byte, v any) (string, error) {
	if err := json.Unmarshal(data, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return te.Field, fmt.Errorf("%w: expected %s, found JSON %s", ErrInvalid, te.Type, te.Value)
		}
		return "", jsonSyntax(err)
	}
	return "", nil
}
