package citations

import (
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/citecheck/citecheck/corpus"
)

// OpenStored opens the quote index of a corpus store: the one stored in it
// (StoreIndex; extract, import-text and merge write it), mapped, or, for a
// store saved without one, an index built here. A stored index that is
// stale, missing, resized, of another format, or whose table of block
// sums no longer hashes as the manifest records is refused with an error
// wrapping corpus.ErrQuoteIndex (an integrity fault), never rebuilt:
// inside a frozen evaluation the corpus must not change.
//
// Opening reads no more than the manifest and the index's tables: what
// lookups read is verified when they read it, each block of the index file
// against its sum, and the stored files of each page whose text a lookup
// normalizes (its text, alternative texts and reading orders) against the
// manifest, its text also against the index's copy. A fault is reported
// by the Index's Err, with the file's name: callers check it before they
// use a result. A changed file that nothing reads does not change any
// answer and is not reported; freeze --verify finds it.
func OpenStored(store *corpus.Store) (*Index, error) {
	q, path, ok, err := store.QuoteIndexPath()
	if !ok {
		return NewIndex(store, Options{})
	}
	if err != nil {
		return nil, err
	}
	if q.Format != IndexFormat || q.Blocks == "" {
		return nil, fmt.Errorf("%s: %w: format %s, this citecheck reads %s; citecheck extract (or import-text, merge) on the same inputs stores it again", q.File, corpus.ErrQuoteIndex, q.Format, IndexFormat)
	}
	b, err := MapFile(path)
	if err != nil {
		return nil, err
	}
	ix, err := OpenIndex(b, sourcesKey(store), q.Blocks)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %w", q.File, corpus.ErrQuoteIndex, err)
	}
	ix.blocks.name = q.File
	m := store.Manifest()
	raw := ix.rawText
	checked := make([]atomic.Bool, len(ix.pages))
	ix.rawText = func(p int) string {
		text := raw(p)
		if checked[p].Load() {
			return text
		}
		pe := &ix.pages[p]
		d, ok := m.Lookup(ix.docs[pe.doc].name)
		var err error
		if !ok {
			err = fmt.Errorf("%s: %w: the index holds a document the manifest does not", ix.docs[pe.doc].name, corpus.ErrQuoteIndex)
		} else {
			err = store.CheckPage(d, pe.num, func(stored []byte) error {
				if string(stored) != text {
					return fmt.Errorf("%s page %d: %w: the index holds another text", d.Name, pe.num, corpus.ErrQuoteIndex)
				}
				return nil
			})
		}
		if err != nil {
			ix.notePageFault(p, err)
		}
		checked[p].Store(true)
		return text
	}
	return ix, nil
}

// StoreIndex builds the quote index of a store's texts (BuildFile) and
// stores it there, unless the one stored is of this format, built from
// these very texts and unchanged since.
func StoreIndex(store *corpus.Store) error {
	if q, _, ok, err := store.QuoteIndexPath(); ok && err == nil && q.Format == IndexFormat && q.Blocks != "" && store.CheckQuoteIndex() == nil {
		return nil
	}
	key := sourcesKey(store)
	// Built piece by piece into the file, so that memory does not grow
	// with the corpus; its spill file goes beside the index it becomes.
	opts := Options{SpillDir: filepath.Join(store.Dir(), corpus.QuoteIndexDir)}
	return store.WriteQuoteIndex(IndexFormat, func(w io.Writer) (string, error) { return BuildFile(w, store, opts, key) })
}

// HasStoredIndex reports whether the store records a quote index, which
// OpenStored maps instead of building one.
func HasStoredIndex(store *corpus.Store) bool {
	_, _, ok, _ := store.QuoteIndexPath()
	return ok
}

// sourcesKey is the digest binding a stored index to the manifest's texts.
func sourcesKey(store *corpus.Store) [32]byte {
	var k [32]byte
	hex.Decode(k[:], []byte(strings.TrimPrefix(store.SourcesDigest(), "blake3:")))
	return k
}
