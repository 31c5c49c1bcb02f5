package citations

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"reflect"
	"sort"
	"strings"
)

// Mapping is how a run names documents: the key is what a citation says
// (a vendor file id, a title, a source path), the value the corpus file
// names or "blake3:<hex>" hashes it may stand for: one name, or several
// candidates when the run cannot tell which document the key is. Model
// output never names a file to open; a cited document maps to a corpus
// entry only by name, by this mapping or by hash (DESIGN §3).
//
// In JSON a value is a string (one name) or a list of names; a one-name
// list reads like the string, and MarshalJSON writes one name as a string.
// An empty list is kept as read: RunRecord.Validate refuses it.
type Mapping map[string][]string

// UnmarshalJSON reads an object whose values are a name or a list of names.
func (m *Mapping) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field == "" {
			return &json.UnmarshalTypeError{Value: te.Value, Type: reflect.TypeFor[Mapping](), Offset: te.Offset}
		}
		return err
	}
	if raw == nil { // null
		*m = nil
		return nil
	}
	out := make(Mapping, len(raw))
	for k, v := range raw {
		var name string
		if err := json.Unmarshal(v, &name); err == nil {
			out[k] = []string{name}
			continue
		}
		var names []string
		if err := json.Unmarshal(v, &names); err != nil || names == nil {
			return &json.UnmarshalTypeError{Value: jsonKind(v), Type: reflect.TypeFor[string](), Field: k}
		}
		out[k] = names
	}
	*m = out
	return nil
}

// MarshalJSON writes a one-name value as a string and others as a list.
func (m Mapping) MarshalJSON() ([]byte, error) {
	if m == nil {
		return []byte("null"), nil
	}
	out := make(map[string]any, len(m))
	for k, names := range m {
		if len(names) == 1 {
			out[k] = names[0]
		} else {
			out[k] = append([]string{}, names...)
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the caller's encoder decides
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// jsonKind names the kind of a JSON value for a type error.
func jsonKind(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "value"
	}
	switch v[0] {
	case '{':
		return "object"
	case '[':
		return "array of non-strings"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	default:
		return "number"
	}
}

// Resolution is the outcome of mapping a cited document to the corpus.
type Resolution string

// The resolutions.
const (
	DocResolved  Resolution = "resolved"
	DocUnknown   Resolution = "unknown"   // no corpus document
	DocAmbiguous Resolution = "ambiguous" // the ways of naming disagree, or only a loose match exists
)

// DocumentMatch is the result of Resolve.
type DocumentMatch struct {
	Resolution Resolution
	Name       string   // the corpus name when resolved
	Candidates []string // the corpus names in play when ambiguous, sorted
	// Loose: ambiguous because the reference matches only loosely (case,
	// a folder prefix, the extension), not because two ways disagree.
	Loose bool
}

// Why explains an ambiguous match.
func (m DocumentMatch) Why(ref string) string {
	if m.Loose {
		return fmt.Sprintf("document %q matches %s only loosely (case, folder or extension)", ref, strings.Join(m.Candidates, ", "))
	}
	return fmt.Sprintf("document %q maps to %s", ref, strings.Join(m.Candidates, ", "))
}

// Resolve maps a cited document reference to a corpus document. Exact name,
// hash and the run's mapping are each tried; if they point at different
// documents the mapping is ambiguous, and so is a mapping whose candidates
// name two or more corpus documents (candidates the corpus lacks are left
// out; a one-name list is the name). With none of them, a name that
// matches only loosely (case, a folder prefix, a missing ".pdf") is
// ambiguous too, never silently accepted: the citation needs review. A
// reference the mapping sends only to names the corpus lacks is unknown;
// an empty list of candidates (an input error, see RunRecord.Validate)
// counts as no mapping.
func (ix *Index) Resolve(ref string, m Mapping) DocumentMatch {
	got := map[int]bool{}
	if d, ok := ix.docIndex(ref); ok {
		got[d] = true
	}
	if targets := m[ref]; len(targets) > 0 {
		mapped := false
		for _, target := range targets {
			if d, ok := ix.docIndex(target); ok {
				got[d] = true
				mapped = true
			}
		}
		if !mapped && len(got) == 0 {
			// The run maps the reference only to what the corpus lacks.
			return DocumentMatch{Resolution: DocUnknown}
		}
	}
	switch len(got) {
	case 1:
		for d := range got {
			return DocumentMatch{Resolution: DocResolved, Name: ix.docs[d].name}
		}
	case 0:
		var near []string
		for _, d := range ix.docs {
			if looseName(d.name) == looseName(ref) && ref != "" {
				near = append(near, d.name)
			}
		}
		if len(near) > 0 {
			sort.Strings(near)
			return DocumentMatch{Resolution: DocAmbiguous, Candidates: near, Loose: true}
		}
		return DocumentMatch{Resolution: DocUnknown}
	}
	var names []string
	for d := range got {
		names = append(names, ix.docs[d].name)
	}
	sort.Strings(names)
	return DocumentMatch{Resolution: DocAmbiguous, Candidates: names}
}

// looseName folds case, drops a folder prefix and a ".pdf" extension.
func looseName(s string) string {
	s = strings.ToLower(strings.TrimSpace(strings.ReplaceAll(s, `\`, "/")))
	s = path.Base(s)
	return strings.TrimSuffix(s, ".pdf")
}
