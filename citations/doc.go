// Package citations locates the quotes an answer cited: a quote locator
// over a corpus's page texts (Index, Locate) and the reference-free
// grounding of one citation (Ground: which document, which page, how many
// locations). It knows quotes, documents and pages, not run records:
// package audit grounds the citations of whole runs, and judging whether a
// located quote supports an answer is package grade's job
// (grade.Classify).
//
// # Calling the locator from another tool
//
//	store, err := corpus.Open(dir)
//	ix, err := citations.NewIndex(store, citations.Options{})  // once
//	r := ix.Locate(citations.Query{Document: "report.pdf", Quote: q, Page: 3})
//	r.Status, r.Level, r.Pages(), r.Spans(), r.PageCheck, r.CrossesPage()
//
// Build(texts, opts) indexes any corpus.Texts: NewIndex is Build of a
// store, and a corpus.Memory indexes texts that are not in one. Build reads
// every page (text, alternative texts, reading orders) on opts.Workers
// goroutines. An Index is immutable; Locate is safe for concurrent use and
// needs no locking.
// LocateAll(queries, workers) locates many quotes on several goroutines,
// results in the queries' order; GroundAll grounds many citations so.
//
// The index is made of shards of whole documents (about
// opts.ShardChars of normalized text each). A quote that names its
// document and is not short (ShortQuoteLen) is first looked up in that
// document's shards alone: when it is found there, by a level before
// reordered, that is its result, and its cost does not grow with the
// corpus. Every other quote (none named, not found in its document, short,
// or found only at the reordered level or after) is looked up in every
// shard, and costs more as the corpus grows; a stage after one that found
// the quote elsewhere reads the document's shards alone. Results do not
// depend on the shards (TestShardsAndScopeSameResults).
//
// # A persisted index
//
// WriteIndex writes an Index in the format IndexFormat
// (docs/formats.md#quote-index), bound to a digest of the texts it was
// built from; MapFile maps such a file and OpenIndex opens it without
// normalizing a page or building a suffix array: the texts and suffix
// arrays (24-bit entries up to 16 MiB of text, 32-bit beyond) stay in the
// mapped bytes, and a page's normalization is
// recomputed, and kept, when a lookup first lands on it. An opened index
// answers every query exactly as the index written (TestIndexFileSameAnswers).
// BuildFile(w, texts, opts, digest) writes the same bytes as Build then
// WriteIndex, in memory bounded by a piece of the index rather than by
// the corpus: each piece is written to a spill as it is built (corpora of
// up to 6 Mi code points of page text are built whole). StoreIndex uses it.
// OpenIndex refuses another version or profile (ErrIndexFormat,
// ErrIndexStale) and another digest (ErrIndexStale); given the digest of
// the file's block sums, it verifies the bytes it decodes, and each block
// of texts and suffix arrays when a lookup first reads it: a changed block
// read is a fault that Index.Err reports (ErrIndexIntegrity, an
// ErrIntegrity), and callers check it before using results. StoreIndex
// stores the index in a corpus (corpus.Store.WriteQuoteIndex) and
// OpenStored opens it from there, also checking the stored files of each
// page a lookup normalizes: the verbs verify what they read, not the whole
// corpus on every run.
//
// # Units
//
// Spans are Unicode code points of the stored page text (corpus.Store.Text,
// "citecheck show"), 0-based, end exclusive; pages are 1-based physical page
// indices. A page label is extra information, matched as a label (and, for
// a document without labels, a numeric label as the page it numbers).
// Lengths in constants (ShortQuoteLen, MinPieceLen, MaxElisionGap) count code
// points of text normalized by the quote profile (textnorm quote/v2, every
// corpus file name a footer name).
//
// # How a quote is located
//
// The index holds every page normalized by textnorm quote/v2, the pages of a
// document joined by one space so that a quote crossing a page break is found
// (with both pages), plus excerpts joined across a page break where only page
// furniture sits between the pages (a line that is only a page number, or the
// policy's "<file name> Page <N>" footer). A quote is searched in levels,
// strictest first; the first level that finds it in the named document
// decides:
//
//  1. normalized (exact .. ligature, at least whitespace across a page
//     break): the quote's normalized text and its line-end hyphenation
//     spellings, each hit verified with textnorm.Align; then the same in
//     the pages' reading orders (corpus.Order, package layout), reported in
//     page-text offsets, one span per piece the page text has apart, with
//     Location.Order and Result.Note naming the order; several orders
//     finding it at one place count once (orders.go); then, for a quote
//     holding a letter with an accent above before one that takes it, the
//     same with the accent moved onto the next letter where the page has a
//     spacing accent (accentafter.go); then, for a retrieval result
//     (Query.Retrieval), the same with its edges allowed inside words:
//     RetrievalEdges;
//  2. joined_words: spaces ignored, never between two digits, for quotes of
//     at least textnorm.JoinedMinLen code points;
//  3. unmapped_glyphs: with the page's unmapped glyphs (U+FFFD) left out,
//     under the same limits (unmapped.go);
//  4. glyph_codes: in the pages' alternative texts (corpus.ValidateAlts),
//     as written, then with spaces ignored (glyphcodes.go); then with
//     pypdf's glyph names ("/epsilon1") each read as one non-ASCII glyph
//     of the page (glyphnames.go);
//  5. elided: a quote with "..." or "…" (brackets around them allowed) is
//     cut into segments, each found at level 1, in order, each at most
//     MaxElisionGap code points after the previous; Result.Elided;
//  6. reordered: every word of the quote on one page, in pieces in another
//     order (reorder.go: MinPieceWords, MinPieceLen, MaxReorderSpan), or a
//     column run (columns.go);
//  7. punctuation, then non_ascii_dropped: the quote's skeleton (its
//     letters, digits and other numbers) looked up in the skeletons of the
//     page texts and reading orders, each hit verified character by
//     character; never a word break, never a character that carries
//     meaning (punctuation.go, symbols.go). A quote not found that matches
//     a passage but for such a character has Result.Changed and a note.
//     A passage these rules find that starts or ends inside a word of the
//     page is joined_words;
//  8. combinations, in the named document, when nothing else found the
//     quote: its alternative texts under the rules of level 7, and an
//     ASCII copy or a copy with other spaces holding pypdf's glyph names
//     (altsymbols.go, glyphnamesascii.go), both glyph_codes; an ASCII
//     quote of several lines by the reordered level's rules in the pages
//     read as an ASCII-only copy (asciireorder.go), reordered.
//
// Every match starts and ends on word boundaries of the page, except at a
// word the page hyphenated at a line end (then at least hyphenation), for
// joined_words inside a word the page split, and for a retrieval result's
// edges (retrieval_edges).
//
// The status is taken from the named document: unique (one location, or one
// on the given page), ambiguous, not_found (nowhere in the corpus),
// not_found_in_document (in other documents, listed in Elsewhere) or
// unknown_document. A given page is checked as a physical page, then as a
// page label, then read 0-based (page+1); PageCheck reports which, or
// not_on_page. A quote under ShortQuoteLen code points that occurs more than
// ShortQuoteMaxOccurrences times in the corpus is ambiguous unless a given
// page holds it exactly once (Result.Short).
//
// # Grounding
//
// Ground resolves the cited document (by name, hash or the run's mapping
// of names, runs.Mapping; a loose or conflicting match, or a mapping to
// two or more candidate corpus documents, is ambiguous, never accepted; a
// title the vendor gives that names a corpus document wins over a mapping
// that names another, and Grounded.Note says so) and locates the quote
// there, in the precedence the grader needs: a source outside the corpus
// (external, never looked up), unknown document, ambiguous mapping, no
// quote, not found (no text to search: unverifiable; in another document:
// wrong document; nowhere: fabricated), wrong page or another page
// convention (only where the citing format's page base is not its
// contract: Citation.PagePhysical), several locations, one location.
// Covers reports whether a location holds a declared Passage, across a page
// break too (only page furniture between).
//
// # Ambiguities decided
//
// Each decision of the locator is stated beside the test that pins it:
// TestDecision* in decision_test.go and locate_test.go, and the cases of
// TestLocate marked "Decided". The run adapters' decisions are package
// runs'.
//
// # Input formats and failure classes
//
// Locate requests (ReadLocateRequests), like run records (package runs),
// are read strictly: invalid UTF-8, duplicate keys, keys differing only in
// case, unknown keys, missing required keys and invalid values are
// *InputError with file, line and the JSON key path, input faults
// (inputerr.ErrInput) wrapping the strict-JSON layer's sentinels as the
// run reader's do (internal/strictjson: ErrInvalidUTF8, ErrDuplicateKey,
// ErrUnknownKey, ErrMissing, ErrValue or ErrTooLarge). A locate request
// whose quote is longer than MaxQuoteBytes (64 KiB) is refused as too
// long (ErrTooLarge), not searched: locating costs memory in proportion to
// the quote's length. Run records are not capped per quote (only per line,
// runs.MaxLineBytes): a model's long quote is still graded. Build (and
// NewIndex) returns what reading the texts returned, for a store
// corpus.ErrIntegrity (wrapped) when a page text no longer matches its
// hash, and ErrDuplicateDocument for a corpus.Texts that breaks its
// contract by naming a document twice. Nothing else fails: an unknown
// document, an empty quote or an unreadable document is a status or a
// note.
//
// # Ordering
//
// Locations are sorted by document, then position; Elsewhere by document.
// Nothing depends on map order or scheduling: LocateAll, GroundAll and
// WriteLocated work on several goroutines (their workers; 0: GOMAXPROCS)
// and place each result by its input's index, so their results are those
// of one goroutine.
//
// # What this package does not do
//
// It does not read PDFs (only stored page texts), compare quotes with a
// reference, grade answers or parse field labels. It never prints or exits.
package citations

// BUG(citations): a word hyphenated across a page break ("ac-" at the end of
// one page, "tual" on the next) is not joined, and a running head with words
// between two pages blocks a cross-page quote that skips it.

// BUG(citations): joined_words, punctuation and non_ascii_dropped matches
// do not cross page breaks.

// BUG(citations): an ASCII-only copy of another extractor's composed text
// ("Aviao", pdftotext's "Aviação" without its accented letters) of a
// passage whose accents the page stores after their letter ("Aviac¸a˜o")
// is not found: the profile composes the tilde with the next letter, so
// the page reads "Aviaa" once its accented letters are dropped. The copy
// of such a page's own text ("Aviacao") is found.

// BUG(citations): the reordered level finds quotes whose lines another
// extractor emitted in another order only when each line is in the stored
// text as a whole, or (column runs) lies in consecutive stored lines, and
// never places a line holding a number on its own outside a column of
// numbers. docs/benchmarks.md (make bench-fidelity) has how many quotes
// copied from other extractors are found, and why the rest are not.

// BUG(citations): glyph_codes searches each of a page's alternative texts
// as a whole, so a quote that reads some glyphs one extractor's way and
// others another's (pdf.js knows some TeX names and not others) is not
// found; nor is one whose accents another extractor moved after their base
// letter (poppler's "f˜" for our "˜ f").

// BUG(citations): a built index keeps every page's textnorm.Text (about
// 10 bytes per code point) in memory beside its suffix arrays, and an
// opened one the last 4,096 pages it normalized, most of its heap at ten
// times the test corpus; docs/benchmarks.md has the peak memory at one
// and ten times it.
