package pdftext

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"

	"github.com/citecheck/citecheck/corpus"
)

// ChildCommand is the hidden first argument with which a program re-executes
// itself as an extraction worker. A program that uses Runner must call
// ChildMain when its first argument is ChildCommand.
const ChildCommand = "__pdftext-child"

// The worker protocol. The parent writes a hello line (JSON, request)
// once, then for each document a header line (JSON, docHeader) and the
// document's bytes; it closes the worker's stdin to stop it. For each
// document the worker writes one frame: the length of the response in
// decimal, a newline, and the response (JSON, response) of that length.
// A worker extracts one document at a time, in the order given.

// request is the hello line: what holds for every document of a worker.
type request struct {
	Limits    wireLimits `json:"limits"`
	Passwords []string   `json:"passwords,omitempty"`
}

// docHeader announces one document: its length in bytes, which follow.
type docHeader struct {
	Size int64 `json:"size"`
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

// response is what the worker answers for one document (wire.go).
type response struct {
	Status   corpus.Status
	Error    string
	Pages    []wirePage
	Warnings []string
	// Grown is how much address space the worker has gained since it set
	// its limits, in bytes: the parent replaces a worker that has grown
	// much, so that the next document is not left with less room.
	Grown int64
}

type wirePage struct {
	Text     string
	Boxes    []byte   // corpus.BoxesFormat: compact, and checked by the parent
	Alts     []string // checked by the parent too
	Orders   []byte   // corpus.OrdersFormat, checked by the parent too
	Label    string
	Flags    []string
	Warnings []string
}

// ChildMain is the worker side of Runner: it limits its own process, reads
// the hello line and then documents from stdin, extracting each in turn and
// answering on stdout, until stdin ends. It returns the process exit code:
// 0 when stdin ended, 3 when the protocol broke. The parent trusts nothing
// else the worker does: a crash, a hang or an exhausted limit is read from
// how it ended.
func ChildMain(stdin io.Reader, stdout, stderr io.Writer) int {
	in := bufio.NewReaderSize(stdin, 64<<10)
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
	fresh := virtualSize()
	var enc encoder
	for {
		line, err := in.ReadBytes('\n')
		if err == io.EOF && len(line) == 0 {
			return 0 // the parent is done with this worker
		}
		var hdr docHeader
		if err == nil {
			err = json.Unmarshal(line, &hdr)
		}
		if err != nil || hdr.Size < 0 {
			fmt.Fprintf(stderr, "pdftext child: bad document header %q: %v\n", line, err)
			return 3
		}
		data := make([]byte, hdr.Size)
		if _, err := io.ReadFull(in, data); err != nil {
			fmt.Fprintf(stderr, "pdftext child: reading PDF: %v\n", err)
			return 3
		}
		resp := enc.extract(data, req.Passwords, lim)
		if fresh > 0 {
			resp.Grown = max(virtualSize()-fresh, 0)
		}
		if err := enc.writeFrame(stdout, resp); err != nil {
			fmt.Fprintf(stderr, "pdftext child: writing response: %v\n", err)
			return 3
		}
	}
}

// writeFrame writes one response frame: the length of its binary form
// (wire.go) in decimal, a newline, and the binary form.
func writeFrame(w io.Writer, resp response) error {
	const room = 24 // for the length line
	frame := resp.encode(make([]byte, room, room+resp.encodedSize()))
	head := strconv.AppendInt(nil, int64(len(frame)-room), 10)
	head = append(head, '\n')
	start := room - len(head)
	copy(frame[start:], head)
	_, err := w.Write(frame[start:])
	return err
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

// encoder extracts documents into response frames, encoding each page
// into the frame as soon as it is extracted: neither the pages' boxes nor
// the whole response are kept in another form, and its buffers serve the
// worker's next documents.
type encoder struct {
	pages []byte // the encoded pages of the document
	n     int    // how many
	head  []byte
	boxes []byte
}

// extract extracts one document into e.pages and returns the response
// without its pages, which writeFrame sends after it.
func (e *encoder) extract(data []byte, passwords []string, lim Limits) response {
	e.pages, e.n = e.pages[:0], 0
	warnings, err := extractPages(data, Options{Passwords: passwords, Limits: lim}, true, func(p Page) {
		w := wirePage{Text: p.Text, Alts: p.Alts, Label: p.Label, Flags: p.Flags, Warnings: p.Warnings}
		if len(p.Boxes) > 0 {
			e.boxes = corpus.AppendBoxes(e.boxes[:0], p.Boxes)
			w.Boxes = e.boxes
		}
		if len(p.Orders) > 0 {
			w.Orders = corpus.EncodeOrders(p.Orders)
		}
		e.pages = w.encode(e.pages)
		e.n++
	})
	if err != nil {
		e.pages, e.n = e.pages[:0], 0
		return response{Status: statusOf(err), Error: err.Error()}
	}
	return response{Status: corpus.StatusOK, Warnings: warnings}
}

// writeFrame writes the frame of resp followed by the pages extract
// encoded: the same bytes as writeFrame of the whole response.
func (e *encoder) writeFrame(w io.Writer, resp response) error {
	const room = 24 // for the length line
	e.head = resp.encodeHead(append(e.head[:0], make([]byte, room)...), e.n)
	lenLine := strconv.AppendInt(nil, int64(len(e.head)-room+len(e.pages)), 10)
	lenLine = append(lenLine, '\n')
	start := room - len(lenLine)
	copy(e.head[start:], lenLine)
	if _, err := w.Write(e.head[start:]); err != nil {
		return err
	}
	_, err := w.Write(e.pages)
	if cap(e.pages) > maxKeptFrame {
		e.pages = nil // a rare huge document's buffer is not kept for the next
	}
	return err
}

// maxKeptFrame is the largest page buffer a worker keeps between documents.
const maxKeptFrame = 64 << 20

// extractResponse is the whole response of one document at once, as
// encoder sends it page by page; the tests compare the two.
func extractResponse(data []byte, passwords []string, lim Limits) response {
	doc, err := Extract(data, Options{Passwords: passwords, Limits: lim})
	if err != nil {
		return response{Status: statusOf(err), Error: err.Error()}
	}
	resp := response{Status: corpus.StatusOK, Warnings: doc.Warnings}
	for _, p := range doc.Pages {
		w := wirePage{Text: p.Text, Alts: p.Alts, Label: p.Label, Flags: p.Flags, Warnings: p.Warnings}
		if len(p.Boxes) > 0 {
			w.Boxes = corpus.EncodeBoxes(p.Boxes)
		}
		if len(p.Orders) > 0 {
			w.Orders = corpus.EncodeOrders(p.Orders)
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
