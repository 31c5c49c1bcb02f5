package strictjson

import (
	"fmt"
	"strconv"
)

// TreeDecoder decodes the values of a parsed tree into Go values as
// encoding/json would, for readers whose keys a Shape has checked and that
// fill their structs by hand rather than parse the input a second time:
// null leaves the zero value, and a value of another kind, or a number the
// Go type cannot hold, is a fault worded as encoding/json words it
// ("expected int, found JSON string"), wrapping ErrValue. It keeps the
// first fault: its JSON path in Path, the value's byte offset in Offset.
type TreeDecoder struct {
	Data   []byte // the input the tree was parsed from, for Raw
	Path   string
	Offset int
	Err    error
}

// Fail records a fault at v unless one is recorded already.
func (d *TreeDecoder) Fail(v *Value, path string, err error) {
	if d.Err == nil {
		d.Path, d.Offset, d.Err = path, v.Offset, err
	}
}

// Want reports whether v is of kind k, recording a fault naming goType
// when it is not.
func (d *TreeDecoder) Want(v *Value, path string, k Kind, goType string) bool {
	if v.Kind != k {
		d.Fail(v, path, fmt.Errorf("%w: expected %s, found JSON %s", ErrValue, goType, v.Kind))
		return false
	}
	return true
}

// Str decodes a string.
func (d *TreeDecoder) Str(v *Value, path string) string {
	if v.Kind != Null && d.Want(v, path, String, "string") {
		return v.Str
	}
	return ""
}

// StrPtr decodes a string into a *string; null is nil.
func (d *TreeDecoder) StrPtr(v *Value, path string) *string {
	if v.Kind == Null {
		return nil
	}
	s := d.Str(v, path)
	return &s
}

// Bool decodes true or false.
func (d *TreeDecoder) Bool(v *Value, path string) bool {
	if v.Kind != Null && d.Want(v, path, Bool, "bool") {
		return v.Bool
	}
	return false
}

// Int decodes a number into an int.
func (d *TreeDecoder) Int(v *Value, path string) int {
	if v.Kind == Null || !d.Want(v, path, Number, "int") {
		return 0
	}
	n, err := strconv.ParseInt(v.Str, 10, strconv.IntSize)
	if err != nil {
		d.Fail(v, path, fmt.Errorf("%w: expected int, found JSON number %s", ErrValue, v.Str))
		return 0
	}
	return int(n)
}

// IntPtr decodes a number into a *int; null is nil.
func (d *TreeDecoder) IntPtr(v *Value, path string) *int {
	if v.Kind == Null {
		return nil
	}
	n := d.Int(v, path)
	return &n
}

// Float decodes a number into a *float64; null is nil.
func (d *TreeDecoder) Float(v *Value, path string) *float64 {
	if v.Kind == Null || !d.Want(v, path, Number, "float64") {
		return nil
	}
	f, err := strconv.ParseFloat(v.Str, 64)
	if err != nil {
		d.Fail(v, path, fmt.Errorf("%w: expected float64, found JSON number %s", ErrValue, v.Str))
		return nil
	}
	return &f
}

// Strings decodes an array of strings; null is nil.
func (d *TreeDecoder) Strings(v *Value, path string) []string {
	return Slice(d, v, path, "[]string", func(e *Value, p string, s *string) { *s = d.Str(e, p) })
}

// Slice decodes an array of goType (null: nil) as encoding/json fills a
// slice, each element by elem at its own path.
func Slice[T any](d *TreeDecoder, v *Value, path, goType string, elem func(e *Value, path string, t *T)) []T {
	if v.Kind == Null || !d.Want(v, path, Array, goType) {
		return nil
	}
	out := make([]T, len(v.Elems))
	for i, e := range v.Elems {
		elem(e, JoinIndex(path, i), &out[i])
	}
	return out
}

// Object calls member with each key and value of v, an object of goType,
// and the member's path, in input order, and reports whether v was an
// object: null is none, and another kind is a fault. A Shape has checked
// the keys.
func (d *TreeDecoder) Object(v *Value, path, goType string, member func(key string, e *Value, path string)) bool {
	if v.Kind == Null || !d.Want(v, path, Object, goType) {
		return false
	}
	for _, m := range v.Members {
		member(m.Key, m.Value, JoinKey(path, m.Key))
	}
	return true
}

// Raw returns v's JSON text as written.
func (d *TreeDecoder) Raw(v *Value) []byte { return d.Data[v.Offset:v.End] }
