package spans_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/shareddata"
	"github.com/citecheck/citecheck/spans"
	"github.com/stretchr/testify/require"
)

// sharedPages reads ../shared/grading/pages/<document>/NNNN.txt into an
// in-memory corpus: the page texts are stored exactly, in page order.
func sharedPages(t *testing.T) *corpus.Memory {
	t.Helper()
	dir := shareddata.Path(t, "grading/pages")
	docs, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string][]string{}
	for _, d := range docs {
		if !d.IsDir() {
			continue
		}
		files, err := filepath.Glob(filepath.Join(dir, d.Name(), "[0-9][0-9][0-9][0-9].txt"))
		if err != nil {
			t.Fatal(err)
		}
		sort.Strings(files)
		for i, f := range files {
			if want := filepath.Join(dir, d.Name(), fmt.Sprintf("%04d.txt", i+1)); f != want {
				t.Fatalf("%s: pages are not numbered 0001.. without gaps (%s)", d.Name(), f)
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			pages[d.Name()] = append(pages[d.Name()], string(b))
		}
	}
	if len(pages) == 0 {
		t.Fatalf("no documents under %s", dir)
	}
	m, err := corpus.MemoryOf(pages)
	require.NoError(t, err)
	return m
}

// TestSharedGradingReference: the grading examples' reference
// (../shared/grading/reference.json: statements in the object form,
// source_names) decodes and validates without a problem over its page
// texts.
func TestSharedGradingReference(t *testing.T) {
	ref, err := spans.ReadFile(shareddata.Path(t, "grading/reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := spans.Validate(ref, sharedPages(t), spans.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) != 0 {
		t.Errorf("problems in the grading reference:\n%s", problems(rep))
	}
	if rep.Answerable != 14 || rep.Unknown != 6 {
		t.Errorf("%s (the README says 14 answerable and 6 unknown)", rep.Summary())
	}
	byField, names := 0, 0
	for _, q := range ref.Questions {
		if a := q.AbsenceAudit; a != nil {
			if a.Statements.ByField != nil {
				byField++
			}
			if len(a.SourceNames) > 0 {
				names++
			}
			for _, f := range q.RequiredFields {
				for _, s := range a.Statements.For(f.Field) {
					if strings.TrimSpace(s) == "" {
						t.Errorf("%s: blank statement for %s", q.ID, f.Field)
					}
				}
			}
		}
	}
	if byField == 0 || names == 0 {
		t.Errorf("the file no longer uses the object form (%d) or source_names (%d): this test checks them", byField, names)
	}
}
