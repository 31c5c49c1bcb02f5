package strictjson

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/citecheck/citecheck/internal/inputerr"
)

// MaxErrors bounds the faults a Decoder keeps: a wholly wrong file would
// otherwise give one message per value.
const MaxErrors = 20

// Decoder turns a parsed tree into Go values, collecting faults with their
// positions. Callers describe each object's fields with Object.
type Decoder struct {
	File string
	Data []byte
	// Nodes records, when non-nil, every value visited by path.
	Nodes   map[string]*Value
	errs    []*Error
	omitted int
}

// Errorf records a fault at v.
func (d *Decoder) Errorf(v *Value, path string, sentinel error, format string, args ...any) {
	d.add(v.Offset, path, fmt.Errorf("%w: %s", sentinel, fmt.Sprintf(format, args...)))
}

func (d *Decoder) add(off int, path string, err error) {
	if len(d.errs) >= MaxErrors {
		d.omitted++
		return
	}
	d.errs = append(d.errs, NewError(d.File, d.Data, off, path, err))
}

// Err returns nil, the one fault, or an *Errors holding them in file order.
func (d *Decoder) Err() error {
	if len(d.errs) == 0 {
		return nil
	}
	sort.SliceStable(d.errs, func(i, j int) bool { return d.errs[i].Offset < d.errs[j].Offset })
	if len(d.errs) == 1 && d.omitted == 0 {
		return d.errs[0]
	}
	return &Errors{Errs: d.errs, Omitted: d.omitted}
}

// Errors is every fault a Decoder found, in file order.
type Errors = inputerr.List[*Error]

func (d *Decoder) visit(v *Value, path string) {
	if d.Nodes != nil {
		d.Nodes[path] = v
	}
}

// Field describes one key of an object for Object.
type Field struct {
	Name     string
	Required bool
	Decode   func(v *Value, path string)
}

// Object decodes v as an object with exactly the given fields: an unknown
// key or a missing required one is a fault. It reports whether v was an
// object.
func (d *Decoder) Object(v *Value, path string, fields ...Field) bool {
	d.visit(v, path)
	if v.Kind != Object {
		d.Errorf(v, path, ErrType, "expected an object, found %s", v.Kind)
		return false
	}
	present := map[string]bool{}
	for _, m := range v.Members {
		var f *Field
		for k := range fields {
			if fields[k].Name == m.Key {
				f = &fields[k]
				break
			}
		}
		child := JoinKey(path, m.Key)
		if f == nil {
			d.add(m.KeyOffset, child, fmt.Errorf("%w %q (known fields: %s)", ErrUnknownField, m.Key, fieldNames(fields)))
			continue
		}
		present[m.Key] = true
		f.Decode(m.Value, child)
	}
	for _, f := range fields {
		if f.Required && !present[f.Name] {
			d.add(v.Offset, path, fmt.Errorf("%w %q", ErrMissing, f.Name))
		}
	}
	return true
}

func fieldNames(fields []Field) string {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Name
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// String decodes a string.
func (d *Decoder) String(v *Value, path string) string {
	d.visit(v, path)
	if v.Kind != String {
		d.Errorf(v, path, ErrType, "expected a string, found %s", v.Kind)
		return ""
	}
	return v.Str
}

// Bool decodes true or false.
func (d *Decoder) Bool(v *Value, path string) bool {
	d.visit(v, path)
	if v.Kind != Bool {
		d.Errorf(v, path, ErrType, "expected true or false, found %s", v.Kind)
		return false
	}
	return v.Bool
}

// Int decodes an integer literal (no fraction, no exponent) in [lo, hi].
func (d *Decoder) Int(v *Value, path string, lo, hi int64) int64 {
	d.visit(v, path)
	if v.Kind != Number {
		d.Errorf(v, path, ErrType, "expected an integer, found %s", v.Kind)
		return 0
	}
	n, err := strconv.ParseInt(v.Str, 10, 64)
	if err != nil {
		d.Errorf(v, path, ErrType, "expected an integer, found %s", v.Str)
		return 0
	}
	if n < lo || n > hi {
		d.Errorf(v, path, ErrValue, "%d is outside %d..%d", n, lo, hi)
		return 0
	}
	return n
}

// Uint64 decodes a non-negative integer literal up to 2^64-1.
func (d *Decoder) Uint64(v *Value, path string) uint64 {
	d.visit(v, path)
	if v.Kind != Number {
		d.Errorf(v, path, ErrType, "expected a non-negative integer, found %s", v.Kind)
		return 0
	}
	n, err := strconv.ParseUint(v.Str, 10, 64)
	if err != nil {
		d.Errorf(v, path, ErrType, "expected an integer in 0..18446744073709551615, found %s", v.Str)
		return 0
	}
	return n
}

// Array decodes each element of an array with elem.
func (d *Decoder) Array(v *Value, path string, elem func(i int, e *Value, path string)) {
	d.visit(v, path)
	if v.Kind != Array {
		d.Errorf(v, path, ErrType, "expected an array, found %s", v.Kind)
		return
	}
	for i, e := range v.Elems {
		elem(i, e, JoinIndex(path, i))
	}
}

// Strings decodes an array of strings.
func (d *Decoder) Strings(v *Value, path string) []string {
	var out []string
	d.Array(v, path, func(_ int, e *Value, p string) { out = append(out, d.String(e, p)) })
	return out
}

// Map decodes each member of an object whose keys are data, not field
// names, in input order.
func (d *Decoder) Map(v *Value, path string, member func(key string, e *Value, path string)) {
	d.visit(v, path)
	if v.Kind != Object {
		d.Errorf(v, path, ErrType, "expected an object, found %s", v.Kind)
		return
	}
	for _, m := range v.Members {
		member(m.Key, m.Value, JoinKey(path, m.Key))
	}
}
