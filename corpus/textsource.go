package corpus

import (
	"encoding/hex"
	"strings"

	"github.com/zeebo/blake3"
)

// The extractor a corpus of imported page texts (ingest.ImportText)
// records in the manifest. Imported texts are kept as they are, so it has
// no limits: its Limits is empty, never nil.
const (
	TextExtractorName    = "citecheck-import-text"
	TextExtractorVersion = "1"
)

// TextExtractorID returns the ExtractorID of a corpus of imported page
// texts.
func TextExtractorID() ExtractorID {
	return ExtractorID{Name: TextExtractorName, Version: TextExtractorVersion, Limits: map[string]int64{}}
}

// TextSourcePrefix starts the Source of every document imported from page
// texts: "text:" and the slash-separated path of its page folder relative
// to the corpus folder (absolute when it cannot be made relative).
const TextSourcePrefix = "text:"

// TextSource reports whether source (a Document's Source) names a folder
// of page texts, and returns that folder's path as recorded: slash-separated,
// relative to the corpus folder unless absolute.
func TextSource(source string) (folder string, ok bool) {
	return strings.CutPrefix(source, TextSourcePrefix)
}

// TextHash returns the identity (Document.BLAKE3) of a document imported
// from page texts: the BLAKE3-256 of the page texts in page order, each
// followed by one form feed (U+000C). Page texts hold no form feed, so
// different page lists never give the same input.
func TextHash(pages []string) string {
	h := blake3.New()
	for _, p := range pages {
		h.WriteString(p)
		h.Write([]byte{'\f'})
	}
	return "blake3:" + hex.EncodeToString(h.Sum(nil))
}
