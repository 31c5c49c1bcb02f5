package corpus

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
