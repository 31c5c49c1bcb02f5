// Package fontenc answers what the byte codes and glyph names of a simple
// PDF font mean, and how wide the standard 14 fonts' glyphs are. It is the
// static knowledge the text extractor (package pdftext) needs besides the
// PDF itself: pure data and pure functions, no I/O, no PDF parsing, safe for
// concurrent use.
//
// # Contents
//
//   - Base encodings (BaseEncoding, Symbol, ZapfDingbats): [256]string
//     tables from byte code to glyph name, exactly as PDF 32000-1:2008 Annex D
//     lists them (Tables D.2, D.4, D.5, D.6), with the notes of Table D.2
//     applied. The empty string means "not encoded". Each call returns a new
//     copy that the caller may change (to apply /Differences).
//   - Glyph names to Unicode (GlyphUnicode): the Adobe Glyph List
//     Specification's algorithm over the embedded Adobe Glyph List 2.0
//     (4,281 names) and ITC Zapf Dingbats Glyph List (201 names).
//   - Standard 14 font metrics (StandardFont, StandardFontName): advance
//     widths per glyph name and the font's built-in encoding, generated from
//     Adobe's Core 14 AFM files by gen.go into std14_afm.go; lookup accepts
//     subset prefixes, style suffixes and the usual Arial / Times New Roman /
//     Courier New aliases.
//   - Text strings (DecodeTextString, PDFDocRune): PDF text strings in
//     UTF-16BE, UTF-8 or PDFDocEncoding to Go strings.
//
// # Units
//
// Codes are single bytes (0-255). Widths and all other metrics are glyph
// space units, 1/1000 of the font size (1/1000 em), as in the AFM files and
// in a PDF /Widths array. Unicode results are UTF-8 Go strings and may hold
// several characters (ligatures, "f_f_i" -> "ffi") or private-use characters
// where the glyph list assigns them ("Asmall" -> U+F761).
//
// # Decisions
//
// WinAnsiEncoding follows Table D.2 and all of its notes: 0240 is "space"
// (the non-breaking space is typographically a space), 0255 is "hyphen"
// (the soft hyphen), 0200 is "Euro", 0216/0236 are "Zcaron"/"zcaron", and
// the codes the table leaves unused above 040 (0177, 0201, 0215, 0217, 0220,
// 0235) are "bullet", as note 3 says and as Acrobat renders them. The whole
// range 040-0377 is therefore encoded; 000-037 is not.
//
// MacRomanEncoding is PDF's, not Apple's: code 0333 is "currency" (not the
// Euro), 0312 is also "space", and the Mac OS characters outside the
// standard Latin character set (the Apple logo, notequal, infinity,
// lessequal, greaterequal, partialdiff, summation, product, pi, integral,
// Omega, radical, approxequal, Delta, lozenge) are not encoded.
//
// PDFDocEncoding as a glyph-name table holds Table D.2's PDF column; as text
// (DecodeTextString, PDFDocRune) it follows Annex D.3, where 0x09, 0x0A and
// 0x0D are the control characters tab, line feed and carriage return and the
// undefined codes become U+FFFD.
//
// GlyphUnicode accepts lower-case hex digits in "uniXXXX" and "uXXXX[XX]"
// names, which the AGL specification does not, because fonts in the wild use
// them. It deliberately does not map generated names with no meaning: "gNN",
// "GNN", "cidNN", "glyphNN", "indexNN", "cNN" and the like report false, since
// the number in them is a glyph or character index, not a Unicode value, and
// guessing would put wrong text in the page (the caller should fall back to
// the font's ToUnicode map or to the code).
//
// # Failure classes
//
// Nothing here returns an error. Lookups report false for: an encoding name
// that is not one of the five predefined ones; a glyph name no component of
// which maps; a font name that is not a standard 14 font or a known alias;
// a glyph the font has no width for. DecodeTextString never fails: invalid
// input becomes U+FFFD.
//
// # What this package does not do
//
// It does not read fonts (no Type 1, TrueType or CFF parsing, so no built-in
// encodings other than the standard 14 fonts'), it does not apply
// /Differences (the caller edits the copy BaseEncoding returns), and it holds
// no CMaps (see package cmap) and no kerning.
package fontenc

// BUG(fontenc): The metrics of Symbol and ZapfDingbats have no cap height,
// x height, ascender or descender: their AFM files give none, and the
// fields are 0.

// BUG(fontenc): Aliases cover the metric-compatible families only
// (Arial, Times New Roman, Courier New). Other fonts that a PDF names
// without embedding or widths, such as Verdana, Calibri, Arial Narrow or
// Helvetica Neue, get no metrics; the caller must use /Widths or a default.

// BUG(fontenc): The Adobe Glyph List is from 2002. Glyph names that newer
// fonts use without a "uni" form, such as names from the AGL for New Fonts
// extensions or from font vendors' own conventions, are not mapped.
