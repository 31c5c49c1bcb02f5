package corpus_test

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/corpus/ingest"
	"github.com/citecheck/citecheck/internal/schematest"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// docs/schema/corpus-manifest.schema.json documents manifest.json
// (docs/formats.md#corpus-store). These tests validate the manifests of
// stores made here, by Build (every kind of stored file, failed
// documents) and by ImportText, and check that broken manifests are
// refused by the schema and by Open, or say why they cannot agree.

func manifestSchema(t *testing.T) (*jsonschema.Schema, map[string]any) {
	t.Helper()
	const name = "corpus-manifest.schema.json"
	return schematest.Compile(t, name), schematest.Doc(t, name)
}

func validateManifest(t *testing.T, s *jsonschema.Schema, text string) error {
	t.Helper()
	return schematest.Validate(t, s, text)
}

// schemaPending lists, by Go type, the manifest keys docs/schema lags
// behind: Page.orders (the hash of the page's reading orders,
// <page>.orders.txt) waits for docs/schema/corpus-manifest.schema.json to
// describe it; until then a store with orders writes a manifest the schema
// refuses, and builtStore makes none.
var schemaPending = map[string][]string{"Page": {"orders"}}

// builtStore makes a corpus with Build: a document whose pages have a
// label, glyph boxes, alternative texts, flags and warnings, an encrypted
// one and a malformed one. It returns the corpus folder.
func builtStore(t *testing.T) string {
	t.Helper()
	in := t.TempDir()
	files := map[string]string{"policy.pdf": "%PDF-1.7 policy", "locked.pdf": "%PDF-1.7 locked", "broken.pdf": "not a pdf"}
	var paths []string
	for name, body := range files {
		p := filepath.Join(in, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	sort.Strings(paths)
	extract := func(_ context.Context, name string, _ []byte) corpus.Extraction {
		switch name {
		case "locked.pdf":
			return corpus.Extraction{Status: corpus.StatusEncrypted, Error: "a password is needed"}
		case "broken.pdf":
			return corpus.Extraction{Status: corpus.StatusMalformed, Error: "no PDF header"}
		}
		return corpus.Extraction{Status: corpus.StatusOK, Warnings: []string{"cross-reference table rebuilt"}, Pages: []corpus.PageText{
			{Text: "Orders ≠ deliveries", Label: "i", Boxes: corpus.EncodeBoxes([]corpus.GlyphBox{{Start: 0, End: 6, X0: 72, Y0: 700, X1: 110, Y1: 712}}),
				Alts: []string{"Orders 6 deliveries"}, Warnings: []string{"font F1: no ToUnicode"}},
			{Text: "", Label: "ii", Flags: []string{corpus.FlagNoTextLayer}},
		}}
	}
	dir := t.TempDir()
	if _, err := ingest.Build(context.Background(), dir, paths, ingest.BuildOptions{
		Extractor: corpus.ExtractorID{Name: "citecheck-pdftext", Version: "test", Limits: map[string]int64{"timeout_ms": 30000}},
		Extract:   extract}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// importedStore makes a corpus with ImportText from two page folders.
func importedStore(t *testing.T) string {
	t.Helper()
	pages := t.TempDir()
	for name, texts := range map[string][]string{"sop.pdf": {"Step 1.\n", "Step 2.\n"}, "prices.pdf": {"Bracket B-200: 4.75 per piece"}} {
		for i, text := range texts {
			p := filepath.Join(pages, name, []string{"0001.txt", "0002.txt"}[i])
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	dir := t.TempDir()
	if _, err := ingest.ImportText(dir, []string{pages}, ingest.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestManifestSchema(t *testing.T) {
	s, tree := manifestSchema(t)
	built := builtStore(t)
	// A stored quote index, with the digest its reader verifies it by.
	st, err := corpus.Open(built)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.WriteQuoteIndex("test-index/1", func(w io.Writer) (string, error) {
		_, err := io.WriteString(w, "index")
		return corpus.Hash([]byte("sums")), err
	}); err != nil {
		t.Fatal(err)
	}
	manifests := map[string]string{}
	for name, dir := range map[string]string{"Build": built, "ImportText": importedStore(t)} {
		data, err := os.ReadFile(filepath.Join(dir, corpus.ManifestFile))
		if err != nil {
			t.Fatal(err)
		}
		manifests[name] = string(data)
		if err := validateManifest(t, s, string(data)); err != nil {
			t.Errorf("%s's manifest: %v\n%s", name, err, data)
		}
	}
	for _, want := range []string{`"label"`, `"boxes"`, `"alts"`, `"flags"`, `"warnings"`, `"encrypted"`, `"error"`, `"quote_index"`, `"blocks"`} {
		if !strings.Contains(manifests["Build"], want) {
			t.Errorf("the built manifest has no %s: the test does not exercise it", want)
		}
	}

	good := manifests["Build"]
	var m map[string]any
	if err := json.Unmarshal([]byte(good), &m); err != nil {
		t.Fatal(err)
	}
	okDoc := -1
	for i, d := range m["documents"].([]any) {
		if d.(map[string]any)["status"] == "ok" {
			okDoc = i
		}
	}
	hash := m["documents"].([]any)[okDoc].(map[string]any)["blake3"].(string)
	cases := []struct {
		name         string
		doc          string
		schema, open bool
		why          string
	}{
		{"built", good, true, true, "Build's manifest"},
		{"another format", strings.Replace(good, corpus.Format, "citecheck-corpus/2", 1), false, false, "the version is pinned"},
		{"unknown key", strings.Replace(good, `"format":`, `"created": "today", "format":`, 1), false, false, "no other keys"},
		{"bad hash", strings.Replace(good, hash, strings.ToUpper(hash), 1), false, false, "lower-case hex"},
		{"unknown status", strings.Replace(good, `"encrypted"`, `"locked"`, 1), false, false, "seven statuses"},
		{"page zero", strings.Replace(good, `"page": 1,`, `"page": 0,`, 1), false, false, "pages are 1-based"},
		{"ok without pages", strings.Replace(good, `"page_count": 2`, `"page_count": 0`, 1), false, false, "an ok document has pages"},
		{"chars as string", strings.Replace(good, `"chars": 19`, `"chars": "19"`, 1), false, false, "chars is an integer"},
		{"pages out of order", strings.Replace(strings.Replace(good, `"page": 1,`, `"page": 9,`, 1), `"page": 2,`, `"page": 1,`, 1), true, false,
			"a schema cannot check that pages run 1..page_count"},
		{"duplicate key", strings.Replace(good, `"format":`, `"format": "x", "format":`, 1), true, true,
			"the schema cannot see it and Open reads the manifest citecheck wrote with encoding/json, which keeps the last"},
		{"case variant", strings.Replace(good, `"format":`, `"Format":`, 1), false, true,
			"unknown to the schema; encoding/json binds it to format"},
	}
	for _, c := range cases {
		if err := validateManifest(t, s, c.doc); (err == nil) != c.schema {
			t.Errorf("%s: schema valid=%v, want %v (%s): %v", c.name, err == nil, c.schema, c.why, err)
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, corpus.ManifestFile), []byte(c.doc), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := corpus.Open(dir); (err == nil) != c.open {
			t.Errorf("%s: Open valid=%v, want %v (%s): %v", c.name, err == nil, c.open, c.why, err)
		}
	}

	obj := func(path ...string) map[string]any {
		var v any = tree
		for _, p := range path {
			v = v.(map[string]any)[p]
		}
		return v.(map[string]any)
	}
	for _, tc := range []struct {
		typ    any
		object map[string]any
	}{
		{corpus.Manifest{}, tree},
		{corpus.ExtractorID{}, obj("properties", "extractor")},
		{corpus.Document{}, obj("$defs", "document")},
		{corpus.Page{}, obj("$defs", "page")},
	} {
		var props, tags []string
		for k := range tc.object["properties"].(map[string]any) {
			props = append(props, k)
		}
		rt := reflect.TypeOf(tc.typ)
		for i := 0; i < rt.NumField(); i++ {
			if name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ","); rt.Field(i).IsExported() && name != "" && name != "-" {
				tags = append(tags, name)
			}
		}
		// Keys the store writes that docs/schema does not describe yet,
		// each waiting for its schema change; a key the schema has gained
		// must leave this list.
		for _, k := range schemaPending[rt.Name()] {
			if slices.Contains(props, k) {
				t.Errorf("%s.%s: the schema describes it now: remove it from schemaPending", rt.Name(), k)
			}
			props = append(props, k)
		}
		sort.Strings(props)
		sort.Strings(tags)
		if !slices.Equal(props, tags) {
			t.Errorf("%s: schema properties %v, Go JSON keys %v", rt.Name(), props, tags)
		}
	}
	var statuses []string
	for _, v := range obj("$defs", "document", "properties", "status")["enum"].([]any) {
		statuses = append(statuses, v.(string))
	}
	var want []string
	for _, st := range corpus.Statuses {
		want = append(want, string(st))
	}
	if !slices.Equal(statuses, want) {
		t.Errorf("schema statuses %v, corpus.Statuses %v", statuses, want)
	}
	if n := obj("$defs", "page", "properties", "alts")["maxItems"]; n != float64(corpus.MaxAlts) {
		t.Errorf("schema alts maxItems %v, corpus.MaxAlts %d", n, corpus.MaxAlts)
	}
}
