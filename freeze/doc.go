// Package freeze writes and verifies lock files: a line-oriented, sorted,
// versioned record of everything an evaluation's grading depends on, in the
// spirit of go.sum, closed by a root hash. Freezing refuses a reference
// with span errors; verifying re-hashes every pinned input and names each
// one that changed. Grading calls Check before it reads anything.
//
//	fr, err := freeze.Write(freeze.Inputs{LockPath: "eval.lock", CorpusDir: "corpus",
//	        ReferencePath: "refs.json", PlanPath: "plan.json", Toolchain: freeze.CurrentToolchain()})
//	rep, err := freeze.Check("eval.lock", freeze.CurrentToolchain())
//	if !rep.OK() { /* refuse: rep.Changes names what changed */ }
//
// # Format "citecheck-lock/1"
//
// UTF-8 text, one record per line, each line ending in "\n":
//
//	citecheck-lock/1
//	<records, sorted bytewise by their whole line, no duplicates>
//	root blake3:<hex>
//
// A record is a kind and its fields separated by single spaces. A field
// that is empty or holds white space, '"', '\\' or an unprintable character
// is written as a Go-quoted string (strconv.Quote), so names with spaces
// survive. Hashes are "blake3:<64 hex digits>" (BLAKE3-256, corpus.Hash).
// Paths are slash-separated and relative to the folder holding the lock, so
// the lock moves with its inputs. The kinds:
//
//	corpus          PATH MANIFEST_BLAKE3           the corpus folder and its manifest.json
//	extractor       NAME VERSION                   from the corpus manifest
//	extractor.limit NAME VALUE                     one per extraction limit
//	pdf             DOC STATUS BYTES BLAKE3 PATH   every corpus document and its PDF
//	text            DOC BYTES BLAKE3 PATH          instead of pdf, a document imported from page
//	                                               texts (ingest.ImportText): BYTES and BLAKE3 as
//	                                               the manifest's (corpus.TextHash), PATH its folder
//	page            DOC PAGE CHARS BLAKE3          every stored page text (chars in code points)
//	alt             DOC PAGE K BLAKE3              every stored alternative text (<page>.alt<K>.txt,
//	                                               K from 1), its BLAKE3 as the manifest's
//	boxes           DOC PAGE BLAKE3                every stored glyph-box file (<page>.boxes.gz):
//	                                               the BLAKE3 of the uncompressed boxes, as the
//	                                               manifest's
//	layout          DOC PAGE BLAKE3                every stored reading-orders file
//	                                               (<page>.orders.txt), its BLAKE3 as the manifest's
//	quote-index     FILE FORMAT BYTES BLAKE3 SOURCES  the corpus's stored quote index
//	                                               (corpus.QuoteIndex), when it has one: re-hashed
//	reference       PATH RAW_BLAKE3 CANON_BLAKE3   the file's bytes; spans.Reference.Canonical
//	question        ID BLAKE3                      spans.CanonicalQuestion, one per question
//	question.part   ID FIELD BLAKE3                spans.QuestionParts (not "id"), to name what changed
//	plan            PATH BLAKE3                    the plan file's bytes (only with a plan)
//	plan.order      REPETITION BLAKE3              the ids of one order, one per line
//	reviews         PATH BLAKE3                    a decisions file of source review (package
//	                                               review; freeze --reviews), its bytes
//	tool            MODULE VERSION                 the running binary (runtime/debug)
//	tool.vcs        REVISION[+dirty]               when the build recorded it
//	module          PATH VERSION                   every module linked in
//	go              VERSION                        runtime.Version()
//	unicode         go|norm VERSION                unicode.Version, norm.Version
//	normalization   PROFILE                        textnorm.ProfileQuoteV2
//
// The root is the BLAKE3 of every byte before the root line (the format
// line and the records). Records are sorted so the same inputs give the
// same bytes, and a diff of two locks shows what moved.
//
// # Verification
//
// Check parses the lock (ErrNotLock for another file, ErrMalformed for a
// lock whose lines cannot be read), then reports as Changes, in this order:
// a root that does not match the records, records out of order or
// repeated; the corpus manifest, extractor and limits; every PDF re-hashed
// at its recorded path (missing, changed) and compared with its corpus
// entry; every folder of imported page texts re-read as ingest.ImportText
// reads it (missing, no longer importable, changed), naming each page file
// changed, missing or added, and compared with its corpus entry; documents
// added to the corpus; every page text (its manifest
// entry, and its file re-hashed through corpus.Store.Text); every
// alternative text, glyph-box file and reading-orders file (its manifest
// entry, and its file re-read through corpus.Store.AltText,
// corpus.Store.Boxes and corpus.Store.Orders, the readers the verbs use: a
// missing file, a gzip that no longer decompresses and boxes that
// decompress to other bytes are each a change); alternative texts,
// glyph-box files and reading-orders files the manifest records for a
// frozen page that the lock does not pin (a lock written before alt, boxes
// and layout records existed is refused: freeze again); the stored quote
// index (its manifest record, and its file re-hashed through
// corpus.Store.CheckQuoteIndex: edited, missing or stale is a change; one
// the lock does not pin, or a pin the corpus no longer has, too); the reference's
// raw and canonical hashes, and each question by id (added, removed, or
// which parts changed); the plan's hash, its decoding (an edited order is
// refused with the positions that moved) and each repetition's order;
// every decisions file (reviews), re-hashed at its path. A
// difference in the toolchain records (tool, tool.vcs, module, go,
// unicode, normalization) is a Warning only: the frozen evidence is intact,
// though verdicts should be recomputed by the freezing toolchain. Check
// never writes or repairs anything.
//
// # Failure classes
//
// Build (and Write) refuse with ErrReferenceInvalid when span validation
// finds errors (Frozen.Spans holds them), ErrPlanMismatch when the plan was
// made for other questions, ErrStaleCorpus when a PDF, a folder of imported
// page texts or a stored page text, alternative text or glyph-box file no
// longer matches the corpus (a stored file through corpus.ErrIntegrity).
// Decoding faults of the reference and plan are returned as their
// packages' *DecodeError. Check's error is only for a
// lock it cannot read; every change is data in the Report, and Report.Err
// wraps ErrChanged. The package never prints or exits.
//
// BUG(freeze): the root hash detects edits, not an adversary: whoever can
// rewrite the lock can recompute the root. Signing the lock is out of scope.
//
// BUG(freeze): a lock holds hashes, not content, so a changed question is
// named with its changed fields (question.part) but not with the old value.
package freeze
