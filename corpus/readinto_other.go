//go:build !linux

package corpus

import (
	"bytes"
	"os"
)

// readInto appends the file at path (NUL-terminated) to buf and returns it.
func readInto(path, buf []byte) ([]byte, error) {
	f, err := os.Open(string(bytes.TrimSuffix(path, []byte{0})))
	if err != nil {
		return buf, err
	}
	defer f.Close()
	w := bytes.NewBuffer(buf)
	_, err = w.ReadFrom(f)
	return w.Bytes(), err
}
