//go:build !unix

package fidelity

import "os"

// Where the system has no rlimits, the tools run with the timeout only.
const shell = ""

var addressSpaceLimited = false

func maxRSS(*os.ProcessState) int64 { return 0 }
