// Package atomicfile writes a file so that a reader never sees it
// half-written: the data goes to a temporary file in the same folder, which
// is then renamed over the target. The folder must exist. The file is
// created with mode 0644 (os.CreateTemp alone would make it 0600, and
// corpora and locks are meant to be shared). On any failure the temporary
// file is removed and the target is left as it was.
package atomicfile
