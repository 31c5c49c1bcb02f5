package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPath(t *testing.T) {
	p := Path(t, "") // skips when ../shared is absent
	if filepath.Base(p) != "shared" {
		t.Errorf("Path(\"\") = %s, want the shared folder", p)
	}
	if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
		t.Errorf("%s is not a folder: %v", p, err)
	}
}

func TestPathSkipsWhenAbsent(t *testing.T) {
	ok := t.Run("absent", func(t *testing.T) {
		Path(t, "no-such-folder-here")
		t.Error("Path returned for a missing folder instead of skipping")
	})
	if !ok {
		t.Error("the subtest failed rather than skipped")
	}
}
