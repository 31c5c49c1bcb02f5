package plan

import "math/rand/v2"

// UniformDraws returns n draws below m from PCG(seed1, seed2) by the
// plan's bounded-draw rule, for the cross-check with the vectors.
func UniformDraws(seed1, seed2 uint64, m, n int) []int {
	src := rand.NewPCG(seed1, seed2)
	out := make([]int, n)
	for i := range out {
		out[i] = int(uniform(src, uint64(m)))
	}
	return out
}
