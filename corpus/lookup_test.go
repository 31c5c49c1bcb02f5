package corpus

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLookup(t *testing.T) {
	m := &Manifest{Documents: []Document{{Name: "a.pdf", BLAKE3: "blake3:aa"}, {Name: "b.pdf", BLAKE3: "blake3:bb"}}}
	d, ok := m.Lookup("b.pdf")
	assert.True(t, ok && d.Name == "b.pdf", "by name")
	d, ok = m.Lookup("blake3:aa")
	assert.True(t, ok && d.Name == "a.pdf", "by hash")
	_, ok = m.Lookup("c.pdf")
	assert.False(t, ok)
}
