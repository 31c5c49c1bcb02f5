//go:build !unix

package citations

import "os"

// MapFile reads the file whole where mapping it is not supported.
func MapFile(path string) ([]byte, error) { return os.ReadFile(path) }
