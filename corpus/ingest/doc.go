// Package ingest builds corpus stores (package corpus): Build extracts
// PDFs into one through an ExtractFunc the caller supplies (package
// pdftext's in the citecheck command), Build with a Shard and Merge split
// that extraction across machines, and ImportText makes one from page
// texts that need no extraction. It is the citecheck verbs extract, merge
// and import-text; what reads a store afterwards imports package corpus
// only. It writes stores through corpus.DocWriter and corpus.Commit.
//
// # Contract of Build
//
//   - Inputs are PDF files and folders (searched recursively for *.pdf, in
//     sorted order: Inputs). Two inputs with the same file name, or an
//     input whose name is already in the corpus from another source path,
//     are refused with corpus.ErrDuplicateName before anything is
//     extracted.
//   - A document's source is the PDF's path, slash-separated, relative to
//     the corpus folder where it can be.
//   - A document whose bytes hash as the stored entry's did, extracted "ok"
//     by the same extractor, is not extracted again. Failed documents are
//     retried (a password may since have been supplied).
//   - Extraction runs in parallel; results are placed by input index, so
//     the output does not depend on scheduling.
//   - A document that extracts "ok" with zero pages is recorded as
//     "malformed": zero pages is never an empty success. One with a page
//     the store cannot hold (corpus.ValidatePage) is recorded as "crash":
//     the extractor broke its contract, and none of its pages is stored.
//   - Pages are flagged as corpus.DescribePage flags them.
//   - The manifest is written last and atomically (corpus.Commit); page
//     texts are written before it. An interrupted Build leaves the previous
//     manifest in force. A first build into a folder writes BuildingFile
//     before anything else: a folder holding it and no manifest is what a
//     build killed outright left, and the next build empties it.
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
//     every stored file (corpus.DocWriter.CopyFrom), checked against its
//     shard's manifest (a *corpus.IntegrityError otherwise, and what it
//     wrote is removed), compresses glyph boxes again as Build does, and
//     makes each document's source relative to the output folder, as Build
//     would have: the PDF's path is its source read from the folder the
//     shard was extracted into, which the shard manifest records, so shard
//     folders may move before the merge and the PDFs may not. Documents of
//     the output corpus not among the inputs stay, as with Build.
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
//   - The document's identity (its "blake3") is corpus.TextHash of its
//     pages: the BLAKE3-256 of its page texts in page order, each followed
//     by one form feed U+000C; for pages "a" and "b", BLAKE3("a\fb\f").
//     Stored texts never hold a form feed, so the identity determines the
//     pages. Its "bytes" is the sum of the page files' sizes.
//   - Its "source" is "text:" (corpus.TextSourcePrefix) and the
//     slash-separated path of the document's folder relative to the corpus
//     folder, for example "text:../pages/supplier-qa.pdf". "freeze"
//     re-hashes that folder as it re-hashes a PDF (ReadTextDocument).
//   - The manifest's extractor is {"name": "citecheck-import-text",
//     "version": "1", "limits": {}} (corpus.TextExtractorID). A corpus is
//     built from PDFs or from page texts, never both: ImportText into a
//     corpus made by Build, and Build into one made by ImportText, are
//     refused with corpus.ErrMixedCorpus.
//   - Every status is "ok". Page flags are computed as Build computes them;
//     pages have no label, boxes or alternative texts.
//   - Names clash as in Build: the same name (ignoring case) under two
//     inputs, or a name already in the corpus from another folder, is
//     corpus.ErrDuplicateName. Documents of the corpus not named this time
//     stay.
//   - Every input is read and checked before anything is written; every
//     input fault is an *ImportError naming the file (the first fault in
//     input, name and page order). Importing the same folders again gives the
//     same bytes; a folder whose pages changed replaces its document.
//
// # Failure classes
//
// Per-document outcomes are data (corpus.Status), not errors. Build
// returns an error only for faults that stop the whole job: unreadable
// inputs, corpus.ErrDuplicateName, corpus.ErrMixedCorpus,
// corpus.ErrNotCorpus (the output folder holds something else),
// ErrNotShard, the context's error when interrupted, or I/O errors writing
// the store; a first Build into a folder that does not finish removes what
// it wrote (an existing corpus keeps its manifest), as a failing Merge
// does, so that the next one can run. Merge returns a *ShardError,
// corpus.ErrDuplicateName, corpus.ErrMixedCorpus, corpus.ErrNotCorpus, a
// *corpus.IntegrityError, or an I/O error. ImportText returns an
// *ImportError for every fault of its inputs (the Err* input errors above,
// corpus.ErrDuplicateName, corpus.ErrMixedCorpus, corpus.ErrNotCorpus, an
// unreadable file) and a plain error for I/O errors writing the store.
package ingest
