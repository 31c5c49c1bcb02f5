// Package sweeps holds tests that run the shared PDF corpora
// (../shared/pdf-corpus, found through internal/shareddata) through
// several packages at once, or that would not fit in one package's test
// time (pdftext's tests run near go test's ten-minute limit): what
// extraction drops measured against a reference extractor, and what the
// peers' own test suites expect of the PDFs they ship.
//
// It has no code outside its tests.
package sweeps
