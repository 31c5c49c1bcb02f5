// Package corpus is the store of extracted page texts that everything after
// extraction reads: a folder holding a versioned manifest.json and one UTF-8
// file per page. It imports no PDF library; PDFs are turned into text by an
// ExtractFunc the caller supplies (package pdftext in the citecheck command),
// or page texts are imported as they are (ImportText).
//
// # Units and identities
//
// Pages are 1-based physical page indices. Text lengths ("chars") count
// Unicode code points, the unit of every offset citecheck reports. A document
// is identified by the BLAKE3-256 hash of its bytes (for a document imported
// from page texts, of its pages: see ImportText below) and named by its file
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
// Build, ImportText and Merge keep the record only when nothing it was
// built from changed (the same SourcesDigest), and otherwise write a
// manifest without it (the citecheck verbs then store a new index). Store.QuoteIndexPath refuses an
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
// # Sharded extraction: Build with a Shard, then Merge
//
// A corpus too large for one machine is extracted in N shards, each by
// Build with BuildOptions.Shard{Index: K, Count: N} into a folder of its
// own, and merged by Merge into the store one Build of all the inputs
// would have written, byte for byte.
//
//   - A document belongs to shard K of N when the first 8 bytes of its
//     BLAKE3, read as a big-endian integer, leave K when divided by N
//     (Shard.Owns): its content decides, so documents added to a corpus
//     leave the others in their shards, and every shard is given all the
//     inputs. Each shard reads and hashes every input and extracts its
//     own; names clash across all inputs as in one Build.
//   - A shard's folder is a corpus store holding its documents only (none
//     carried over from an earlier build, unchanged ones reused), plus
//     ShardFile, format "citecheck-shard/1" (ShardManifest): the shard,
//     N, the folder it was extracted into, the extractor, and every input
//     of the extraction with its size, hash and shard. Build refuses a
//     shard into a folder holding a whole corpus, and a whole corpus into
//     a shard's folder (ErrNotShard).
//   - Merge refuses, before writing anything, shards that are not exactly
//     the N shards of one extraction: made by extractors that are not
//     Equal (version, limits) or from other inputs (ErrShardMismatch), a
//     shard given twice or a document held by a shard it does not belong
//     to (ErrShardOverlap), a shard not given or a document its shard does
//     not hold (ErrShardMissing), a folder without a shard manifest
//     (ErrNotShard); each in a *ShardError naming the folder. It copies
//     every stored file, checked against its shard's manifest (an
//     *IntegrityError otherwise, and what it wrote is removed), compresses
//     glyph boxes again as Build does, and makes each document's source
//     relative to the output folder, as Build would have: the PDF's path
//     is its source read from the folder the shard was extracted into,
//     which the shard manifest records, so shard folders may move before
//     the merge and the PDFs may not. Documents of the output corpus not
//     among the inputs stay, as with Build.
//
// # Contract of ImportText: a corpus from page texts
//
// ImportText makes a corpus from text that needs no extraction: the output
// of OCR on scanned PDFs, or text the user already trusts.
//
//   - Each input DIR holds only folders, one per document: DIR/<document
//     name>/NNNN.txt, NNNN the 1-based page number in exactly four digits.
//     The folder's name is the document's name. Pages must run 0001 to N
//     with none missing; a folder holding anything else (another name, page
//     0000, a subfolder), an empty folder, or a file directly in DIR is an
//     input error (ErrPageName, ErrPageGap, ErrNotTextFolder).
//   - Page files are kept byte for byte: they must be valid UTF-8
//     (ErrInvalidUTF8Page, with the byte offset) without a form feed
//     (ErrFormFeedPage). Nothing is normalized: a byte-order mark, CR LF line
//     ends or NUL bytes are stored, and counted in offsets, as they are.
//   - The document's identity (its "blake3") is the BLAKE3-256 of its page
//     texts in page order, each followed by one form feed U+000C (TextHash):
//     for pages "a" and "b", BLAKE3("a\fb\f"). Stored texts never hold a
//     form feed, so the identity determines the pages. Its "bytes" is the
//     sum of the page files' sizes.
//   - Its "source" is "text:" (TextSourcePrefix) and the slash-separated
//     path of the document's folder relative to the corpus folder, for
//     example "text:../pages/supplier-qa.pdf". "freeze" re-hashes that
//     folder as it re-hashes a PDF (ReadTextDocument).
//   - The manifest's extractor is {"name": "citecheck-import-text",
//     "version": "1", "limits": {}} (TextExtractorID). A corpus is built from
//     PDFs or from page texts, never both: ImportText into a corpus made by
//     Build, and Build into one made by ImportText, are refused with
//     ErrMixedCorpus, and a manifest whose sources do not all match its
//     extractor does not open.
//   - Every status is "ok". Page flags are computed as Build computes them
//     (FlagNoTextLayer, FlagUnreliableText); pages have no label, boxes or
//     alternative texts.
//   - Names clash as in Build: the same name (ignoring case) under two
//     inputs, or a name already in the corpus from another folder, is
//     ErrDuplicateName. Documents of the corpus not named this time stay.
//   - Every input is read and checked before anything is written; every
//     input fault is an *ImportError naming the file (the first fault in
//     input, name and page order). Importing the same folders again gives the
//     same bytes; a folder whose pages changed replaces its document.
//
// # Reading page texts: Texts
//
// What reads a corpus after extraction (package spans' checks, package
// citations' quote index) reads it through Texts: the documents as a
// manifest describes them, sorted by name, and per page its stored text,
// alternative texts and reading orders. *Store implements it, every read
// checked against the manifest (below). *Memory is Texts held in memory,
// for tests and tools: NewMemory takes documents as page texts (PageText,
// what an extractor returns) and describes them exactly as Build would
// record them (hashes, lengths, flags, "malformed" for an "ok" document
// without pages, TextHash as the identity unless one is given), refusing
// pages Build would refuse; MemoryOf takes plain page strings.
//
// # Failure classes
//
// Per-document outcomes are data (Status), not errors. Build returns an
// error only for faults that stop the whole job: unreadable inputs,
// ErrDuplicateName, ErrMixedCorpus, ErrNotCorpus (the output folder holds
// something else), ErrNotShard, the context's error when interrupted, or
// I/O errors writing the store; a first Build into a folder that does not
// finish removes what it wrote (an existing corpus keeps its manifest), as
// a failing Merge does, so that the next one can run. Merge returns a
// *ShardError, ErrDuplicateName, ErrMixedCorpus, ErrNotCorpus,
// an *IntegrityError, or an I/O error. ImportText returns an
// *ImportError for every fault of its inputs (the Err* input errors above,
// ErrDuplicateName, ErrMixedCorpus, ErrNotCorpus, an unreadable file) and a
// plain error for I/O errors writing the store. Store.Text, Store.AltTexts
// (and AltText), Store.Boxes and Store.Orders check every stored file they read against
// the manifest and return an *IntegrityError, wrapping ErrIntegrity, when
// it is missing, no longer matches the hash the manifest records (for
// glyph boxes, the hash of the uncompressed data: a boxes file that does
// not decompress is an integrity failure too) or no longer fits the page's
// recorded length (for orders, the page text).
//
// This package does not parse PDFs, normalize text or locate quotes.
package corpus
