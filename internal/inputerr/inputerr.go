package inputerr

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ErrInput is the kind of every fault of a user's input: errors.Is finds
// it in an *Error, a List of them, a sentinel made by New and whatever
// wraps one, so that a caller tells input faults from bugs by one test
// (the CLI's exit status 2) rather than by every package's names.
var ErrInput = errors.New("input error")

// New returns a sentinel of an input fault, for callers to branch on:
// its message is msg, and errors.Is(err, ErrInput) holds for it.
func New(msg string) error { return &kind{msg: msg} }

type kind struct{ msg string }

func (k *kind) Error() string        { return k.msg }
func (k *kind) Is(target error) bool { return target == ErrInput }

// Error is one located fault.
type Error struct {
	File  string
	Line  int
	Field string
	Err   error
}

// Error formats the fault as "file:line: field: cause", leaving out a zero
// line and an empty field.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Field != "" {
		fmt.Fprintf(&b, ": %s", e.Field)
	}
	fmt.Fprintf(&b, ": %v", e.Err)
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Is makes every located fault an input fault (ErrInput), whatever its
// cause.
func (e *Error) Is(target error) bool { return target == ErrInput }

// List is every fault of one pass, in file order; Omitted counts those
// left out beyond the caller's bound.
type List[E error] struct {
	Errs    []E
	Omitted int
}

// Error puts one fault per line, then how many were left out.
func (e *List[E]) Error() string {
	msgs := make([]string, 0, len(e.Errs)+1)
	for _, x := range e.Errs {
		msgs = append(msgs, x.Error())
	}
	if e.Omitted > 0 {
		msgs = append(msgs, fmt.Sprintf("(%d more errors not shown)", e.Omitted))
	}
	return strings.Join(msgs, "\n")
}

// Unwrap returns the faults, so that errors.Is and errors.As see each.
func (e *List[E]) Unwrap() []error {
	out := make([]error, len(e.Errs))
	for i, x := range e.Errs {
		out[i] = x
	}
	return out
}

// InvalidUTF8 returns the byte offset of the first byte of b that is not
// valid UTF-8, or len(b) when b is valid: where a fault report should
// point.
func InvalidUTF8(b []byte) int {
	off := 0
	for off < len(b) {
		r, size := utf8.DecodeRune(b[off:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		off += size
	}
	return off
}
