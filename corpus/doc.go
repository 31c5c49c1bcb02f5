// Package corpus is the store of extracted page texts that everything after
// extraction reads: a folder holding a versioned manifest.json and one UTF-8
// file per page. It imports no PDF library; PDFs are turned into text by an
// ExtractFunc the caller supplies (package pdftext in the citecheck command).
//
// # Units and identities
//
// Pages are 1-based physical page indices. Text lengths ("chars") count
// Unicode code points, the unit of every offset citecheck reports. A document
// is identified by the BLAKE3-256 hash of its bytes and named by its file
// name; names are unique within a corpus. Digests are written
// "blake3:<64 lower-case hex digits>" (see Hash).
//
// # On-disk format, version "citecheck-corpus/1"
//
//	CORPUS/manifest.json                       the Manifest, indented JSON
//	CORPUS/text/<hex>/<page>.txt               page text, <hex> = document hash
//	                                           without "blake3:", <page> = %04d
//	CORPUS/text/<hex>/<page>.boxes.gz          glyph boxes (BoxesFormat, gzip), when
//	                                           the extractor records them
//	CORPUS/text/<hex>/<page>.alt<k>.txt        the page's alternative texts (alt.go),
//	                                           k = 1, 2, ..., when it has them
//
// The manifest lists documents sorted by name, each with its size, hash,
// extraction status, page count and, per page, the hash and length of the
// stored text and flags. Stored texts are valid UTF-8 and contain no form
// feed, so "show" can separate pages with one. The manifest records the
// extractor's name, version and limits: offsets depend on them, so a corpus
// built by another extractor version is re-extracted in full, never mixed.
// Nothing in the format depends on time or absolute paths; building the same
// inputs twice gives identical bytes.
//
// # Contract of Build
//
//   - Inputs are PDF files and folders (searched recursively for *.pdf, in
//     sorted order). Two inputs with the same file name, or an input whose
//     name is already in the corpus from another source path, are refused
//     with ErrDuplicateName before anything is extracted.
//   - A document whose bytes hash as the stored entry's did, extracted "ok"
//     by the same extractor, is not extracted again. Failed documents are
//     retried (a password may since have been supplied).
//   - Extraction runs in parallel; results are placed by input index, so
//     the output does not depend on scheduling.
//   - A document that extracts "ok" with zero pages is recorded as
//     "malformed": zero pages is never an empty success.
//   - Pages are flagged FlagNoTextLayer when they hold no visible text and
//     FlagUnreliableText when at least half of their non-space characters
//     are U+FFFD or private-use code points.
//   - The manifest is written last and atomically (temporary file and
//     rename); page texts are written before it. An interrupted Build leaves
//     the previous manifest in force.
//
// # Failure classes
//
// Per-document outcomes are data (Status), not errors. Build returns an
// error only for faults that stop the whole job: unreadable inputs,
// ErrDuplicateName, ErrNotCorpus (the output folder holds something else), or
// I/O errors writing the store. Store.Text returns ErrIntegrity when a page
// file no longer matches the hash the manifest recorded.
//
// This package does not parse PDFs, normalize text or locate quotes.
package corpus
