//go:build !race

package pdftext

// raceDetector: see race_test.go.
const raceDetector = false
