package pdftext

import (
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// objects wraps pdfcpu's cross-reference table with lookups that never fail
// loudly: a missing or mistyped object reads as absent, because a text
// extractor must keep going past damage that a validator would reject.
type objects struct {
	xref *model.XRefTable
}

// resolve follows indirect references (a chain of at most a few).
func (o objects) resolve(obj types.Object) types.Object {
	for range 8 {
		ref, ok := obj.(types.IndirectRef)
		if !ok {
			return obj
		}
		next, err := o.xref.Dereference(ref)
		if err != nil {
			return nil
		}
		obj = next
	}
	return nil
}

func (o objects) dict(obj types.Object) types.Dict {
	switch v := o.resolve(obj).(type) {
	case types.Dict:
		return v
	case types.StreamDict:
		return v.Dict
	}
	return nil
}

func (o objects) get(d types.Dict, key string) types.Object {
	if d == nil {
		return nil
	}
	v, ok := d[key]
	if !ok {
		return nil
	}
	return o.resolve(v)
}

func (o objects) dictEntry(d types.Dict, key string) types.Dict {
	return o.dict(o.get(d, key))
}

func (o objects) array(obj types.Object) types.Array {
	a, _ := o.resolve(obj).(types.Array)
	return a
}

func (o objects) arrayEntry(d types.Dict, key string) types.Array {
	return o.array(o.get(d, key))
}

func (o objects) name(obj types.Object) (string, bool) {
	n, ok := o.resolve(obj).(types.Name)
	if !ok {
		return "", false
	}
	s, err := types.DecodeName(string(n))
	if err != nil {
		return string(n), true
	}
	return s, true
}

func (o objects) nameEntry(d types.Dict, key string) string {
	s, _ := o.name(o.get(d, key))
	return s
}

func (o objects) number(obj types.Object) (float64, bool) {
	switch v := o.resolve(obj).(type) {
	case types.Integer:
		return float64(v), true
	case types.Float:
		return float64(v), true
	}
	return 0, false
}

func (o objects) numberEntry(d types.Dict, key string, def float64) float64 {
	if f, ok := o.number(o.get(d, key)); ok {
		return f
	}
	return def
}

// bytesOf returns the bytes of a string object, literal or hex.
func (o objects) bytesOf(obj types.Object) ([]byte, bool) {
	switch v := o.resolve(obj).(type) {
	case types.StringLiteral:
		b, err := types.Unescape(string(v))
		if err != nil {
			return []byte(v), true
		}
		return b, true
	case types.HexLiteral:
		b, err := v.Bytes()
		return b, err == nil
	}
	return nil, false
}

// stream returns the stream object obj refers to, and its object number
// (0 for a direct object) so that callers can cache decoded results.
func (o objects) stream(obj types.Object) (*types.StreamDict, int) {
	num := 0
	if ref, ok := obj.(types.IndirectRef); ok {
		num = ref.ObjectNumber.Value()
	}
	switch v := o.resolve(obj).(type) {
	case types.StreamDict:
		return &v, num
	}
	return nil, 0
}

// matrixOf reads a 6-number array, or returns def.
func (o objects) matrixOf(obj types.Object, def matrix) matrix {
	a := o.array(obj)
	if len(a) != 6 {
		return def
	}
	var m matrix
	for i := range 6 {
		f, ok := o.number(a[i])
		if !ok {
			return def
		}
		m[i] = f
	}
	return m
}

// stringEntry returns d[key] as a string (a PDF string or name), or "".
func (o objects) stringEntry(d types.Dict, key string) string {
	if b, ok := o.bytesOf(o.get(d, key)); ok {
		return string(b)
	}
	if n, ok := o.name(o.get(d, key)); ok {
		return n
	}
	return ""
}
