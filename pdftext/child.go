package pdftext

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/citecheck/citecheck/corpus"
)

// ChildCommand is the hidden first argument with which a program re-executes
// itself as an extraction child. A program that uses Runner must call
// ChildMain when its first argument is ChildCommand.
const ChildCommand = "__pdftext-child"

// request is the first line the parent writes to the child's stdin; the PDF
// bytes follow it.
type request struct {
	Limits    wireLimits `json:"limits"`
	Passwords []string   `json:"passwords,omitempty"`
}

type wireLimits struct {
	AddressSpace int64 `json:"address_space"`
	Stack        int64 `json:"stack"`
	MaxObjectNum int   `json:"max_object_number"`
	MaxDecoded   int64 `json:"max_decoded"`
	MaxOperators int64 `json:"max_operators"`
	MaxDepth     int   `json:"max_depth"`
	MaxPages     int   `json:"max_pages"`
	MaxOutput    int64 `json:"max_output"`
}

func toWire(l Limits) wireLimits {
	return wireLimits{l.AddressSpace, l.Stack, l.MaxObjectNum, l.MaxDecoded, l.MaxOperators, l.MaxDepth, l.MaxPages, l.MaxOutput}
}

func fromWire(w wireLimits) Limits {
	return Limits{AddressSpace: w.AddressSpace, Stack: w.Stack, MaxObjectNum: w.MaxObjectNum, MaxDecoded: w.MaxDecoded,
		MaxOperators: w.MaxOperators, MaxDepth: w.MaxDepth, MaxPages: w.MaxPages, MaxOutput: w.MaxOutput}
}

// response is what the child writes to stdout: one JSON object.
type response struct {
	Status   corpus.Status `json:"status"`
	Error    string        `json:"error,omitempty"`
	Pages    []wirePage    `json:"pages,omitempty"`
	Warnings []string      `json:"warnings,omitempty"`
}

type wirePage struct {
	Text     string   `json:"text"`
	Boxes    string   `json:"boxes,omitempty"` // corpus.BoxesFormat: compact, and checked by the parent
	Alts     []string `json:"alts,omitempty"`  // checked by the parent too
	Label    string   `json:"label,omitempty"`
	Flags    []string `json:"flags,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

// ChildMain is the child side of Runner: it limits its own process, reads a
// request and a PDF from stdin, extracts, and writes a response to stdout.
// It returns the process exit code. The parent trusts nothing else the child
// does: a crash, a hang or an exhausted limit is read from how it ended.
func ChildMain(stdin io.Reader, stdout, stderr io.Writer) int {
	in := bufio.NewReader(stdin)
	line, err := in.ReadBytes('\n')
	if err != nil {
		fmt.Fprintf(stderr, "pdftext child: reading request: %v\n", err)
		return 3
	}
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		fmt.Fprintf(stderr, "pdftext child: bad request: %v\n", err)
		return 3
	}
	lim := fromWire(req.Limits)
	if err := limitProcess(lim); err != nil {
		fmt.Fprintf(stderr, "pdftext child: setting limits: %v\n", err)
		return 3
	}
	data, err := io.ReadAll(in)
	if err != nil {
		fmt.Fprintf(stderr, "pdftext child: reading PDF: %v\n", err)
		return 3
	}
	resp := extractResponse(data, req.Passwords, lim)
	if err := json.NewEncoder(stdout).Encode(resp); err != nil {
		fmt.Fprintf(stderr, "pdftext child: writing response: %v\n", err)
		return 3
	}
	return 0
}

// limitProcess applies the memory and stack limits to the running process.
// The Go runtime is told too, so that it collects garbage before the
// operating system refuses memory, and so that a runaway recursion stops at
// a goroutine stack far below the default gigabyte.
func limitProcess(lim Limits) error {
	if lim.Stack > 0 {
		debug.SetMaxStack(int(lim.Stack))
	}
	if lim.AddressSpace > 0 {
		debug.SetMemoryLimit(lim.AddressSpace / 4 * 3)
	}
	return setRlimits(lim)
}

func extractResponse(data []byte, passwords []string, lim Limits) response {
	doc, err := Extract(data, Options{Passwords: passwords, Limits: lim})
	if err != nil {
		return response{Status: statusOf(err), Error: err.Error()}
	}
	resp := response{Status: corpus.StatusOK, Warnings: doc.Warnings}
	for _, p := range doc.Pages {
		w := wirePage{Text: p.Text, Alts: p.Alts, Label: p.Label, Flags: p.Flags, Warnings: p.Warnings}
		if len(p.Boxes) > 0 {
			w.Boxes = string(corpus.EncodeBoxes(p.Boxes))
		}
		resp.Pages = append(resp.Pages, w)
	}
	return resp
}

// statusOf maps an Extract error to its outcome class.
func statusOf(err error) corpus.Status {
	switch {
	case errors.Is(err, ErrEncrypted):
		return corpus.StatusEncrypted
	case errors.Is(err, ErrResourceLimit):
		return corpus.StatusResourceLimit
	case errors.Is(err, ErrUnsupported):
		return corpus.StatusUnsupported
	case errors.Is(err, ErrMalformed):
		return corpus.StatusMalformed
	}
	return corpus.StatusCrash
}
