//go:build !linux

package corpus

// spreadFolders does nothing outside Linux (see spread_linux.go).
func spreadFolders(string) {}
