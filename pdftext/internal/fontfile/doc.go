// Package fontfile reads the one thing text extraction needs from an
// embedded font program: the font's builtin encoding, the code-to-glyph-name
// table that applies when the PDF font dictionary names no encoding of its
// own (PDF 32000-1 §9.6.6.2, "the font program's built-in encoding").
//
// Supported: Type 1 programs (FontFile; the cleartext part before eexec,
// plain or PFB-segmented) and bare CFF programs (FontFile3 /Type1C), whose
// Encoding and charset are read without interpreting any charstring; and,
// for CID fonts without ToUnicode, a TrueType program's Unicode cmap
// (formats 4 and 12), inverted to map glyphs to text.
//
// Every function takes untrusted bytes: it reads within bounds, caps every
// count by the data length, and returns ok=false on anything it cannot
// read. It never panics.
//
// BUG(citecheck): A simple (non-CID) symbolic TrueType font without
// ToUnicode is decoded by its PDF encoding only: its (3,0) cmap and post
// table are not read.
package fontfile
