package citations

import (
	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/citecheck/citecheck/internal/strictjson"
	"github.com/citecheck/citecheck/runs"
)

// InputError is a fault in an input file: File and Line (1-based; 0 for a
// whole-file fault) locate it, Field names the JSON key path at fault
// ("citations[1].page") when there is one.
type InputError = inputerr.Error

// MaxLineBytes caps one JSON Lines record of a locate request file, as
// runs.MaxLineBytes caps a run record's; MaxInputBytes caps a whole input
// file.
const (
	MaxLineBytes  = runs.MaxLineBytes
	MaxInputBytes = runs.MaxInputBytes
)

var lineLimits = strictjson.Limits{MaxBytes: MaxInputBytes, MaxLine: MaxLineBytes}
