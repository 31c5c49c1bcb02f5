package freeze

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/inputerr"
)

// Format is the first line of every lock this package writes and reads.
const Format = "citecheck-lock/1"

// MaxLockBytes caps a lock file: a corpus of 100,000 pages needs about 15 MB.
const MaxLockBytes = 256 << 20

// Record kinds, with the number of fields after the kind. Toolchain kinds
// pin how the tool computes; the others pin what it reads.
var kinds = map[string]struct {
	fields    int
	toolchain bool
}{
	"corpus":          {2, false}, // corpus folder (relative to the lock), manifest.json hash
	"extractor":       {2, false}, // name, version (from the corpus manifest)
	"extractor.limit": {2, false}, // limit name, value
	"pdf":             {5, false}, // document name, status, bytes, blake3, PDF path (relative to the lock)
	"text":            {4, false}, // document name, bytes, blake3 (corpus.TextHash), page folder (relative to the lock)
	"page":            {4, false}, // document name, page, code points, blake3 of the stored text
	"alt":             {4, false}, // document name, page, alternative k (1-based), blake3 of the stored alternative text
	"boxes":           {3, false}, // document name, page, blake3 of the stored glyph boxes, uncompressed
	"layout":          {3, false}, // document name, page, blake3 of the stored reading orders
	"quote-index":     {5, false}, // file (in the corpus folder), format, bytes, blake3, sources digest (corpus.QuoteIndex)
	"reference":       {3, false}, // path (relative to the lock), raw blake3, canonical blake3
	"question":        {2, false}, // question id, blake3 of its canonical encoding
	"question.part":   {3, false}, // question id, field name, blake3 of that field's canonical encoding
	"plan":            {2, false}, // path (relative to the lock), blake3
	"plan.order":      {2, false}, // repetition, blake3 of its order
	"reviews":         {2, false}, // decisions file (relative to the lock), blake3 of its bytes
	"tool":            {2, true},  // main module path, version
	"tool.vcs":        {1, true},  // VCS revision, "+dirty" when modified
	"module":          {2, true},  // dependency module path, version
	"go":              {1, true},  // Go version
	"unicode":         {2, true},  // "go" or "norm", Unicode version of those tables
	"normalization":   {1, true},  // quote-matching profile name
}

// Record is one line of a lock: a kind and its fields.
type Record struct {
	Kind   string
	Fields []string
}

// String renders the record as its line (without the newline). A field
// that is empty or holds white space, quotes, backslashes or unprintable
// characters is written as a Go-quoted string.
func (r Record) String() string {
	var b strings.Builder
	b.WriteString(r.Kind)
	for _, f := range r.Fields {
		b.WriteByte(' ')
		b.WriteString(field(f))
	}
	return b.String()
}

func field(s string) string {
	if s == "" || strings.IndexFunc(s, func(r rune) bool {
		return r <= ' ' || r == '"' || r == '\\' || r == utf8.RuneError || !unicode.IsPrint(r)
	}) >= 0 {
		return strconv.Quote(s)
	}
	return s
}

// Lock is a parsed or built lock file.
type Lock struct {
	Records []Record // sorted by their lines, bytewise
	Root    string   // "blake3:<hex>" of every byte before the root line
}

// Encode renders the lock: the format line, the records, the root line.
func (l *Lock) Encode() []byte {
	var b bytes.Buffer
	b.Write(l.body())
	fmt.Fprintf(&b, "root %s\n", l.Root)
	return b.Bytes()
}

// body is what the root hashes: the format line and the record lines.
func (l *Lock) body() []byte {
	var b bytes.Buffer
	b.WriteString(Format + "\n")
	for _, r := range l.Records {
		b.WriteString(r.String())
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// seal sorts the records and sets the root.
func (l *Lock) seal() {
	slices.SortFunc(l.Records, func(a, b Record) int { return strings.Compare(a.String(), b.String()) })
	l.Root = corpus.Hash(l.body())
}

// Find returns the records of a kind, in lock order.
func (l *Lock) Find(kind string) []Record {
	var out []Record
	for _, r := range l.Records {
		if r.Kind == kind {
			out = append(out, r)
		}
	}
	return out
}

// one returns the single record of a kind, or false.
func (l *Lock) one(kind string) (Record, bool) {
	rs := l.Find(kind)
	if len(rs) != 1 {
		return Record{}, false
	}
	return rs[0], true
}

// Errors of Parse.
var (
	// ErrNotLock: the file does not start with a lock format line.
	ErrNotLock = inputerr.New("not a citecheck lock file")
	// ErrMalformed: the file is a lock but a line cannot be read. A lock
	// is written by this package only, so a malformed one was damaged or
	// edited: callers treat it as an integrity failure.
	ErrMalformed = errors.New("malformed lock")
)

// ParseError is a fault at a line of a lock file.
type ParseError struct {
	File string
	Line int
	Err  error
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }
func (e *ParseError) Unwrap() error { return e.Err }

// Parse reads a lock. It checks the syntax only: that the root matches,
// that the records are sorted and unique and that each kind appears as
// often as it may are checked by Check (Problems), so that an edited lock
// is reported with everything else that changed, not refused unread.
func Parse(data []byte, file string) (*Lock, error) {
	if len(data) > MaxLockBytes {
		return nil, &ParseError{file, 1, fmt.Errorf("%w: larger than %d bytes", ErrMalformed, MaxLockBytes)}
	}
	text := string(data)
	first, _, _ := strings.Cut(text, "\n")
	if !strings.HasPrefix(first, "citecheck-lock/") {
		return nil, &ParseError{file, 1, fmt.Errorf("%w: the first line is %s, not %q", ErrNotLock, oneLine(first), Format)}
	}
	if first != Format {
		return nil, &ParseError{file, 1, fmt.Errorf("%w: format %q: this citecheck reads %q", ErrMalformed, first, Format)}
	}
	if !utf8.ValidString(text) {
		return nil, &ParseError{file, 1, fmt.Errorf("%w: invalid UTF-8", ErrMalformed)}
	}
	if !strings.HasSuffix(text, "\n") {
		return nil, &ParseError{file, strings.Count(text, "\n") + 1, fmt.Errorf("%w: the last line has no newline (truncated?)", ErrMalformed)}
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	l := &Lock{}
	for i, line := range lines[1:] {
		n := i + 2
		kind, rest, _ := strings.Cut(line, " ")
		if kind == "root" {
			if n != len(lines) {
				return nil, &ParseError{file, n, fmt.Errorf("%w: the root line must be the last", ErrMalformed)}
			}
			l.Root = rest
			continue
		}
		k, ok := kinds[kind]
		if !ok {
			return nil, &ParseError{file, n, fmt.Errorf("%w: unknown record kind %s", ErrMalformed, oneLine(kind))}
		}
		fields, err := splitFields(rest)
		if err != nil {
			return nil, &ParseError{file, n, fmt.Errorf("%w: %v", ErrMalformed, err)}
		}
		if len(fields) != k.fields {
			return nil, &ParseError{file, n, fmt.Errorf("%w: %s has %d fields, want %d", ErrMalformed, kind, len(fields), k.fields)}
		}
		r := Record{Kind: kind, Fields: fields}
		if r.String() != line {
			return nil, &ParseError{file, n, fmt.Errorf("%w: the line is not in canonical form (want %q)", ErrMalformed, r.String())}
		}
		l.Records = append(l.Records, r)
	}
	if l.Root == "" {
		return nil, &ParseError{file, len(lines), fmt.Errorf("%w: no root line (truncated?)", ErrMalformed)}
	}
	return l, nil
}

// splitFields splits a record's fields on single spaces, reading quoted
// fields. Parse then requires the canonical form, which rejects every
// other spacing.
func splitFields(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	var out []string
	for {
		var f string
		if strings.HasPrefix(s, `"`) {
			q, err := strconv.QuotedPrefix(s)
			if err != nil {
				return nil, fmt.Errorf("bad quoted field %s", oneLine(s))
			}
			f, _ = strconv.Unquote(q)
			s = s[len(q):]
		} else if i := strings.IndexByte(s, ' '); i >= 0 {
			f, s = s[:i], s[i:]
		} else {
			f, s = s, ""
		}
		out = append(out, f)
		if s == "" {
			return out, nil
		}
		if s[0] != ' ' {
			return nil, fmt.Errorf("no space after field %s", oneLine(f))
		}
		s = s[1:]
	}
}

func oneLine(s string) string {
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return strconv.Quote(s)
}
