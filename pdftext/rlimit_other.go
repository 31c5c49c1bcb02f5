//go:build !(linux || darwin)

package pdftext

// setRlimits does nothing but on Linux and macOS, where the child's
// rlimits are set (elsewhere there are none, or their types differ); the
// parent's timeout and the extractor's own counters still apply.
func setRlimits(Limits) error { return nil }

// virtualSize returns 0: the address-space size is read from /proc.
func virtualSize() int64 { return 0 }
