// Package cmap reads CMap programs, the PostScript-like maps a PDF uses for
// the fonts of composite (Type 0) fonts and for ToUnicode maps (PDF
// 32000-1:2008 §9.7.5, §9.7.6, §9.10.3; Adobe Technical Note #5014), and
// answers the two questions text extraction asks on its hot path: how a
// shown string splits into character codes, and what each code means (a
// CID, or Unicode text). Pure Go, no I/O, no PDF object parsing: the caller
// hands over the decoded stream bytes.
//
// # Contract
//
// Parse reads a CMap program. It understands begincodespacerange,
// beginbfchar, beginbfrange (both "<lo> <hi> <dst>" and
// "<lo> <hi> [<d1> <d2> ...]"), begincidchar, begincidrange,
// beginnotdefrange, usecmap (the name is recorded for the caller to
// resolve), /WMode and /CMapName, wherever they occur; everything else
// (the PostScript scaffolding, comments, dictionaries, strings, garbage
// between sections) is skipped.
//
// A CMap is immutable once made and safe for concurrent use. Split,
// AppendCodes, NextCode, Unicode and CID do not allocate per code (Split
// allocates its result slice; Unicode allocates only for a code beyond the
// BMP in a predefined UTF-16 CMap). Lookups are a binary search over sorted,
// non-overlapping ranges.
//
// # Units
//
// A code is 1 to 4 bytes read big-endian (Code.Value) with its length
// (Code.Len): <41> and <0041> are different codes. A CID is an unsigned
// integer. Unicode text is a UTF-8 Go string, possibly of several characters
// (ligatures: <00660069> -> "fi").
//
// # Decisions
//
//   - Destination strings of bfchar and bfrange are UTF-16BE; a surrogate
//     pair is one code point, a lone surrogate becomes U+FFFD. A string of
//     odd length is read as if a zero byte came first (<41> is "A"), as the
//     files that contain them mean. An empty destination maps nothing. A
//     destination may be a glyph name (/space, old files); it is mapped
//     with package fontenc's glyph list.
//   - In "<lo> <hi> <dst>" the spec increments only the last byte of dst.
//     This package increments the last UTF-16 code unit as a 16-bit number
//     (so <0000> <01FF> <0000> maps <0100> to U+0100, where the spec's rule
//     would wrap to U+0000), or the last code point when dst ends in a
//     surrogate pair. Within a 256-code block the two rules agree.
//   - When definitions overlap, the later one wins for the codes they share,
//     as if each operator assigned in turn. Merge puts the child's
//     definitions after the parent's, so the child wins.
//   - With no codespace ranges at all, Parse assumes codes of the most common
//     source-code length among the mappings (the shorter on a tie; 1 byte
//     without mappings) over the full byte range, and warns. Merge replaces
//     such an inferred codespace by the parent's.
//   - Codespace ranges are byte-wise, as §9.7.6.2 defines them: <8140> <9FFC>
//     admits first bytes 81-9F and second bytes 40-FC. Two repairs for
//     ranges seen in the wild: bounds of different lengths (<00> <FFFF>)
//     are read as numbers of the high bound's length, and bounds that are
//     ordered as numbers but not byte by byte (<02E3> <70BB>) admit the
//     codes between them as numbers, as older readers do.
//   - Lookups use Code.Len and Code.Value and ignore Code.Valid, so codes
//     split by a font's encoding CMap can be looked up in its ToUnicode
//     CMap. Honouring Valid (an invalid code shows the .notdef glyph) is
//     the caller's decision.
//   - CID answers from cidchar/cidrange, then (Identity-H/V) the 2-byte
//     code itself, then notdef ranges; false means CID 0 by the spec.
//
// # Failure classes
//
// Parse returns an error only for input over MaxInput (ErrTooLarge) or
// input with no CMap construct at all (ErrNotCMap). Everything else is
// repaired or skipped and listed by Warnings (at most 100): a malformed
// entry is skipped and the section goes on; a section missing its end
// keyword ends at the next section keyword, endcmap or the end of data; a
// range over MaxRange codes is clipped; mappings beyond MaxMappings codes or
// MaxText bytes of text, and codespace ranges beyond 1024, are dropped;
// tokens over their length limits (256-byte hex strings and names) are
// unusable and skipped. Every loop consumes input or ends, nothing
// recurses, and the work is O(n log n) in the input size (about 2 s for a
// hostile 16 MiB program of a million overlapping entries, milliseconds for
// real ones), so hostile input can neither hang the parser nor exhaust
// memory beyond these bounds. No method panics on any input.
//
// # What this package does not do
//
// It does not read PDF objects or streams (no filters), does not resolve
// usecmap by itself (the caller calls Predefined or parses the named stream,
// then Merge), and ships no CID tables for the predefined CJK CMaps.
package cmap

// BUG(cmap): Of the predefined CMaps, Identity-H/V, the Unicode-based
// Uni{GB,CNS,JIS,KS}-{UCS2,UTF16}-{H,V} and those of national character
// sets that golang.org/x/text decodes (RKSJ, EUC, GBK, GB18030, Big5, UHC)
// are known. The others (CNS-EUC-H, UniJIS-UTF8-H, UniJIS-UTF32-H, the
// Adobe-*-N collections by name, ...) report false from Predefined: not
// even their codespace ranges are known, so a font using them without an
// embedded CMap cannot be split correctly.

// BUG(cmap): The Unicode-based and the legacy predefined CMaps give Unicode
// directly, but CID reports false for all their codes, because the CID
// tables of the Adobe character collections (Adobe-GB1, -CNS1, -Japan1,
// -Korea1) are not shipped. Glyph widths by CID (/W) cannot be found for
// such fonts: every glyph takes the default width /DW.

// BUG(cmap): CIDSystemInfo (Registry, Ordering, Supplement) is not read;
// the caller takes it from the CIDFont dictionary.
