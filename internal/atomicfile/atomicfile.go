package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
)

// Write replaces path with data.
func Write(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	merr := tmp.Chmod(0o644)
	cerr := tmp.Close()
	if werr != nil || merr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return errors.Join(werr, merr, cerr)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// File is a file being written in place of path: Commit renames it over
// path, Abort (or a failed Commit) removes it. Readers of path never see
// part of it.
type File struct {
	*os.File
	path string
	done bool
}

// Create starts writing a replacement for path, in its folder.
func Create(path string) (*File, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, err
	}
	return &File{File: tmp, path: path}, nil
}

// Commit closes the file and renames it over path.
func (f *File) Commit() error {
	if f.done {
		return errors.New("atomicfile: already committed or aborted")
	}
	f.done = true
	merr := f.Chmod(0o644)
	cerr := f.Close()
	if merr != nil || cerr != nil {
		os.Remove(f.Name())
		return errors.Join(merr, cerr)
	}
	if err := os.Rename(f.Name(), f.path); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// Abort closes and removes the file; after Commit it does nothing.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.Close()
	os.Remove(f.Name())
}
