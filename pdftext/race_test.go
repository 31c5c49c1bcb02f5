//go:build race

package pdftext

// raceDetector: the tests run under the race detector, whose workers are
// several times slower and whose ThreadSanitizer allocates memory of its
// own under the worker's address-space limit.
const raceDetector = true
