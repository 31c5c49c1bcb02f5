package corpus

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNear(t *testing.T) {
	names := []string{"price-list.pdf", "supplier-policy.pdf", "Supplier-Policy-2.pdf", "manual-1.pdf", "manual-2.pdf", "manual-3.pdf", "manual-4.pdf", "manual-5.pdf", "manual-6.pdf"}
	tests := []struct {
		key  string
		want []string
		why  string
	}{
		{"PRICE-LIST.PDF", []string{"price-list.pdf"}, "a name in another case"},
		{"supplier-policy", []string{"Supplier-Policy-2.pdf", "supplier-policy.pdf"}, "names holding the key, sorted"},
		{"old/price-list.pdf", []string{"price-list.pdf"}, "a key holding a name"},
		{"zzz", nil, "no resemblance"},
		{"manual", []string{"manual-1.pdf", "manual-2.pdf", "manual-3.pdf", "manual-4.pdf", "manual-5.pdf"}, "at most MaxNear"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Near(names, tt.key), tt.why)
	}
}

func TestLookup(t *testing.T) {
	m := &Manifest{Documents: []Document{{Name: "a.pdf", BLAKE3: "blake3:aa"}, {Name: "b.pdf", BLAKE3: "blake3:bb"}}}
	d, ok := m.Lookup("b.pdf")
	assert.True(t, ok && d.Name == "b.pdf", "by name")
	d, ok = m.Lookup("blake3:aa")
	assert.True(t, ok && d.Name == "a.pdf", "by hash")
	_, ok = m.Lookup("c.pdf")
	assert.False(t, ok)
}
