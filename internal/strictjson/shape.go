package strictjson

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"golang.org/x/text/cases"

	"github.com/citecheck/citecheck/internal/suggest"
)

// ErrUnknownKey is a key that a Shape does not allow: the wording of the
// JSON Lines readers (runs, locate requests, questions). Decoder.Object
// reports ErrUnknownField instead, with the known fields, for the
// reference and the plan.
var ErrUnknownKey = errors.New("unknown key")

// Shape says which keys the objects of a parsed value may hold, for
// readers that decode the tree themselves rather than through a Decoder.
// A nil *Shape, or one with neither Keys, Elem nor Values, is a free
// value: any keys, at any depth.
type Shape struct {
	Keys map[string]*Shape // an object: its keys, each with its value's shape
	Elem *Shape            // an array: its elements' shape
	// Values: an object whose keys are data (a map, as a result's field
	// verdicts by field name), each value of this shape.
	Values *Shape
}

// Check walks v, parsed from data (the whole of file), and returns an
// *Error at the first key its shape does not allow (ErrUnknownKey) or the
// first object or array where the shape wants the other (ErrValue). In a
// free value, a key whose case folding is a key of spelled but which is
// spelled otherwise is refused too (ErrUnknownKey): a reader that binds
// keys without regard to case would read it without notice. spelled maps
// folded keys to their one spelling; it may be nil.
func (s *Shape) Check(data []byte, file string, v *Value, spelled map[string]string) error {
	return s.CheckUserData(data, file, v, spelled, nil)
}

// CheckUserData is Check where, in a free value, the values of the keys
// userData names are their writer's own (a tool's input, a file's
// attributes): their keys are not compared with spelled, since no reader
// binds them.
func (s *Shape) CheckUserData(data []byte, file string, v *Value, spelled map[string]string, userData map[string]bool) error {
	c := checker{data: data, file: file, spelled: spelled, userData: userData, fold: cases.Fold()}
	return c.walk(v, s, "")
}

type checker struct {
	data     []byte
	file     string
	spelled  map[string]string
	userData map[string]bool
	fold     cases.Caser
}

func (c *checker) walk(v *Value, s *Shape, path string) error {
	free := s == nil || s.Keys == nil && s.Elem == nil && s.Values == nil
	switch v.Kind {
	case Object:
		if !free && s.Keys == nil && s.Values == nil {
			return NewError(c.file, c.data, v.Offset, path, fmt.Errorf("%w: expected an array, found an object", ErrValue))
		}
		for _, m := range v.Members {
			var sub *Shape
			switch {
			case free:
				if exact, ok := c.spelled[foldKey(c.fold, m.Key)]; ok && exact != m.Key {
					return NewError(c.file, c.data, m.KeyOffset, JoinKey(path, m.Key), fmt.Errorf("%w: %q is spelled %q", ErrUnknownKey, m.Key, exact))
				}
				if c.userData[m.Key] {
					continue // its writer's own keys
				}
			case s.Values != nil:
				sub = s.Values
			default:
				ks, ok := s.Keys[m.Key]
				if !ok {
					return NewError(c.file, c.data, m.KeyOffset, JoinKey(path, m.Key), unknownKey(s, m.Key))
				}
				sub = ks
			}
			// A scalar has no keys to check: its path is not built.
			if m.Value.Kind == Object || m.Value.Kind == Array {
				if err := c.walk(m.Value, sub, JoinKey(path, m.Key)); err != nil {
					return err
				}
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
			if e.Kind != Object && e.Kind != Array {
				continue
			}
			if err := c.walk(e, sub, JoinIndex(path, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// unknownKey is the fault of a key a shape does not list: what was
// probably meant, and the keys the object may hold.
func unknownKey(s *Shape, key string) error {
	keys := slices.Sorted(maps.Keys(s.Keys))
	return fmt.Errorf("%w%s; the keys it may hold: %s", ErrUnknownKey, suggest.Phrase(keys, key), strings.Join(keys, ", "))
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
