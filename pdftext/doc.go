// Package pdftext turns a PDF into the text of its pages. It is the only
// package of citecheck that parses PDFs, and it does so in worker processes
// of its own program (Runner), so that a hostile file costs at most its
// limits.
//
// # Contract
//
// Pages are 1-based physical pages in page-tree order; Document.Pages[i] is
// page i+1. A page's text is valid UTF-8 holding no control character other
// than "\n" (so no form feed): glyphs in content-stream order, then the
// normal appearances of the page's visible annotations; a space where the
// gap between two consecutive glyphs along the writing direction (from the
// end of one glyph's width, character and word spacing excluded, to the
// next one's origin) is wider than 0.1 of the font size, or where a space
// glyph with a real advance was drawn and the gap is at least 0.03 of it; a
// newline where the baseline moves by more than half the font size, the
// writing direction changes, or the text jumps back along its line. A
// spacing accent drawn over the letter before or after it (TeX's "¨ı") is
// placed as that letter is, so no space or line break falls between them
// (poppler's test: the middles within 0.3 of the letter's width, the
// baselines within 0.4 em). A glyph drawn again on top of an earlier one
// with the same text is read once (fake bold, shadows) when it follows
// that glyph or repeats a neighbour of it as well: a lone glyph on another
// line's glyph of the same character is kept (the "4" of an amount drawn
// over the "4" of a wrapped line); Options.KeepCopies keeps every copy. The
// glyphs inside a marked-content span with /ActualText are replaced by that
// text. A code no font data maps becomes U+FFFD, never its raw bytes. The
// same bytes always give the same text; Version names the behaviour, and
// any change that can change a text changes it.
//
// Page.Boxes places every glyph's text on the page (corpus.GlyphBox): its
// code-point span in the text and a box in default user space, from the
// glyph's origin to the end of its width and from 0.2 em below the baseline
// to 0.8 em above it, each coordinate rounded to the nearest hundredth of
// a point (see Floating point). Inserted spaces and newlines have no box.
//
// Page.Alts are the page as other extractors read it where a font without
// a ToUnicode CMap names its glyphs: by the code, for a name outside the
// AGL (poppler, pdf.js) and also for a name from the embedded program's own
// encoding (pdfminer). Each has the text's length in code points and differs
// only at such glyphs; digits of the text are never replaced. The quote
// locator matches them at its glyph_codes level.
//
// # Floating point
//
// The same bytes give the same text, boxes and alternative readings, bit
// for bit, whatever the build: GOAMD64=v1 or v3, amd64 or arm64. Go lets a
// compiler fuse x*y + z into one multiply-add that rounds once (GOAMD64=v3,
// arm64, ppc64, s390x and riscv64 do; GOAMD64=v1 does not), so every
// product that is added or subtracted is rounded first with an explicit
// conversion, float64(x*y), which the language spec says prevents fusion:
// the matrix products and text-to-device transforms, the advances (width
// times size plus spacing), the box corners, the dot products that measure
// gaps, line shifts and writing directions, and the overprint tolerance.
// Hypotenuses are computed by hypot, math.Hypot's amd64 formula with its
// square rounded (the pure Go math.Hypot of other architectures may fuse).
// What remains is +, -, *, / and sqrt, which IEEE 754 defines exactly, and
// exact functions (Abs, Floor, Round, Min, Max). The results are what a
// GOAMD64=v1 build has always computed, so stores made by one are
// unchanged. TestNoFusedMultiplyAdd finds any fused instruction in the
// package compiled for amd64 v3 and arm64; TestStoresAcrossBuilds extracts
// the shared corpus with a v1 and a v3 build and compares the stores byte
// for byte.
//
// Glyph geometry lies on a grid of a hundredth of a point (boxGrid), the
// resolution of corpus.BoxesFormat: Page.Boxes are rounded to it, half
// away from zero, so what Extract returns equals what the store gives
// back, and stored boxes are compared, and hashed, on that grid. Text
// decisions (spaces, line breaks, overprints, right-to-left lines) use the
// unrounded positions, which are themselves the same on every build.
//
// # Layers
//
//   - Objects: pdfcpu reads the file in relaxed mode, repairs what it can and
//     decrypts with the empty password or a supplied one. Two repairs are
//     ours: an /Encrypt dictionary written inline in the trailer (pdfcpu
//     ignores it) is moved to an object, and a cross-reference table pdfcpu
//     cannot use is rebuilt by scanning for "N G obj" headers and object
//     streams. The page tree is walked with inherited Resources and /Rotate;
//     without one, /Type /Page objects are taken in object order.
//   - Streams: Flate data that is corrupt keeps what decoded before the
//     damage; ASCIIHex skips bytes that are not hex digits, as poppler
//     does; other filters are pdfcpu's; image filters are not decoded.
//   - Text: our own content-stream interpreter (q Q cm, BT ET, Tc Tw Tz TL Tf
//     Ts, Td TD Tm T*, Tj TJ ' ", Do for forms, BI/ID/EI skipped), placing
//     each glyph with the full text rendering matrix; BMC/BDC/EMC for
//     /ActualText; annotation appearance streams mapped onto their /Rect.
//     Fonts: simple fonts with the standard encodings, Differences,
//     ToUnicode, the builtin encoding of an embedded Type 1 or CFF program
//     (package fontfile) and standard-14 AFM widths; Type3 widths through
//     FontMatrix; Type0 fonts with
//     Identity-H/V, embedded CMaps, the Unicode-based predefined CMaps and
//     those of national character sets (Shift-JIS, EUC, GBK, Big5, UHC),
//     ToUnicode, W and DW. Glyph names go through the AGL, then the TeX
//     math fonts' names (CMSY, CMMI, CMEX, MSAM, MSBM), then the AGL in
//     lower case ("Bullet"), then names that spell a number ("C41", "G41",
//     fontenc.NumberedNames), then, in a Type 3 font or one naming its
//     base encoding, the base encoding's glyph for the code. A ToUnicode
//     CMap's cidchar and cidrange entries, which it may not hold, are read
//     with the CID number as the code point. Each of these guesses leaves
//     a page warning. A not embedded Chinese font that claims
//     WinAnsiEncoding is read as code page 936 when MuPDF's signs hold
//     (cp936Font).
//
// # Failure classes
//
// Extract returns an error wrapping one of ErrEncrypted, ErrMalformed,
// ErrUnsupported or ErrResourceLimit; Runner adds the outcomes only a
// parent can see (timeout, and crash for a worker that died or answered
// nonsense) and returns every outcome as a corpus.Extraction, never an
// error. Damage that costs part of a page is a page warning, not a failure;
// a panic inside one page's interpretation costs that page, which is flagged
// FlagExtractionError.
//
// # Workers and limits
//
// See Limits: the address-space and stack limits and the timeout hold the
// worker process; the object-number, decoded-bytes, operator, depth, page
// and output limits bound the loops inside it, per document. A worker
// extracts documents one at a time, many in turn (Runner), so the limits
// hold per document as they would in a process of its own:
//
//   - Timeout: the parent kills the worker when a document runs past it;
//     that document is timeout, and the next goes to a new worker.
//   - Address space: RLIMIT_AS holds the whole process, and memory a
//     document made the Go runtime map stays mapped. A worker that has
//     grown by more than Runner.WorkerGrowth (an eighth of the limit) is
//     replaced, and a document whose worker died (out of memory, a stack
//     overflow, a crash) after extracting others is extracted again by a
//     new worker, whose outcome stands: no document is blamed for what an
//     earlier one left behind.
//   - A worker is replaced after Runner.WorkerDocuments documents anyway.
//
// Which documents share a worker changes no byte of any output
// (TestWorkersDoNotChangeTheStore): the package keeps no state from one
// document to the next but read-only tables built on first use.
//
// # What it does not do
//
// It does not sort text into reading order (content order is kept, as
// pdf.js and MuPDF keep it; poppler and pdfminer reorder by layout, and the
// fidelity benchmark shows that as most of what they find missing), run
// OCR, or render. Form fields are read only through their appearance
// streams.
package pdftext

// BUG(pdftext): A composite font without a ToUnicode CMap is read through
// Adobe's CID-to-Unicode table of its collection (Japan1, GB1, CNS1,
// Korea1), or, for a TrueType CID font, through its embedded program's
// Unicode cmap inverted; a CFF CID font with Identity ordering yields
// U+FFFD. Of the predefined CMaps, Identity, the Unicode ones and those of
// national character sets (90ms-RKSJ-H, GBK-EUC-H, B5pc-H, KSCms-UHC-H and
// the like, decoded with golang.org/x/text) are known; CNS-EUC and the
// UTF-8/UTF-32 ones are not.

// BUG(pdftext): A glyph name outside the Adobe Glyph List, the TeX math
// fonts' names and the uniXXXX forms yields U+FFFD, where pdftotext and
// pdf.js sometimes fall back to the character code; Page.Alts records that
// reading only for printable ASCII codes of simple fonts and glyphs of one
// code point. TrueType programs' cmap and post tables are not read.

// BUG(pdftext): A line of mostly Hebrew or Arabic letters drawn left to
// right is put in logical order by a simplification of the Unicode
// bidirectional algorithm (reverse, then restore left-to-right runs of Latin
// letters and digits); mixed paragraphs with nested embeddings may differ
// from the full algorithm.

// BUG(pdftext): Objects without "endobj" and streams without /Length are
// mended before pdfcpu reads the file (the cross-reference table is then
// rebuilt); other objects pdfcpu cannot parse (a wrong /Length that is
// present, a broken dictionary) are still lost.

// BUG(pdftext): A glyph repeating an earlier one's text within 0.15 em of
// its position is dropped as fake bold, wherever it comes in the stream;
// a copy drawn further away (a heavy shadow) is kept.
