package strictjson

import (
	"errors"
	"fmt"

	"golang.org/x/text/cases"
)

// ErrUnknownKey is a key that a Shape does not allow: the wording of the
// JSON Lines readers (runs, locate requests, questions). Decoder.Object
// reports ErrUnknownField instead, with the known fields, for the
// reference and the plan.
var ErrUnknownKey = errors.New("unknown key")

// ErrMissingKey is a required key that Value.Missing finds absent: the
// wording of the JSON Lines readers (runs, locate requests), shared so
// that errors.Is finds it whichever of them refused the input. Decoder
// reports ErrMissing instead, for the reference and the plan.
var ErrMissingKey = errors.New("missing")

// Shape says which keys the objects of a parsed value may hold, for
// readers that decode the tree themselves rather than through a Decoder.
// A nil *Shape, or one with neither Keys nor Elem, is a free value: any
// keys, at any depth.
type Shape struct {
	Keys map[string]*Shape // an object: its keys, each with its value's shape
	Elem *Shape            // an array: its elements' shape
}

// Check walks v, parsed from data (the whole of file), and returns an
// *Error at the first key its shape does not allow (ErrUnknownKey) or the
// first object or array where the shape wants the other (ErrValue). In a
// free value, a key whose case folding is a key of spelled but which is
// spelled otherwise is refused too (ErrUnknownKey): a reader that binds
// keys without regard to case would read it without notice. spelled maps
// folded keys to their one spelling; it may be nil.
func (s *Shape) Check(data []byte, file string, v *Value, spelled map[string]string) error {
	c := checker{data: data, file: file, spelled: spelled, fold: cases.Fold()}
	return c.walk(v, s, "")
}

type checker struct {
	data    []byte
	file    string
	spelled map[string]string
	fold    cases.Caser
}

func (c *checker) walk(v *Value, s *Shape, path string) error {
	free := s == nil || s.Keys == nil && s.Elem == nil
	switch v.Kind {
	case Object:
		if !free && s.Keys == nil {
			return NewError(c.file, c.data, v.Offset, path, fmt.Errorf("%w: expected an array, found an object", ErrValue))
		}
		for _, m := range v.Members {
			kp := JoinKey(path, m.Key)
			var sub *Shape
			if free {
				if exact, ok := c.spelled[foldKey(c.fold, m.Key)]; ok && exact != m.Key {
					return NewError(c.file, c.data, m.KeyOffset, kp, fmt.Errorf("%w: %q is spelled %q", ErrUnknownKey, m.Key, exact))
				}
			} else {
				ks, ok := s.Keys[m.Key]
				if !ok {
					return NewError(c.file, c.data, m.KeyOffset, kp, ErrUnknownKey)
				}
				sub = ks
			}
			if err := c.walk(m.Value, sub, kp); err != nil {
				return err
			}
		}
	case Array:
		if !free && s.Elem == nil {
			return NewError(c.file, c.data, v.Offset, path, fmt.Errorf("%w: expected an object, found an array", ErrValue))
		}
		var sub *Shape
		if !free {
			sub = s.Elem
		}
		for i, e := range v.Elems {
			if err := c.walk(e, sub, JoinIndex(path, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// Fold returns key as Check compares it with spelled: Unicode case
// folding, as Parse folds keys to find case variants. It is safe for
// concurrent use.
func Fold(key string) string { return foldKey(cases.Fold(), key) }

// Missing returns the first of keys that v lacks, or "" when it holds them
// all: the required keys of an object, tested on the tree rather than by
// decoding again. A value that is not an object lacks every key.
func (v *Value) Missing(keys ...string) string {
	for _, k := range keys {
		if v.Get(k) == nil {
			return k
		}
	}
	return ""
}
