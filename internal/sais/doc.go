// Package sais builds suffix arrays with 32-bit entries: the SA-IS
// construction of the standard library's index/suffixarray, copied
// (sais.go verbatim, sais2.go its int32 functions; the Go authors' LICENSE
// beside them) because that package builds the array only behind its own
// serialization, which the quote index then had to decode again: a fifth
// of the index's build time.
//
// It does no more than that: no lookups, no 64-bit entries (texts of 2 GiB
// or more are refused by the caller).
package sais

// Build fills sa with the suffix array of text: sa[i] is the offset of
// the i-th smallest suffix. len(sa) must be len(text), which must be
// under 2 GiB.
func Build(text []byte, sa []int32) {
	if len(sa) != len(text) || len(text) >= 1<<31-1 {
		panic("sais: misuse of Build")
	}
	text_32(text, sa)
}
