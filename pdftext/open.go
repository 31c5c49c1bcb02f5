package pdftext

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/filter"
	"github.com/pdfcpu/pdfcpu/pkg/log"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
)

func init() {
	// pdfcpu would otherwise create and read a configuration folder in the
	// user's home: extraction must depend on nothing but its input. This is
	// what api.DisableConfigDir does; importing pdfcpu's api package instead
	// would link go-runewidth, whose init costs ~47 ms in every child.
	model.ConfigPath = "disable"
	// With a stats logger set, pdfcpu dereferences objects in object-number
	// order instead of Go's random map order, so a broken file fails with
	// the same message, and is repaired the same way, on every run. The
	// statistics it then logs are a few lines per file, discarded.
	log.SetStatsLogger(discard{})
}

// discard is a pdfcpu logger that writes nothing. pdfcpu never calls the
// Fatal methods of its stats logger; were it to, the panic is recovered
// by readOnce as a failure of the reader.
type discard struct{}

func (discard) Printf(string, ...any)        {}
func (discard) Println(...any)               {}
func (discard) Fatalf(f string, args ...any) { panic(fmt.Sprintf(f, args...)) }
func (discard) Fatalln(args ...any)          { panic(fmt.Sprintln(args...)) }

// readPDF parses data with pdfcpu, trying the empty password and then each
// candidate. It repairs what pdfcpu does not: an /Encrypt dictionary
// written inline in the trailer (pdfcpu ignores it and hands back encrypted
// strings); objects without endobj or streams without /Length (mendObjects,
// then a rebuilt cross-reference table); and a cross-reference table too
// damaged to use (it rebuilds one by scanning for objects). warnings says
// what was repaired.
func readPDF(data []byte, passwords []string, lim Limits) (xref *model.XRefTable, warnings []string, err error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil, fmt.Errorf("%w: the file is empty", ErrMalformed)
	}
	if !bytes.Contains(data[:min(len(data), 1024)], []byte("%PDF")) && !bytes.Contains(data, []byte("obj")) {
		return nil, nil, fmt.Errorf("%w: no PDF header and no objects: not a PDF", ErrMalformed)
	}
	if fixed, ok := moveInlineEncrypt(data); ok {
		data = fixed
		warnings = append(warnings, "inline /Encrypt dictionary in the trailer moved to an object")
	}
	if mended, notes, ok := mendObjects(data, lim); ok {
		if rebuilt, rerr := rebuildXRef(mended, lim); rerr == nil {
			if xref, err := readWithPasswords(rebuilt, passwords, lim); err == nil {
				return xref, append(append(warnings, notes...), "cross-reference table rebuilt after mending objects"), nil
			}
		}
	}
	xref, err = readWithPasswords(data, passwords, lim)
	if err == nil || errors.Is(err, ErrEncrypted) || errors.Is(err, ErrResourceLimit) || errors.Is(err, ErrUnsupported) {
		return xref, warnings, err
	}
	rebuilt, rerr := rebuildXRef(data, lim)
	if rerr != nil {
		return nil, warnings, err
	}
	xref2, err2 := readWithPasswords(rebuilt, passwords, lim)
	if err2 != nil {
		return nil, warnings, err // the first error describes the file better
	}
	return xref2, append(warnings, fmt.Sprintf("cross-reference table rebuilt by scanning for objects (%v)", errSummary(err))), nil
}

func readWithPasswords(data []byte, passwords []string, lim Limits) (*model.XRefTable, error) {
	candidates := append([]string{""}, passwords...)
	var err error
	for i, pw := range candidates {
		if i > 0 && pw == "" {
			continue
		}
		var xref *model.XRefTable
		xref, err = readOnce(data, pw, lim)
		if err == nil {
			return xref, nil
		}
		if !errors.Is(err, ErrEncrypted) {
			return nil, err
		}
	}
	if len(passwords) > 0 {
		return nil, fmt.Errorf("%w (none of the %d supplied passwords opens it)", err, len(passwords))
	}
	return nil, err
}

// readOnce runs pdfcpu's reader, turning its panics and errors into our
// classes.
func readOnce(data []byte, password string, lim Limits) (xref *model.XRefTable, err error) {
	defer func() {
		if r := recover(); r != nil {
			xref, err = nil, fmt.Errorf("%w: the PDF reader failed on this file: %v", ErrMalformed, r)
		}
	}()
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	conf.UserPW = password
	conf.OwnerPW = password
	conf.Limits.MaxObjectCount = lim.MaxObjectNum
	conf.Limits.MaxXRefEntries = lim.MaxObjectNum
	conf.Limits.MaxDecodeBytes = lim.MaxDecoded
	conf.Limits.MaxRecursionDepth = max(lim.MaxDepth, 8)
	ctx, err := pdfcpu.Read(bytes.NewReader(data), conf)
	if err != nil {
		return nil, classifyReadError(err)
	}
	if ctx.XRefTable.MaxObjNr > lim.MaxObjectNum {
		return nil, fmt.Errorf("%w: object number %d is above the limit %d", ErrResourceLimit, ctx.XRefTable.MaxObjNr, lim.MaxObjectNum)
	}
	return ctx.XRefTable, nil
}

func classifyReadError(err error) error {
	msg := err.Error()
	switch {
	case errors.Is(err, pdfcpu.ErrWrongPassword):
		return fmt.Errorf("%w: %v", ErrEncrypted, err)
	case errors.Is(err, filter.ErrDecodeLimitExceeded) || strings.Contains(msg, "limit exceeded"):
		return fmt.Errorf("%w: %v", ErrResourceLimit, err)
	case errors.Is(err, pdfcpu.ErrPostScriptInput):
		return fmt.Errorf("%w: %v", ErrUnsupported, err)
	case strings.Contains(msg, "encryption") && (strings.Contains(msg, "unsupported") || strings.Contains(msg, "not supported")):
		return fmt.Errorf("%w: %v", ErrUnsupported, err)
	}
	return fmt.Errorf("%w: %v", ErrMalformed, err)
}

func errSummary(err error) string {
	s := err.Error()
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

var (
	inlineEncryptRE = regexp.MustCompile(`/Encrypt\s*<<`)
	objHeaderRE     = regexp.MustCompile(`(?m)(?:^|[\r\n\s])(\d{1,10})\s+(\d{1,5})\s+obj\b`)
	rootRefRE       = regexp.MustCompile(`/Root\s+(\d+)\s+(\d+)\s+R`)
	infoRefRE       = regexp.MustCompile(`/Info\s+(\d+)\s+(\d+)\s+R`)
	startxrefRE     = regexp.MustCompile(`startxref\s+(\d+)`)
)

// moveInlineEncrypt rewrites a file whose last trailer holds its /Encrypt
// dictionary inline, appending an update that defines the dictionary as an
// object and a trailer that refers to it, which pdfcpu does understand.
func moveInlineEncrypt(data []byte) ([]byte, bool) {
	locs := inlineEncryptRE.FindAllIndex(data, -1)
	if len(locs) == 0 {
		return nil, false
	}
	loc := locs[len(locs)-1]
	dictStart := loc[1] - 2
	dictEnd := balancedDictEnd(data, dictStart)
	if dictEnd < 0 {
		return nil, false
	}
	// The trailer dictionary that holds it: from the last "<<" that opens a
	// dictionary containing this entry. Searching back for "trailer" or the
	// xref stream's "obj" keeps us inside it.
	head := data[:loc[0]]
	trailerStart := max(bytes.LastIndex(head, []byte("trailer")), bytes.LastIndex(head, []byte("obj")))
	if trailerStart < 0 {
		return nil, false
	}
	trailerEnd := balancedDictEnd(data, bytes.Index(data[trailerStart:], []byte("<<"))+trailerStart)
	if trailerEnd < dictEnd {
		return nil, false
	}
	trailer := data[trailerStart:trailerEnd]
	root := rootRefRE.FindSubmatch(trailer)
	if root == nil {
		return nil, false
	}
	maxObj := 0
	for _, m := range objHeaderRE.FindAllSubmatch(data, -1) {
		if n, err := strconv.Atoi(string(m[1])); err == nil && n > maxObj && n < 1<<24 {
			maxObj = n
		}
	}
	num := maxObj + 1
	var b bytes.Buffer
	b.Write(data)
	b.WriteString("\n")
	objOff := b.Len()
	fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", num, data[dictStart:dictEnd])
	xrefOff := b.Len()
	fmt.Fprintf(&b, "xref\n0 1\n0000000000 65535 f \n%d 1\n%010d 00000 n \n", num, objOff)
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root %s %s R /Encrypt %d 0 R", num+1, root[1], root[2], num)
	if info := infoRefRE.FindSubmatch(trailer); info != nil {
		fmt.Fprintf(&b, " /Info %s %s R", info[1], info[2])
	}
	if i := bytes.Index(trailer, []byte("/ID")); i >= 0 {
		l := &lexer{data: trailer, pos: i + 3}
		if tok, v, _ := l.next(); tok == tOperand && v.kind == kArray {
			b.WriteString(" /ID [")
			for _, s := range v.arr {
				fmt.Fprintf(&b, "<%x>", s.bytes)
			}
			b.WriteString("]")
		}
	}
	if m := startxrefRE.FindAllSubmatch(data, -1); len(m) > 0 {
		fmt.Fprintf(&b, " /Prev %s", m[len(m)-1][1])
	}
	fmt.Fprintf(&b, " >>\nstartxref\n%d\n%%%%EOF\n", xrefOff)
	return b.Bytes(), true
}

// balancedDictEnd returns the offset just past the ">>" closing the
// dictionary opened by "<<" at start, skipping strings; -1 if unbalanced.
func balancedDictEnd(data []byte, start int) int {
	if start < 0 || start+1 >= len(data) || data[start] != '<' || data[start+1] != '<' {
		return -1
	}
	depth := 0
	for i := start; i < len(data); i++ {
		switch data[i] {
		case '(':
			l := &lexer{data: data, pos: i + 1}
			l.literal()
			i = l.pos - 1
		case '<':
			if i+1 < len(data) && data[i+1] == '<' {
				depth++
				i++
			} else {
				l := &lexer{data: data, pos: i + 1}
				l.hex()
				i = l.pos - 1
			}
		case '>':
			if i+1 < len(data) && data[i+1] == '>' {
				depth--
				i++
				if depth == 0 {
					return i + 1
				}
			}
		}
	}
	return -1
}
