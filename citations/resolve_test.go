package citations

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/testcorpus"
	"github.com/citecheck/citecheck/runs"
	"github.com/stretchr/testify/assert"
)

// TestResolveMapping: how a cited document resolves through the run's
// documents mapping, a value being one name or a list of candidates; one
// reason per case.
func TestResolveMapping(t *testing.T) {
	// Mappings name warehouse-sop.pdf by its hash as "blake3:ww".
	ww := corpus.Hash([]byte("warehouse-sop.pdf"))
	ix, err := Build(testcorpus.Memory(t, []corpus.MemoryDocument{
		{Name: "price-list.pdf", Pages: []corpus.PageText{{Text: "Prices valid until 31 December 2024."}}},
		{Name: "supplier-qa.pdf", Pages: []corpus.PageText{{Text: "The supplier shall draw 12 samples per batch."}}},
		{Name: "warehouse-sop.pdf", BLAKE3: ww, Pages: []corpus.PageText{{Text: "Pallets are stored 50 cm apart."}}},
	}), Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		ref        string
		mapping    string // the run record's documents, as JSON
		want       Resolution
		doc        string   // the name when resolved
		candidates []string // when ambiguous
		reason     string
	}{
		{"grading example", "file-2", `{"file-2": ["warehouse-sop.pdf", "price-list.pdf"]}`, DocAmbiguous, "", []string{"price-list.pdf", "warehouse-sop.pdf"},
			"two candidates that are both corpus documents: the run cannot say which was cited (ambiguous_document_mapping)"},
		{"one-name list", "file-2", `{"file-2": ["price-list.pdf"]}`, DocResolved, "price-list.pdf", nil,
			"a one-element list behaves exactly like the string"},
		{"string", "file-2", `{"file-2": "price-list.pdf"}`, DocResolved, "price-list.pdf", nil,
			"the string form, as before"},
		{"hash candidate", "file-2", `{"file-2": ["blake3:ww"]}`, DocResolved, "warehouse-sop.pdf", nil,
			"a candidate may be a blake3 hash"},
		{"same document twice", "file-2", `{"file-2": ["warehouse-sop.pdf", "blake3:ww"]}`, DocResolved, "warehouse-sop.pdf", nil,
			"a name and the hash of the same document are one candidate"},
		{"three candidates", "file-2", `{"file-2": ["warehouse-sop.pdf", "supplier-qa.pdf", "price-list.pdf"]}`, DocAmbiguous, "", []string{"price-list.pdf", "supplier-qa.pdf", "warehouse-sop.pdf"},
			"every corpus candidate is listed, sorted"},
		{"one candidate in the corpus", "file-2", `{"file-2": ["gone.pdf", "price-list.pdf"]}`, DocResolved, "price-list.pdf", nil,
			"only candidates that name corpus documents count: the mapping leaves one"},
		{"no candidate in the corpus", "file-2", `{"file-2": ["gone.pdf", "lost.pdf"]}`, DocUnknown, "", nil,
			"a mapping only to documents the corpus lacks is an unknown document, like a string naming one"},
		{"string to a missing document", "file-2", `{"file-2": "gone.pdf"}`, DocUnknown, "", nil,
			"as before: the run maps the reference to something the corpus lacks"},
		{"exact name and a list", "price-list.pdf", `{"price-list.pdf": ["price-list.pdf", "supplier-qa.pdf"]}`, DocAmbiguous, "", []string{"price-list.pdf", "supplier-qa.pdf"},
			"the exact name counts with the candidates"},
		{"exact name and a conflicting string", "price-list.pdf", `{"price-list.pdf": "supplier-qa.pdf"}`, DocAmbiguous, "", []string{"price-list.pdf", "supplier-qa.pdf"},
			"as before: two ways of naming disagree"},
		{"exact name, list of missing names", "price-list.pdf", `{"price-list.pdf": ["gone.pdf", "lost.pdf"]}`, DocResolved, "price-list.pdf", nil,
			"a mapping to missing names does not undo an exact name"},
		{"unmapped key", "file-3", `{"file-2": ["warehouse-sop.pdf", "price-list.pdf"]}`, DocUnknown, "", nil,
			"the mapping only speaks for its keys"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var m runs.Mapping
			if err := json.Unmarshal([]byte(strings.ReplaceAll(tc.mapping, "blake3:ww", ww)), &m); err != nil {
				t.Fatal(err)
			}
			got := ix.Resolve(tc.ref, m)
			assert.Equal(t, tc.want, got.Resolution, tc.reason)
			assert.Equal(t, tc.doc, got.Name, tc.reason)
			assert.Equal(t, tc.candidates, got.Candidates, tc.reason)
			assert.False(t, got.Loose, tc.reason)
			if tc.want == DocAmbiguous {
				g := ix.Ground(Citation{Document: tc.ref, Quote: "Prices valid until 31 December 2024."}, m)
				assert.Equal(t, GroundedUnverifiable, g.Grounding, tc.reason)
				assert.Equal(t, CauseAmbiguousMapping, g.Cause, tc.reason)
				assert.Contains(t, g.Detail, strings.Join(tc.candidates, ", "), "the candidates are named (%s)", tc.reason)
			}
		})
	}
	// An empty list is refused when a run record is read; Resolve, given
	// one anyway, treats it as no mapping.
	if got := ix.Resolve("file-2", runs.Mapping{"file-2": {}}); got.Resolution != DocUnknown {
		t.Errorf("empty list: %+v", got)
	}
}
