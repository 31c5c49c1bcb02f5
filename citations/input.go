package citations

import (
	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/citecheck/citecheck/internal/strictjson"
)

// InputError is a fault in an input file: File and Line (1-based; 0 for a
// whole-file fault) locate it, Field names the JSON key path at fault
// ("citations[1].page") when there is one.
type InputError = inputerr.Error

// MaxLineBytes caps one JSON Lines record of a locate request file, at
// the bound of a run record's line (runs.MaxLineBytes), so that a quote
// a run may carry can also be asked about; MaxInputBytes caps a whole
// input file, as it does a run file.
const (
	MaxLineBytes  = 8 << 20
	MaxInputBytes = 1 << 30
)

var lineLimits = strictjson.Limits{MaxBytes: MaxInputBytes, MaxLine: MaxLineBytes}
