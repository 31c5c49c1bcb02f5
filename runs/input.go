package runs

import (
	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/citecheck/citecheck/internal/strictjson"
)

// InputError is a fault in a run file: File and Line (1-based; 0 for a
// whole-file fault) locate it, Field names the JSON key path at fault
// ("citations[1].page") when there is one.
type InputError = inputerr.Error

// MaxLineBytes caps one JSON Lines record: 8 MiB holds a run record with a
// whole long response, its citations and retrieval cards many times over,
// while a longer line is refused before it is decoded (input error naming
// file and line). MaxInputBytes caps a whole input file.
const (
	MaxLineBytes  = 8 << 20
	MaxInputBytes = 1 << 30
)

var lineLimits = strictjson.Limits{MaxBytes: MaxInputBytes, MaxLine: MaxLineBytes}
