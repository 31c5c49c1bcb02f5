package schematest

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Field is one key a schema allows, for the field tables of docs/: its
// path from the document's root ("questions[].essential_claims[].field";
// "[]" an array's elements, "<key>" an object's keys that are data), its
// JSON type ("string", "integer", "array", "object", "string or null",
// ...) and whether its object requires it.
type Field struct {
	Path, Type string
	Required   bool
}

// Fields lists every key of the schema doc, objects that $defs define
// walked in place, in the schema's order of properties sorted by name.
func Fields(t *testing.T, doc map[string]any) []Field {
	t.Helper()
	defs, _ := doc["$defs"].(map[string]any)
	w := &fieldWalker{defs: defs}
	w.object(doc, "")
	return w.out
}

type fieldWalker struct {
	defs map[string]any
	out  []Field
	seen int // guards against a schema that refers to itself
}

// resolve follows $ref and keeps the non-null branch of a oneOf with
// null; it reports whether null is allowed.
func (w *fieldWalker) resolve(s map[string]any) (map[string]any, bool) {
	nullable := false
	for range 8 {
		if ref, ok := s["$ref"].(string); ok {
			s = w.defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
			continue
		}
		if alts, ok := s["oneOf"].([]any); ok && len(alts) == 2 {
			var other map[string]any
			for _, a := range alts {
				if m := a.(map[string]any); m["type"] == "null" {
					nullable = true
				} else {
					other = m
				}
			}
			if nullable {
				s = other
				continue
			}
		}
		break
	}
	return s, nullable
}

// typeOf names a schema's JSON type.
func (w *fieldWalker) typeOf(s map[string]any) string {
	s, nullable := w.resolve(s)
	var names []string
	switch ty := s["type"].(type) {
	case string:
		names = []string{ty}
	case []any:
		for _, x := range ty {
			if x != "null" {
				names = append(names, x.(string))
			} else {
				nullable = true
			}
		}
	}
	if len(names) == 0 {
		switch {
		case s["enum"] != nil || s["const"] != nil:
			names = []string{"string"}
		case s["oneOf"] != nil:
			for _, a := range s["oneOf"].([]any) {
				names = append(names, w.typeOf(a.(map[string]any)))
			}
		}
	}
	if len(names) == 0 {
		names = []string{"any"} // no constraint: any JSON value
	}
	if nullable {
		names = append(names, "null")
	}
	return strings.Join(names, " or ")
}

func (w *fieldWalker) object(s map[string]any, prefix string) {
	if w.seen++; w.seen > 1000 {
		return
	}
	s, _ = w.resolve(s)
	props, _ := s["properties"].(map[string]any)
	var required []string
	for _, r := range asList(s["required"]) {
		required = append(required, r.(string))
	}
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		p := props[k].(map[string]any)
		path := prefix + k
		w.out = append(w.out, Field{Path: path, Type: w.typeOf(p), Required: slices.Contains(required, k)})
		w.inner(p, path)
	}
	if extra, ok := s["additionalProperties"].(map[string]any); ok {
		path := prefix + "<key>"
		w.out = append(w.out, Field{Path: path, Type: w.typeOf(extra)})
		w.inner(extra, path)
	}
}

// inner walks what a field holds: an object's keys, an array's elements.
func (w *fieldWalker) inner(s map[string]any, path string) {
	s, _ = w.resolve(s)
	if _, ok := s["properties"]; ok {
		w.object(s, path+".")
		return
	}
	if m, ok := s["additionalProperties"].(map[string]any); ok {
		w.object(map[string]any{"additionalProperties": m}, path+".")
		return
	}
	if items, ok := s["items"].(map[string]any); ok {
		items, _ = w.resolve(items)
		if _, ok := items["properties"]; ok {
			w.object(items, path+"[].")
		}
	}
	for _, a := range asList(s["oneOf"]) {
		if m, ok := a.(map[string]any)["additionalProperties"].(map[string]any); ok {
			w.object(map[string]any{"additionalProperties": m}, path+".")
		}
	}
}

func asList(v any) []any { l, _ := v.([]any); return l }

// tableRow is a row of a docs field table: | `path` | type | required | ...
var tableRow = regexp.MustCompile("(?m)^\\| `([^`]+)` \\| ([^|]+?) \\| (yes|no) \\|")

// CheckFieldTable holds the field table that follows heading in the
// Markdown page doc to the schema's fields: the same paths, types and
// required flags, in any order.
func CheckFieldTable(t *testing.T, doc, heading string, want []Field) {
	t.Helper()
	_, rest, ok := strings.Cut(doc, heading+"\n")
	if !ok {
		t.Fatalf("no heading %q", heading)
	}
	if end := strings.Index(rest, "\n#"); end >= 0 {
		rest = rest[:end]
	}
	got := map[string]Field{}
	for _, m := range tableRow.FindAllStringSubmatch(rest, -1) {
		got[m[1]] = Field{Path: m[1], Type: strings.TrimSpace(m[2]), Required: m[3] == "yes"}
	}
	var missing []string
	for _, f := range want {
		g, ok := got[f.Path]
		switch {
		case !ok:
			missing = append(missing, fmt.Sprintf("| `%s` | %s | %s | | |", f.Path, f.Type, yes(f.Required)))
		case g != f:
			t.Errorf("%s: the table says %s, %s; the schema %s, %s", f.Path, g.Type, yes(g.Required), f.Type, yes(f.Required))
		}
		delete(got, f.Path)
	}
	for p := range got {
		t.Errorf("%s: in the table under %q, not in the schema", p, heading)
	}
	if len(missing) > 0 {
		t.Errorf("the table under %q lacks, from the schema:\n%s", heading, strings.Join(missing, "\n"))
	}
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
