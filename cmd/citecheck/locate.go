package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/corpus"
)

const locateAbout = `
Locate each quote of QUOTES.jsonl (stdin when absent or "-") in the corpus
and write one JSON record per input record, in input order, to stdout.

Input records: {"id": "q1", "document": "name.pdf", "quote": "...", "page": 3}
("document" is a file name or a blake3: hash; "page" is optional and
1-based; "page_label" may give a page label instead; "quote_from":
"retrieval_result" marks a retrieval result, whose edge words may be cut
short; formats: docs/formats.md#quotes).

Output records: {"id", "status", "pages", "spans", "match"}, then
"crosses_page", "document", "occurrences", "page_check",
"disambiguated_by_page", "short", "elided", "document_status",
"page_flags", "found_in" and "note" when they apply
(docs/formats.md#locate-output). status is unique,
ambiguous, not_found, not_found_in_document or unknown_document; spans are
{"page", "start", "end"} in Unicode code points of the stored page text;
match is the normalization level the match needed (exact, canonical,
whitespace, hyphenation, typography, ligature, retrieval_edges,
joined_words, unmapped_glyphs, glyph_codes, reordered, punctuation,
non_ascii_dropped: docs/locating.md).
page_check says how a given page relates to where the quote is: physical,
page_label, zero_based or not_on_page.

A quote longer than 64 KiB (citations.MaxQuoteBytes) is refused as too long,
not searched: bad input, like an empty quote.

Progress goes to stderr: a bar on a terminal; otherwise (a CI log) a line
every 10 seconds once a run takes that long.

Example:
  citecheck locate --corpus corpus quotes.jsonl > located.jsonl

Exit status: 0 every quote is unique (and on its page, when one is given);
1 some quote is not; 2 bad usage or bad input (file:line: field: fault; a
file with no records); 3 a stored page text or quote-index block that the
lookups read changed (nothing is written for its batch of 1,024 quotes),
or the stored quote index is stale, of another format or missing.`

func runLocate(e *env, args []string) error {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet(stderr, "locate", "locate --corpus CORPUS [QUOTES.jsonl]", locateAbout)
	dir := fs.String("corpus", "", "corpus `folder` (required)")
	rest, err := parseFlags(fs, stdout, args)
	if err != nil {
		return err
	}
	if *dir == "" {
		return usageErrorf("locate: --corpus CORPUS is required")
	}
	if len(rest) > 1 {
		return usageErrorf("locate: want at most one QUOTES.jsonl, got %d arguments", len(rest))
	}
	path := "-"
	if len(rest) == 1 {
		path = rest[0]
	}
	reqs, err := readInput(e.stdin, path, func(r io.Reader, name string) ([]citations.LocateRequest, error) {
		return citations.ReadLocateRequests(r, name)
	})
	if err != nil {
		return err
	}
	if len(reqs) == 0 {
		return fmt.Errorf("locate: %w", noRecords(path))
	}
	ix, err := openIndex("locate", *dir)
	if err != nil {
		return err
	}
	bar := startProgress(stderr, "locate", "quotes", len(reqs))
	clean, err := writeLocate(stdout, ix, reqs, bar.set)
	bar.finish()
	if err != nil {
		return err
	}
	if !clean {
		return errChecksFailed
	}
	return nil
}

// writeLocate writes one output record per request, in order, and
// reports whether every quote was unique (on its page, when one was
// given). Quotes are located on GOMAXPROCS goroutines.
func writeLocate(w io.Writer, ix *citations.Index, reqs []citations.LocateRequest, done func(int)) (bool, error) {
	return ix.WriteLocated(w, reqs, 0, done)
}

// readInput opens path ("-" is stdin, named "stdin" in errors) and hands
// it to read: the one way a verb reads an input file.
func readInput[T any](stdin io.Reader, path string, read func(io.Reader, string) (T, error)) (T, error) {
	if path == "-" {
		return read(stdin, "stdin")
	}
	f, err := os.Open(path)
	if err != nil {
		var zero T
		return zero, err
	}
	defer f.Close()
	return read(f, path)
}

// indexGCPercent is the garbage collector's growth target of a verb that
// builds an index (see openIndex and citecheck-locbench).
const indexGCPercent = 50

// openIndex opens a corpus and its quote index (citations.OpenStored).
func openIndex(verb, dir string) (*citations.Index, error) {
	store, err := corpus.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", verb, err)
	}
	if !citations.HasStoredIndex(store) {
		// The index is most of the live heap, and its build allocates
		// transient buffers as large again; collecting at 50% growth
		// instead of 100% cut the peak memory of a ten-times corpus from
		// 1139 to 898 MiB at no cost in time (citecheck-locbench --scale
		// 10). It stays set for the rest of the verb.
		debug.SetGCPercent(indexGCPercent)
	}
	ix, err := citations.OpenStored(store)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", verb, err)
	}
	return ix, nil
}

// storeIndex builds the corpus's quote index and stores it there, after
// extract, import-text or merge wrote the corpus.
func storeIndex(verb, dir string) error {
	store, err := corpus.Open(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", verb, err)
	}
	debug.SetGCPercent(indexGCPercent)
	defer debug.SetGCPercent(100)
	if err := citations.StoreIndex(store); err != nil {
		return fmt.Errorf("%s: quote index: %w", verb, err)
	}
	return nil
}
