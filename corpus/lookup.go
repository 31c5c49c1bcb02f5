package corpus

import (
	"slices"
	"strings"
)

// Lookup returns the document named key, or whose BLAKE3 hash key is
// ("blake3:<hex>"), as the CLI's verbs accept either.
func (m *Manifest) Lookup(key string) (*Document, bool) {
	if d, ok := m.Document(key); ok {
		return d, true
	}
	for i := range m.Documents {
		if m.Documents[i].BLAKE3 == key {
			return &m.Documents[i], true
		}
	}
	return nil, false
}

// MaxNear is how many names Near returns at the most.
const MaxNear = 5

// Near returns the names, at most MaxNear of them and sorted, that a
// "did you mean" offers for key, a document name that is not in names:
// those equal to it but for case, or that hold it or are held in it once
// both are lower-cased and rid of ".pdf".
func Near(names []string, key string) []string {
	lower := strings.ToLower(key)
	var near []string
	for _, n := range names {
		ln := strings.ToLower(n)
		if ln == lower || strings.Contains(ln, strings.TrimSuffix(lower, ".pdf")) || strings.Contains(lower, strings.TrimSuffix(ln, ".pdf")) {
			near = append(near, n)
		}
	}
	slices.Sort(near)
	return near[:min(len(near), MaxNear)]
}
