package runs

import (
	"encoding/json"
	"fmt"
	"github.com/citecheck/citecheck/textnorm"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/citecheck/citecheck/internal/strictjson"
)

// vtree reads a vendor's response from the strict parse tree, key by key,
// where an SDK writes one key in more than one spelling (Gemini: the REST
// API's camelCase, the Python SDK's snake_case). It keeps the first fault
// with its JSON path (relative to the response), and the byte slices of
// values, so that what an adapter keeps as native is the vendor's bytes.
type vtree struct {
	data  []byte
	field string
	err   error
}

func (t *vtree) fail(path string, err error) {
	if t.err == nil {
		t.field, t.err = path, err
	}
}

func (t *vtree) want(v *strictjson.Value, path string, k strictjson.Kind, what string) bool {
	if v.Kind != k {
		t.fail(path, fmt.Errorf("%w: expected %s, found JSON %s", strictjson.ErrValue, what, v.Kind))
		return false
	}
	return true
}

// get returns the member of the object obj spelled as one of names, and
// its path; nil when obj is nil, the member is absent or null. Two
// spellings of one key in one object are a fault
// (strictjson.ErrDuplicateKey): the reader never picks one.
func (t *vtree) get(obj *strictjson.Value, path string, names ...string) (*strictjson.Value, string) {
	if obj == nil || t.err != nil || !t.want(obj, path, strictjson.Object, "an object") {
		return nil, ""
	}
	var found *strictjson.Member
	for _, n := range names {
		m := obj.Get(n)
		if m == nil {
			continue
		}
		if found != nil {
			a, b := found, m
			if a.KeyOffset > b.KeyOffset {
				a, b = b, a
			}
			t.fail(strictjson.JoinKey(path, b.Key), fmt.Errorf("%w: %q and %q are one key in two spellings", strictjson.ErrDuplicateKey, a.Key, b.Key))
			return nil, ""
		}
		found = m
	}
	if found == nil || found.Value.Kind == strictjson.Null {
		return nil, ""
	}
	return found.Value, strictjson.JoinKey(path, found.Key)
}

// list returns an array's elements with their paths (nil for nil).
func (t *vtree) list(v *strictjson.Value, path string) ([]*strictjson.Value, []string) {
	if v == nil || !t.want(v, path, strictjson.Array, "an array") {
		return nil, nil
	}
	paths := make([]string, len(v.Elems))
	for i := range v.Elems {
		paths[i] = strictjson.JoinIndex(path, i)
	}
	return v.Elems, paths
}

func (t *vtree) str(v *strictjson.Value, path string) string {
	if v == nil || !t.want(v, path, strictjson.String, "a string") {
		return ""
	}
	return v.Str
}

// bool is a true or false member (false when absent).
func (t *vtree) bool(v *strictjson.Value, path string) bool {
	if v == nil || !t.want(v, path, strictjson.Bool, "true or false") {
		return false
	}
	return v.Bool
}

func (t *vtree) strPtr(v *strictjson.Value, path string) *string {
	if v == nil {
		return nil
	}
	s := t.str(v, path)
	return &s
}

func (t *vtree) intPtr(v *strictjson.Value, path string) *int {
	if v == nil || !t.want(v, path, strictjson.Number, "an integer") {
		return nil
	}
	n, err := strconv.Atoi(v.Str)
	if err != nil {
		t.fail(path, fmt.Errorf("%w: expected an integer, found JSON number %s", strictjson.ErrValue, v.Str))
		return nil
	}
	return &n
}

func (t *vtree) int(v *strictjson.Value, path string) int {
	if p := t.intPtr(v, path); p != nil {
		return *p
	}
	return 0
}

// raw is the value's bytes as the vendor wrote them.
func (t *vtree) raw(v *strictjson.Value) json.RawMessage {
	return json.RawMessage(t.data[v.Offset:v.End])
}

// result returns the fault in the adapter's form: a path after "response".
func (t *vtree) result() (string, error) {
	if t.err == nil {
		return "", nil
	}
	return "." + t.field, t.err
}

// wrapNative builds a JSON object from the given keys and raw values,
// byte for byte: encoding/json would compact the vendor's bytes.
func wrapNative(keys []string, values []json.RawMessage) json.RawMessage {
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(k))
		b.WriteString(": ")
		if values[i] == nil {
			b.WriteString("null")
		} else {
			b.Write(values[i])
		}
	}
	b.WriteByte('}')
	return json.RawMessage(b.String())
}

// rawList joins raw values into a JSON array, byte for byte.
func rawList(values []json.RawMessage) json.RawMessage {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = string(v)
	}
	return json.RawMessage("[" + strings.Join(parts, ", ") + "]")
}

// What the adapters read from a record that shows signs of citing: the
// record's Unread notes, which the audit reports per line.

// citationishKey is a key that holds citations in some vendor's shape.
var citationishKey = regexp.MustCompile(`(?i)citation|cited|grounding|annotation`)

// ignoredKeys are, per format, keys that look like citations but are not
// citations the answer emitted, so that no note is made of them.
var ignoredKeys = map[string][]string{
	// Recitation sources the API attaches to text it reproduces; not
	// citations the answer emitted (policy: "Only citations explicitly
	// emitted by an answer count").
	"gemini": {"citationMetadata", "citation_metadata"},
}

// noteUnread adds to the record's Unread what an adapter of format left
// unread in the response resp: keys of a citation-like name that the
// adapter does not read, with a value (a shape it does not know), and,
// when it read no citation, the citation markers of the answer text.
func noteUnread(rec *Record, format string, resp *strictjson.Value) {
	var keys []string
	var walk func(v *strictjson.Value, path string)
	walk = func(v *strictjson.Value, path string) {
		switch v.Kind {
		case strictjson.Object:
			for _, m := range v.Members {
				p := strictjson.JoinKey(path, m.Key)
				if m.Key == "metadata" { // a document's own metadata is data
					continue
				}
				_, known := vendorKeys[format][strictjson.Fold(m.Key)]
				if !known && !slices.Contains(ignoredKeys[format], m.Key) && citationishKey.MatchString(m.Key) && !emptyJSON(m.Value) {
					keys = append(keys, p)
					continue
				}
				walk(m.Value, p)
			}
		case strictjson.Array:
			for i, e := range v.Elems {
				walk(e, strictjson.JoinIndex(path, i))
			}
		}
	}
	if resp != nil {
		walk(resp, "")
	}
	for _, k := range keys {
		rec.Unread = append(rec.Unread, fmt.Sprintf("response.%s: a shape --format %s does not read", k, format))
	}
	if len(rec.Citations) == 0 {
		if ms := citationMarkers(rec.Response); len(ms) > 0 {
			rec.Unread = append([]string{fmt.Sprintf("the answer has citation markers (%s) but the response holds no citation --format %s reads",
				strings.Join(ms, ", "), format)}, rec.Unread...)
		}
	}
}

func emptyJSON(v *strictjson.Value) bool {
	switch v.Kind {
	case strictjson.Null:
		return true
	case strictjson.Object:
		return len(v.Members) == 0
	case strictjson.Array:
		return len(v.Elems) == 0
	case strictjson.String:
		return strings.TrimSpace(v.Str) == ""
	}
	return false
}

var (
	// numberedMarker is "[1]" or "[1, 2]"; whether it is a marker depends on
	// what precedes it (bracketMarkers).
	numberedMarker = regexp.MustCompile(`\[(\d{1,4}(?:\s*,\s*\d{1,4})*)\]`)
	// otherMarker: OpenAI Assistants' "【4:0†source】", footnotes "[^1]",
	// Azure OpenAI's "[doc1]".
	otherMarker = regexp.MustCompile(`【[^】\n]{1,40}】|\[\^\d{1,4}\]|\[doc\d{1,4}\]`)
)

// bracketMarker is one numbered citation marker of an answer.
type bracketMarker struct {
	pos     int    // byte offset in the text
	text    string // as written: "[1]", "[1, 2]"
	numbers []int
}

// bracketMarkers finds the numbered citation markers of s: "[n]" or
// "[n, m]", alone or in a run ("[1][2]"), after white space, punctuation
// or the start of the text. A run that follows a letter, digit,
// underscore or closing bracket is an index ("parts[0]", "x[2][1]",
// "f(x)[1]"), not a citation; but for a letter of a script written without
// spaces, which a marker follows directly ("工作日[1]").
func bracketMarkers(s string) []bracketMarker {
	var out []bracketMarker
	prevEnd, runOK := -1, false
	for _, m := range numberedMarker.FindAllStringSubmatchIndex(s, -1) {
		if m[0] != prevEnd {
			before, _ := utf8.DecodeLastRuneInString(s[:m[0]])
			runOK = m[0] == 0 || textnorm.NoSpaceScript(before) || !(unicode.IsLetter(before) || unicode.IsDigit(before) || before == '_' || before == ')' || before == ']')
		}
		prevEnd = m[1]
		if !runOK {
			continue
		}
		bm := bracketMarker{pos: m[0], text: s[m[0]:m[1]]}
		for _, f := range strings.Split(s[m[2]:m[3]], ",") {
			n, _ := strconv.Atoi(strings.TrimSpace(f))
			bm.numbers = append(bm.numbers, n)
		}
		out = append(out, bm)
	}
	return out
}

// citationMarkers lists the distinct citation markers of an answer text,
// in order of first use.
func citationMarkers(s string) []string {
	all := bracketMarkers(s)
	for _, m := range otherMarker.FindAllStringIndex(s, -1) {
		all = append(all, bracketMarker{pos: m[0], text: s[m[0]:m[1]]})
	}
	slices.SortStableFunc(all, func(a, b bracketMarker) int { return a.pos - b.pos })
	var out []string
	for _, a := range all {
		if !slices.Contains(out, a.text) {
			out = append(out, a.text)
		}
	}
	return out
}
