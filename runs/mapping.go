package runs

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"reflect"
	"slices"
)

// Mapping is how a run names documents: the key is what a citation says
// (a vendor file id, a title, a source path), the value the corpus file
// names or "blake3:<hex>" hashes it may stand for: one name, or several
// candidates when the run cannot tell which document the key is. Model
// output never names a file to open; a cited document maps to a corpus
// entry only by name, by this mapping or by hash.
//
// In JSON a value is a string (one name) or a list of names; a one-name
// list reads like the string, and MarshalJSON writes one name as a string.
// An empty list is kept as read: Record.Validate refuses it.
type Mapping map[string][]string

// UnmarshalJSON reads an object whose values are a name or a list of names.
func (m *Mapping) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field == "" {
			return &json.UnmarshalTypeError{Value: te.Value, Type: reflect.TypeFor[Mapping](), Offset: te.Offset}
		}
		return err
	}
	if raw == nil { // null
		*m = nil
		return nil
	}
	out := make(Mapping, len(raw))
	// In sorted order, so that of several values at fault the same one is
	// reported every time.
	for _, k := range slices.Sorted(maps.Keys(raw)) {
		v := raw[k]
		if bytes.Equal(bytes.TrimSpace(v), []byte("null")) { // not a name: encoding/json would read it as ""
			return &json.UnmarshalTypeError{Value: "null", Type: reflect.TypeFor[string](), Field: k}
		}
		var name string
		if err := json.Unmarshal(v, &name); err == nil {
			out[k] = []string{name}
			continue
		}
		var names []string
		if err := json.Unmarshal(v, &names); err != nil || names == nil {
			return &json.UnmarshalTypeError{Value: jsonKind(v), Type: reflect.TypeFor[string](), Field: k}
		}
		out[k] = names
	}
	*m = out
	return nil
}

// MarshalJSON writes a one-name value as a string and others as a list.
func (m Mapping) MarshalJSON() ([]byte, error) {
	if m == nil {
		return []byte("null"), nil
	}
	out := make(map[string]any, len(m))
	for k, names := range m {
		if len(names) == 1 {
			out[k] = names[0]
		} else {
			out[k] = append([]string{}, names...)
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the caller's encoder decides
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// jsonKind names the kind of a JSON value for a type error.
func jsonKind(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "value"
	}
	switch v[0] {
	case '{':
		return "object"
	case '[':
		return "array of non-strings"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	default:
		return "number"
	}
}
