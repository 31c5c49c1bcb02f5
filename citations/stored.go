package citations

import (
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"github.com/citecheck/citecheck/corpus"
)

// OpenStored opens the quote index of a corpus store: the one stored in it
// (StoreIndex; extract, import-text and merge write it), mapped, or, for a
// store saved without one, an index built here. A stored index that is
// stale, missing, resized, edited or unreadable is refused with an error
// wrapping corpus.ErrQuoteIndex (an integrity fault), never rebuilt:
// inside a frozen evaluation the corpus must not change.
//
// Every stored page text, alternative text and reading-orders file is
// checked against the manifest, as building an index checks them, and each
// page text against the index's copy; the index file is hashed whole
// meanwhile, so that an edit keeping its size and structure cannot give
// wrong answers. The first fault in document and page order is returned.
func OpenStored(store *corpus.Store) (*Index, error) {
	_, path, ok, err := store.QuoteIndexPath()
	if !ok {
		return NewIndex(store, Options{})
	}
	if err != nil {
		return nil, err
	}
	b, err := MapFile(path)
	if err != nil {
		return nil, err
	}
	ix, err := OpenIndex(b, sourcesKey(store), "")
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %w", path, corpus.ErrQuoteIndex, err)
	}
	hashed := make(chan error, 1)
	go func() { hashed <- store.CheckQuoteIndex() }()
	err = store.CheckStored(func(d *corpus.Document, p int, text []byte) error {
		if stored, ok := ix.PageText(d.Name, p); !ok || stored != string(text) {
			return fmt.Errorf("%s page %d: %w: the index holds another text", d.Name, p, corpus.ErrQuoteIndex)
		}
		return nil
	})
	if herr := <-hashed; err == nil {
		err = herr
	}
	if err != nil {
		return nil, err
	}
	return ix, nil
}

// StoreIndex builds the quote index of a store's texts and stores it
// there, unless the one stored is built from these very texts and
// unchanged since.
func StoreIndex(store *corpus.Store) error {
	if _, _, ok, err := store.QuoteIndexPath(); ok && err == nil && store.CheckQuoteIndex() == nil {
		return nil
	}
	ix, err := NewIndex(store, Options{})
	if err != nil {
		return err
	}
	key := sourcesKey(store)
	return store.WriteQuoteIndex(IndexFormat, func(w io.Writer) error { return WriteIndex(w, ix, key) })
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
