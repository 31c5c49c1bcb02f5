package strictjson

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEachLine(t *testing.T) {
	tests := []struct {
		in    string
		max   int
		total int
		want  []string // "N:data" per call
		err   string
		is    error
		why   string
	}{
		{in: "a\nb\n", max: 8, want: []string{"1:a", "2:b"}, why: "one call per line, numbered from 1"},
		{in: "a\n\n  \nb", max: 8, want: []string{"1:a", "4:b"}, why: "blank lines are skipped but counted; the last line needs no newline"},
		{in: "a\r\nb\r\n", max: 8, want: []string{"1:a", "2:b"}, why: "CR LF endings are not data"},
		{in: "\uFEFFa\n\uFEFFb\n", max: 8, want: []string{"1:a", "2:\uFEFFb"}, why: "a byte-order mark is dropped at the start of the input only"},
		{in: "", max: 8, want: nil, why: "an empty input is no call and no error"},
		{in: "12345678\n", max: 8, want: []string{"1:12345678"}, why: "a line of exactly the limit passes"},
		{in: "a\n123456789\n", max: 8, want: []string{"1:a"}, err: "f.jsonl:2: input exceeds the size limit: a line longer than 8 bytes", is: ErrTooLarge, why: "a longer line is refused with its number"},
		{in: "ab\ncd\nef\n", max: 8, total: 6, want: []string{"1:ab", "2:cd"}, err: "f.jsonl:3: input exceeds the size limit: more than 6 bytes", is: ErrTooLarge, why: "the input past MaxBytes is refused at the line that crosses it"},
		{in: "a\nb\xffc\n", max: 8, want: []string{"1:a"}, err: "f.jsonl:2: invalid UTF-8 at byte 2 of the line", is: ErrInvalidUTF8, why: "invalid UTF-8 names its line and byte"},
	}
	for _, tt := range tests {
		var got []string
		err := EachLine(strings.NewReader(tt.in), "f.jsonl", Limits{MaxLine: tt.max, MaxBytes: tt.total}, func(n int, data []byte) error {
			got = append(got, strconv.Itoa(n)+":"+string(data))
			return nil
		})
		assert.Equal(t, tt.want, got, tt.why)
		if tt.err == "" {
			assert.NoError(t, err, tt.why)
			continue
		}
		require.Error(t, err, tt.why)
		assert.Equal(t, tt.err, err.Error(), tt.why)
		assert.ErrorIs(t, err, tt.is, tt.why)
		var ie *inputerr.Error
		assert.ErrorAs(t, err, &ie, tt.why)
	}
}

// TestEachLineLongLineIsNotHeld: a line far beyond the limit is refused
// after reading about the limit, not the whole line.
func TestEachLineLongLineIsNotHeld(t *testing.T) {
	r := &countingReader{}
	err := EachLine(r, "f", Limits{MaxLine: 1 << 20}, func(int, []byte) error { return nil })
	require.ErrorIs(t, err, ErrTooLarge)
	assert.Less(t, r.n, 2<<20, "bytes read before the refusal")
}

func TestEachLineStopsAtCallerError(t *testing.T) {
	stop := errors.New("stop")
	calls := 0
	err := EachLine(strings.NewReader("a\nb\n"), "f", Limits{MaxLine: 8}, func(int, []byte) error { calls++; return stop })
	assert.Same(t, stop, err, "the caller's error comes back unwrapped")
	assert.Equal(t, 1, calls)
	err = EachLine(iotest.ErrReader(errors.New("disk")), "f", Limits{MaxLine: 8}, func(int, []byte) error { return nil })
	assert.EqualError(t, err, "f:1: read: disk")
}

// countingReader is an endless line of 'x'.
type countingReader struct{ n int }

func (c *countingReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	c.n += len(p)
	return len(p), nil
}

// TestEachLineDataIsKept: a caller may keep a line's bytes after fn
// returns (a run record keeps its retrieval cards and native citations as
// slices of its line); the next line must not overwrite them, whatever
// the lengths. A reused buffer once wrote one record's cards into
// another's result.
func TestEachLineDataIsKept(t *testing.T) {
	in := `{"card": "one"}` + "\n" + `{"card": "two"}` + "\n" + `{"c": "3"}` + "\n" + `{"card": "a longer fourth line"}` + "\n"
	var kept [][]byte
	err := EachLine(strings.NewReader(in), "f.jsonl", Limits{MaxLine: 64}, func(_ int, data []byte) error {
		kept = append(kept, data)
		return nil
	})
	require.NoError(t, err)
	want := strings.Split(strings.TrimSuffix(in, "\n"), "\n")
	require.Len(t, kept, len(want))
	for i := range want {
		assert.Equal(t, want[i], string(kept[i]), "line %d as kept after the read", i+1)
	}
}
