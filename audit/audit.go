package audit

import (
	"sort"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/runs"
)

// Entry is one audited citation.
type Entry struct {
	Arm       string
	Session   int
	Question  string
	Line      int // the run record's line
	Citation  runs.Citation
	Grounding citations.Grounding
	Result    citations.Result
	Detail    string
	// Note is what the grounding corrected in the citation's naming
	// (citations.Grounded.Note), shown whatever the grounding.
	Note string
}

// Unread is a run record of which the adapter left citations unread
// (runs.Record.Unread): the audit reports it by line and is never clean.
type Unread struct {
	Arm      string
	Session  int
	Question string
	Line     int
	// Run is the record's index in the runs audited.
	Run int
	// NoCitations: no citation at all was read from the record.
	NoCitations bool
	Notes       []string
}

// Summary says in words whether nothing or only part of the record's
// citations was read: "no citations read" or "citations not read".
func (u Unread) Summary() string {
	if u.NoCitations {
		return "no citations read"
	}
	return "citations not read"
}

// Totals adds up one arm's session (Session 0: all its sessions; Arm "":
// every arm).
type Totals struct {
	Arm             string `json:"arm"`
	Session         int    `json:"session"`
	Attempts        int    `json:"attempts"`
	Citations       int    `json:"citations"`
	Unique          int    `json:"grounded_unique"`
	Relaxed         int    `json:"relaxed"` // of Unique: found only at a relaxed level (citations.Level.Relaxed)
	Ambiguous       int    `json:"ambiguous"`
	WrongPage       int    `json:"wrong_page"`
	PageConvention  int    `json:"page_convention"`
	WrongDocument   int    `json:"wrong_document"`
	Fabricated      int    `json:"fabricated"`
	UnknownDocument int    `json:"unknown_document"`
	Unverifiable    int    `json:"unverifiable"`
	// External counts the citations of sources outside the corpus, apart
	// from the others.
	External int `json:"external_source"`
	// Unread counts the records of which citations were left unread.
	Unread int `json:"unread"`
}

// Report is the result of Run: entries in input order, totals sorted by
// arm and session, each arm's "all sessions" row after its sessions, the
// overall row last; the records with unread citations in input order.
type Report struct {
	Entries []Entry
	Totals  []Totals
	Unread  []Unread
}

// Clean reports whether every citation is grounded uniquely on a page it
// gave and no record left citations unread: what an audit exit status 0
// means.
func (r *Report) Clean() bool {
	for _, e := range r.Entries {
		if e.Grounding != citations.GroundedUnique {
			return false
		}
	}
	return len(r.Unread) == 0
}

// Run grounds every emitted citation of the runs in the corpus ix indexes,
// on workers goroutines (0: GOMAXPROCS). It needs no reference: it says
// whether each quote is grounded, not whether it supports the answer. The
// report is the same for every workers: entries are placed by their run
// and citation, and totals added up in that order afterwards. done, when
// not nil, is told how many citations are looked up so far (GroundAll).
func Run(ix *citations.Index, recs []runs.Record, workers int, done func(n int)) Report {
	rep := Report{Entries: entries(ix, recs, workers, done)}
	totals := tally{}
	next := 0
	for i, run := range recs {
		keys := []key{{run.Arm, run.Session}, {run.Arm, 0}, {"", 0}}
		for _, k := range keys {
			t := totals.get(k)
			t.Attempts++
			if len(run.Unread) > 0 {
				t.Unread++
			}
		}
		if len(run.Unread) > 0 {
			rep.Unread = append(rep.Unread, Unread{Arm: run.Arm, Session: run.Session, Question: run.Question, Line: run.Line,
				Run: i, NoCitations: len(run.Citations) == 0, Notes: run.Unread})
		}
		for range run.Citations {
			for _, k := range keys {
				totals.get(k).add(&rep.Entries[next])
			}
			next++
		}
	}
	rep.Totals = totals.sorted()
	return rep
}

// entries grounds the citations of every run, in order; nil for none. A
// malformed citation (runs.Citation.Fault) is not looked up: it is
// unverifiable, its fault the detail.
func entries(ix *citations.Index, recs []runs.Record, workers int, done func(n int)) []Entry {
	var cs []citations.Citation
	var ms []map[string][]string
	n := 0
	for _, run := range recs {
		for _, rc := range run.Citations {
			n++
			if rc.Fault == "" {
				cs = append(cs, FromRun(rc))
				ms = append(ms, run.Documents)
			}
		}
	}
	if n == 0 {
		return nil
	}
	var gs []citations.Grounded
	if len(cs) > 0 {
		gs = ix.GroundAll(cs, ms, workers, done)
	}
	out := make([]Entry, 0, n)
	for _, run := range recs {
		for _, rc := range run.Citations {
			e := Entry{Arm: run.Arm, Session: run.Session, Question: run.Question, Line: run.Line, Citation: rc,
				Grounding: citations.GroundedUnverifiable, Result: citations.Result{Chosen: -1}, Detail: "malformed citation: " + rc.Fault}
			if rc.Fault == "" {
				g := gs[0]
				gs = gs[1:]
				e.Grounding, e.Result, e.Detail, e.Note = g.Grounding, g.Result, g.Detail, g.Note
			}
			out = append(out, e)
		}
	}
	return out
}

// key names a row of totals: an arm's session, an arm's sessions (session
// 0) or every arm (arm "", session 0).
type key struct {
	arm     string
	session int
}

type tally map[key]*Totals

func (t tally) get(k key) *Totals {
	row := t[k]
	if row == nil {
		row = &Totals{Arm: k.arm, Session: k.session}
		t[k] = row
	}
	return row
}

// sorted returns the rows by arm and session, each arm's "all sessions"
// row after its sessions and the overall row last.
func (t tally) sorted() []Totals {
	var out []Totals
	for _, row := range t {
		out = append(out, *row)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (a.Arm == "") != (b.Arm == "") {
			return b.Arm == ""
		}
		if a.Arm != b.Arm {
			return a.Arm < b.Arm
		}
		if (a.Session == 0) != (b.Session == 0) {
			return b.Session == 0
		}
		return a.Session < b.Session
	})
	return out
}

// add counts one audited citation.
func (t *Totals) add(e *Entry) {
	t.Citations++
	switch e.Grounding {
	case citations.GroundedUnique:
		t.Unique++
		if l, ok := e.Result.Location(); ok && l.Level.Relaxed() {
			t.Relaxed++
		}
	case citations.GroundedAmbiguous:
		t.Ambiguous++
	case citations.GroundedWrongPage:
		t.WrongPage++
	case citations.GroundedPageConvention:
		t.PageConvention++
	case citations.GroundedWrongDocument:
		t.WrongDocument++
	case citations.GroundedFabricated:
		t.Fabricated++
	case citations.GroundedUnknownDocument:
		t.UnknownDocument++
	case citations.GroundedUnverifiable:
		t.Unverifiable++
	case citations.GroundedExternal:
		t.External++
	}
}

// FromRun converts a run record's citation for the locator (Ground) and
// the grader's classifier.
func FromRun(c runs.Citation) citations.Citation {
	out := citations.Citation{ID: c.ID, Document: c.Document, PageLabel: c.PageLabel, NoQuote: c.Quote == nil,
		External: c.External, PagePhysical: c.PagePhysical, Title: c.Title, Retrieval: c.QuoteFrom == runs.QuoteFromRetrieval}
	if c.Quote != nil {
		out.Quote = *c.Quote
	}
	if c.Page != nil {
		out.Page = *c.Page
	}
	if c.LastPage != nil {
		out.LastPage = *c.LastPage
	}
	return out
}
