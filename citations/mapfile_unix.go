//go:build unix

package citations

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// MapFile maps a file read-only into memory: its pages are read from disk
// when first touched and shared with every process mapping it, so an index
// costs resident memory only for what lookups visit. The mapping lasts as
// long as the process (an Index opened on it keeps pointing into it).
func MapFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() == 0 {
		return []byte{}, nil
	}
	if fi.Size() != int64(int(fi.Size())) {
		return nil, fmt.Errorf("%s: %d bytes is too large to map", path, fi.Size())
	}
	b, err := unix.Mmap(int(f.Fd()), 0, int(fi.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("map %s: %w", path, err)
	}
	return b, nil
}
