//go:build !unix

package pdftext

// setRlimits does nothing where the operating system has no rlimits; the
// parent's timeout and the extractor's own counters still apply.
func setRlimits(Limits) error { return nil }
