package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/citecheck/citecheck/audit"
	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/runs"
)

const auditAbout = `
Audit every citation the runs emitted: is its quote in the document it
names, and where? No reference is needed: the audit says whether a quote is
grounded, not whether it supports the answer.

RUN.jsonl files hold run records (formats: docs/formats.md#run-records),
or one envelope per line around a vendor's native response
(docs/formats.md#envelopes):
  {"arm": "B", "session": 1, "question": "q01", "documents": [...] or {...},
   "response": {...the vendor's JSON...}}
--format auto, the default, tells them apart by each file's first record (a
response that is text is a run record; a vendor's response by its shape)
and, when the shape is unclear, names the --format it looks like; --format
run|anthropic|openai|gemini|lmstudio|langchain|llamaindex chooses. Vendor
offsets are kept, never trusted: every quote is located again.

Each citation is one of: unique (grounded once in the cited document, on
the page it gave), ambiguous, wrong_page, page_convention (on the given
page only read 0-based or as a page label, in a format whose page base is
not its contract), wrong_document (only in another document), fabricated
(in no corpus document), unknown_document, unverifiable (no quote, an
ambiguous document mapping, or no text to search), or external_source (a
web page or other source outside the corpus, counted apart). "relaxed"
counts the unique ones found only with spaces ignored (joined_words) or as
reordered pieces. A record whose answer shows citations the adapter could
not read (citation markers with no citation read, a citation shape it does
not know) is listed by line: "no citations read" or "citations not read".

Output: a table of totals per arm and session (an "all" row per arm and
overall; columns "external" and "unread", the records with citations not
read, when there are any), then every citation that is not unique,
with its file and line, the notes on citations (a document title that
corrected the run's documents list), and the records with citations not
read; with --json, {"citations": [...], "totals": [...], "unread": [...]}.
Progress goes to stderr: a bar on a terminal; otherwise (a CI log) a line
every 10 seconds once a run takes that long.

Example:
  citecheck audit --corpus corpus --format anthropic runs/anthropic.jsonl

Exit status: 0 every citation is unique and none was left unread; 1 some
is not, or some record's citations were not read; 2 bad usage or bad input
(file:line: field: fault; a file with no records); 3 a stored page text
or quote-index block that the lookups read changed, or the stored quote
index is stale, of another format or missing.`

func runAudit(e *env, args []string) error {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet(stderr, "audit", "audit --corpus CORPUS [--format F] [--json] RUN.jsonl...", auditAbout)
	dir := fs.String("corpus", "", "corpus `folder` (required)")
	format := fs.String("format", runs.FormatAuto, "input `format`: auto (told by each file's first record), "+strings.Join(runs.Formats, ", "))
	asJSON := fs.Bool("json", false, "write JSON instead of a table")
	files, err := parseFlags(fs, stdout, args)
	if err != nil {
		return err
	}
	if *dir == "" {
		return usageErrorf("audit: --corpus CORPUS is required")
	}
	if len(files) == 0 {
		return usageErrorf("audit: no RUN.jsonl given")
	}
	known := *format == runs.FormatAuto
	for _, f := range runs.Formats {
		known = known || f == *format
	}
	if !known {
		return usageErrorf("audit: unknown --format %q (want auto or one of %s)", *format, strings.Join(runs.Formats, ", "))
	}
	var recs []runs.Record
	var fileOf []string
	for _, path := range files {
		rs, err := readInput(e.stdin, path, func(r io.Reader, name string) ([]runs.Record, error) {
			return runs.ReadRuns(r, name, *format)
		})
		if err != nil {
			return err
		}
		if len(rs) == 0 {
			return fmt.Errorf("audit: %w", noRecords(path))
		}
		for range rs {
			fileOf = append(fileOf, path)
		}
		recs = append(recs, rs...)
	}
	ix, err := openIndex("audit", *dir)
	if err != nil {
		return err
	}
	total := 0 // the citations looked up: a malformed one is not
	for _, r := range recs {
		for _, c := range r.Citations {
			if c.Fault == "" {
				total++
			}
		}
	}
	bar := startProgress(stderr, "audit", "citations", total)
	clean, err := writeAudit(stdout, ix, recs, fileOf, *asJSON, bar.set)
	bar.finish()
	if err != nil {
		return err
	}
	if !clean {
		return errChecksFailed
	}
	return nil
}

// writeAudit audits the runs (fileOf names each run's file) and renders the
// report; it reports whether every citation was grounded uniquely.
func writeAudit(w io.Writer, ix *citations.Index, recs []runs.Record, fileOf []string, asJSON bool, done func(int)) (bool, error) {
	rep := audit.Run(ix, recs, 0, done)
	if err := ix.Err(); err != nil {
		return false, err
	}
	// Entries follow the runs and their citations in order.
	var entryFile []string
	for i, run := range recs {
		for range run.Citations {
			entryFile = append(entryFile, fileOf[i])
		}
	}
	bw := bufio.NewWriter(w)
	var err error
	if asJSON {
		err = writeAuditJSON(bw, rep, entryFile, fileOf)
	} else {
		err = writeAuditTable(bw, rep, entryFile, fileOf)
	}
	if err != nil {
		return false, err
	}
	return rep.Clean(), bw.Flush()
}

func totalsLabel(t audit.Totals) (string, string) {
	arm, session := t.Arm, fmt.Sprint(t.Session)
	if arm == "" {
		arm = "all"
	}
	if t.Session == 0 {
		session = "all"
	}
	return arm, session
}

func writeAuditTable(w io.Writer, rep audit.Report, files, runFiles []string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	// The counts kept apart get a column when there is something to count.
	var all audit.Totals
	if len(rep.Totals) > 0 {
		all = rep.Totals[len(rep.Totals)-1]
	}
	header := "arm\tsession\tattempts\tcitations\tunique\trelaxed\tambiguous\twrong_page\tpage_conv\twrong_doc\tfabricated\tunknown_doc\tunverifiable\t"
	if all.External > 0 {
		header += "external\t"
	}
	if all.Unread > 0 {
		header += "unread\t"
	}
	fmt.Fprintln(tw, header)
	for _, t := range rep.Totals {
		arm, session := totalsLabel(t)
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t", arm, session, t.Attempts, t.Citations, t.Unique, t.Relaxed,
			t.Ambiguous, t.WrongPage, t.PageConvention, t.WrongDocument, t.Fabricated, t.UnknownDocument, t.Unverifiable)
		if all.External > 0 {
			fmt.Fprintf(tw, "%d\t", t.External)
		}
		if all.Unread > 0 {
			fmt.Fprintf(tw, "%d\t", t.Unread)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	first := true
	for i, e := range rep.Entries {
		if e.Grounding == citations.GroundedUnique {
			continue
		}
		if first {
			fmt.Fprintf(w, "\ncitations not grounded uniquely:\n")
			first = false
		}
		quote := "(no quote)"
		if e.Citation.Quote != nil {
			quote = fmt.Sprintf("%q", clip(*e.Citation.Quote, 70))
		}
		fmt.Fprintf(w, "  %s:%d %s/%d %s %s %s: %s\n      %s cites %s\n", files[i], e.Line, e.Arm, e.Session, e.Question, e.Citation.ID,
			e.Grounding, e.Detail, quote, citedAs(e.Citation))
	}
	first = true
	for i, e := range rep.Entries {
		if e.Note == "" {
			continue
		}
		if first {
			fmt.Fprintf(w, "\nnotes on citations:\n")
			first = false
		}
		fmt.Fprintf(w, "  %s:%d %s/%d %s %s: %s\n", files[i], e.Line, e.Arm, e.Session, e.Question, e.Citation.ID, e.Note)
	}
	if len(rep.Unread) > 0 {
		fmt.Fprintf(w, "\nrecords with citations not read:\n")
	}
	for _, u := range rep.Unread {
		fmt.Fprintf(w, "  %s:%d %s/%d %s: %s: %s\n", runFiles[u.Run], u.Line, u.Arm, u.Session, u.Question, u.Summary(), strings.Join(u.Notes, "; "))
	}
	return nil
}

func citedAs(c runs.Citation) string {
	s := c.Document
	if c.Page != nil {
		s += fmt.Sprintf(" page %d", *c.Page)
		if c.LastPage != nil {
			s += fmt.Sprintf("-%d", *c.LastPage)
		}
	}
	if c.PageLabel != "" {
		s += fmt.Sprintf(" (label %q)", c.PageLabel)
	}
	return s
}

// clip shortens s to n code points, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

type auditJSONEntry struct {
	File      string                 `json:"file"`
	Line      int                    `json:"line"`
	Arm       string                 `json:"arm"`
	Session   int                    `json:"session"`
	Question  string                 `json:"question"`
	Citation  string                 `json:"citation"`
	Document  string                 `json:"document"`
	Page      *int                   `json:"page,omitempty"`
	Grounding citations.Grounding    `json:"grounding"`
	Detail    string                 `json:"detail"`
	Note      string                 `json:"note,omitempty"`
	Located   citations.LocateRecord `json:"located"`
}

type auditJSONUnread struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Arm      string   `json:"arm"`
	Session  int      `json:"session"`
	Question string   `json:"question"`
	Read     string   `json:"read"` // "no citations read" or "citations not read"
	Notes    []string `json:"notes"`
}

func writeAuditJSON(w io.Writer, rep audit.Report, files, runFiles []string) error {
	out := struct {
		Citations []auditJSONEntry  `json:"citations"`
		Totals    []audit.Totals    `json:"totals"`
		Unread    []auditJSONUnread `json:"unread"`
	}{Citations: []auditJSONEntry{}, Totals: rep.Totals, Unread: []auditJSONUnread{}}
	for i, e := range rep.Entries {
		out.Citations = append(out.Citations, auditJSONEntry{
			File: files[i], Line: e.Line, Arm: e.Arm, Session: e.Session, Question: e.Question,
			Citation: e.Citation.ID, Document: e.Citation.Document, Page: e.Citation.Page,
			Grounding: e.Grounding, Detail: e.Detail, Note: e.Note, Located: citations.NewLocateRecord(e.Citation.ID, e.Result),
		})
	}
	for _, u := range rep.Unread {
		out.Unread = append(out.Unread, auditJSONUnread{File: runFiles[u.Run], Line: u.Line, Arm: u.Arm, Session: u.Session,
			Question: u.Question, Read: u.Summary(), Notes: u.Notes})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
