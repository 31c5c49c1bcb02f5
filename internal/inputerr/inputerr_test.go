package inputerr

import (
	"errors"
	"testing"
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
