// Package corpus is the store of extracted page texts that everything after
// extraction reads: a folder holding a versioned manifest.json and one UTF-8
// file per page. This package defines the store's format, reads it (Open,
// Store, Texts, Memory) and checks every file it reads; it also holds the
// primitives a builder writes a store with (DocWriter, Commit), so that
// the format is written in one place. Building a store, from PDFs through
// an extractor, from page texts, or from shards, is package corpus/ingest's.
// It imports no PDF library: an extractor (package pdftext) hands a
// builder each document as an Extraction of PageTexts.
//
// # Units and identities
//
// Pages are 1-based physical page indices. Text lengths ("chars") count
// Unicode code points, the unit of every offset citecheck reports. A document
// is identified by the BLAKE3-256 hash of its bytes (for a document imported
// from page texts, of its pages: TextHash) and named by its file name;
// names are unique within a corpus. Digests are written
// "blake3:<64 lower-case hex digits>" (see Hash, ParseHash).
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
//	CORPUS/text/<hex>/<page>.orders.txt        the page's reading orders (OrdersFormat),
//	                                           when the extractor records them
//	CORPUS/quote-index/<hex>.bin               the quote index (QuoteIndex), <hex> its BLAKE3,
//	                                           when one was built from these texts
//
// The quote index is package citations' locator index over every page,
// stored so that the verbs that locate quotes map it instead of building
// it (its format: docs/formats.md#quote-index). This package stores and
// checks it without reading it: Store.WriteQuoteIndex writes the file,
// then the manifest's quote_index record (format, file, bytes, BLAKE3, the
// writer's digest of its blocks, and Manifest.SourcesDigest, the hash of the manifest without that record,
// which names every text the index was built from), each atomically;
// Commit, through which every builder writes its manifest, keeps the
// record only when nothing it was built from changed (the same
// SourcesDigest), and otherwise writes a manifest without it (the
// citecheck verbs then store a new index). Store.QuoteIndexPath refuses an
// index built from other texts (stale), missing or of another size, and
// Store.CheckQuoteIndex one that no longer hashes as recorded, with
// ErrQuoteIndex, which wraps ErrIntegrity. Store.CheckPage checks one
// page's stored files, for a reader that checks only the pages it reads.
//
// A page's reading orders (orders.go) are its glyphs read in other orders
// than the page text's, as layout-ordered extractors read a page (package
// layout: "layout" as pdftotext, "boxes" as pdfminer), each with a map from
// its code points to the page text's offsets (-1 for a separator it
// inserted). The page text and its offsets are what they are without them;
// the quote locator searches the orders after the page text and reports
// what it finds there in page-text offsets. The manifest records the file's
// hash (Page.Orders); Store.Orders reads them checked against it and
// against the page text.
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
// A corpus holds documents extracted from PDFs or documents imported from
// page texts, never both (ErrMixedCorpus): the manifest of an imported
// corpus names TextExtractorID as its extractor, and each of its
// documents' sources is "text:" (TextSourcePrefix) and the path of its
// page folder (TextSource); a manifest whose sources do not all match its
// extractor does not open.
//
// # Writing a store
//
// What a builder stores passes ValidatePage first: a page text valid UTF-8
// without a form feed, glyph boxes, alternative texts and reading orders
// that fit it; a page that does not is the extractor's fault, and the
// store never holds it. DocWriter writes one document's files (WritePage
// records each page as DescribePage describes it: hashes, lengths, flags
// FlagNoTextLayer when it holds no visible text and FlagUnreliableText when
// at least half of its non-space characters are U+FFFD or private-use code
// points); Commit then writes the manifest last and atomically (temporary
// file and rename), so that an interrupted build leaves the previous
// manifest in force, and removes the page texts no document refers to any
// more.
//
// # Reading page texts: Texts
//
// What reads a corpus after extraction (package spans' checks, package
// citations' quote index) reads it through Texts: the documents as a
// manifest describes them, sorted by name, and per page its stored text,
// alternative texts and reading orders. *Store implements it, every read
// checked against the manifest (below). *Memory is Texts held in memory,
// for tests and tools: NewMemory takes documents as page texts (PageText,
// what an extractor returns) and describes them exactly as a builder
// records them (hashes, lengths, flags, "malformed" for an "ok" document
// without pages, TextHash as the identity unless one is given), refusing
// pages ValidatePage refuses; MemoryOf takes plain page strings.
//
// # Failure classes
//
// Per-document outcomes are data (Status), not errors. Open returns
// ErrNotCorpus for a folder without a manifest (saying how to make one of
// what it holds) and an input error (an *inputerr.Error) for a manifest
// that does not decode or breaks the format's invariants. Store.Text,
// Store.AltTexts (and AltText), Store.Boxes and Store.Orders check every
// stored file they read against the manifest and return an
// *IntegrityError, wrapping ErrIntegrity, when it is missing, no longer
// matches the hash the manifest records (for glyph boxes, the hash of the
// uncompressed data: a boxes file that does not decompress is an integrity
// failure too) or no longer fits the page's recorded length (for orders,
// the page text).
//
// This package does not parse PDFs, normalize text or locate quotes.
package corpus
