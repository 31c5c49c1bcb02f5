package pdftext

import (
	"errors"
	"time"
)

// Limits bound the work one PDF may cause. The first three are enforced on
// the child process by the operating system and the parent; the rest are
// counted inside the extractor, so that every loop over structure the file
// supplies ends.
type Limits struct {
	Timeout      time.Duration // wall clock per document, enforced by the parent
	AddressSpace int64         // bytes of virtual memory of the child (RLIMIT_AS)
	Stack        int64         // bytes of goroutine and main-thread stack
	MaxObjectNum int           // largest object number the reader accepts
	MaxDecoded   int64         // decompressed bytes per document, all streams together
	MaxOperators int64         // content-stream operators per document, forms included
	MaxDepth     int           // nesting of page trees, forms and operand arrays
	MaxPages     int           // pages per document
	MaxOutput    int64         // bytes of page text per document
}

// DefaultLimits are the limits of "citecheck extract" unless flags change them.
var DefaultLimits = Limits{
	Timeout:      30 * time.Second,
	AddressSpace: 2 << 30,
	Stack:        64 << 20,
	MaxObjectNum: 8_000_000,
	MaxDecoded:   1 << 30,
	MaxOperators: 50_000_000,
	MaxDepth:     32,
	MaxPages:     100_000,
	MaxOutput:    256 << 20,
}

// Map returns the limits by name, for the corpus manifest and the lock.
func (l Limits) Map() map[string]int64 {
	return map[string]int64{
		"timeout_ms":          l.Timeout.Milliseconds(),
		"address_space_bytes": l.AddressSpace,
		"stack_bytes":         l.Stack,
		"max_object_number":   int64(l.MaxObjectNum),
		"max_decoded_bytes":   l.MaxDecoded,
		"max_operators":       l.MaxOperators,
		"max_depth":           int64(l.MaxDepth),
		"max_pages":           int64(l.MaxPages),
		"max_output_bytes":    l.MaxOutput,
	}
}

// Sentinel errors for the outcome classes a caller branches on. Errors
// returned by Extract wrap exactly one of them.
var (
	ErrEncrypted     = errors.New("encrypted: a password is needed")
	ErrMalformed     = errors.New("malformed PDF")
	ErrUnsupported   = errors.New("unsupported PDF feature")
	ErrResourceLimit = errors.New("resource limit reached")
)
