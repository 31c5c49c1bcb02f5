package inputerr

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

var errCause = errors.New("invalid value")

func TestError(t *testing.T) {
	tests := []struct {
		e    Error
		want string
		why  string
	}{
		{Error{File: "run.jsonl", Line: 3, Field: "citations[1].page", Err: errCause}, "run.jsonl:3: citations[1].page: invalid value", "all parts"},
		{Error{File: "run.jsonl", Err: errCause}, "run.jsonl: invalid value", "a whole-file fault has no line and no field"},
		{Error{File: "q.csv", Line: 7, Err: errCause}, "q.csv:7: invalid value", "no field"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.why, got, tt.want)
		}
		if !errors.Is(&tt.e, errCause) {
			t.Errorf("%s: the cause is not unwrapped", tt.why)
		}
	}
}

func TestList(t *testing.T) {
	l := &List[*Error]{Errs: []*Error{{File: "a", Line: 1, Err: errCause}, {File: "a", Line: 2, Err: errors.New("other")}}, Omitted: 3}
	if got, want := l.Error(), "a:1: invalid value\na:2: other\n(3 more errors not shown)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	var e *Error
	if !errors.Is(l, errCause) || !errors.As(l, &e) || e.Line != 1 {
		t.Error("the list does not unwrap to its faults")
	}
}

func TestInvalidUTF8(t *testing.T) {
	tests := []struct {
		in   string
		want int
		why  string
	}{
		{"plain", 5, "valid: the length"},
		{"é\xffx", 2, "after a two-byte letter"},
		{"ab\xe2\x82", 2, "a truncated three-byte sequence"},
		{"", 0, "empty"},
	}
	for _, tt := range tests {
		if got := InvalidUTF8([]byte(tt.in)); got != tt.want {
			t.Errorf("%s: InvalidUTF8(%q) = %d, want %d", tt.why, tt.in, got, tt.want)
		}
	}
}

// TestErrInput: one test tells every input fault from anything else.
func TestErrInput(t *testing.T) {
	errKind := New("not a corpus folder")
	tests := []struct {
		err  error
		want bool
		why  string
	}{
		{&Error{File: "f", Err: errCause}, true, "a located fault, whatever its cause"},
		{&List[*Error]{Errs: []*Error{{File: "f", Err: errCause}}}, true, "a list of located faults"},
		{errKind, true, "a sentinel made by New"},
		{fmt.Errorf("show: x: %w", errKind), true, "a wrapped sentinel"},
		{errCause, false, "a sentinel of another kind"},
		{fmt.Errorf("grade: %w", errors.New("index out of range")), false, "a bug"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, errors.Is(tt.err, ErrInput), tt.why)
	}
	assert.EqualError(t, errKind, "not a corpus folder", "a kind keeps its words")
	assert.NotErrorIs(t, errKind, New("not a corpus folder"), "a kind is itself only")
}
