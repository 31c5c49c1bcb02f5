// Package fidelity measures how well a page text serves as the target of
// quotes copied from other PDF extractors' text of the same page: the
// accuracy that decides whether citecheck can call a quote fabricated.
//
// The reference extractors are the tools that AI document pipelines use:
// poppler's pdftotext, MuPDF's mutool, pdf.js getTextContent (npm
// pdfjs-dist, legacy build, run on node) and pdfminer.six (Debian
// python3-pdfminer). Tools that are not installed are skipped and said to
// be absent; nothing here downloads anything. Each tool runs under an
// address-space limit and a timeout per PDF (AddressSpace, Timeout), as
// citecheck's own extraction children do. Their page texts are cached on
// disk by tool version and PDF hash, so repeated runs cost one extraction.
//
// A quote is a window of 6 to 14 consecutive words of a source's page text,
// cut from the raw text (line breaks kept, so a line-end hyphen stays a
// line-end hyphen). Windows are drawn with a PCG generator seeded from the
// fixed Seed, the document hash, the page and the source, so the sample is
// the same on every run and machine. A window counts as found in a page
// text when, after the quote/v2 normalization of package textnorm applied to
// both sides, one of its spelling variants is a substring of the page: a
// plain exact matcher, no reordering, no fuzzy tolerance.
//
// Pages are compared by physical index; a tool that reports fewer pages
// than the PDF has contributes no windows for the missing ones.
//
// The package does not judge: it counts. Floors and targets live in the
// tests and the issue notes.
package fidelity
