package citations

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSmallSet: add reports a key new exactly once, before and after the
// set outgrows its array and moves to a map.
func TestSmallSet(t *testing.T) {
	var s smallSet[[2]int]
	for round := range 2 {
		for k := range 20 { // past the array's 8
			require.Equal(t, round == 0, s.add([2]int{k, -k}), "key %d, round %d", k, round)
			require.False(t, s.add([2]int{k, -k}), "key %d added twice", k)
		}
	}
}
