package citations

import (
	"sort"

	"github.com/citecheck/citecheck/runs"
)

// Grounding is what an audit says about one emitted citation, with no
// reference: whether its quote is in the document it names, and where.
type Grounding string

// The audit classes.
const (
	GroundedUnique          Grounding = "unique"           // one location in the cited document (on the given page)
	GroundedAmbiguous       Grounding = "ambiguous"        // several locations, nothing settles which
	GroundedWrongPage       Grounding = "wrong_page"       // in the document, on no page the given one could mean
	GroundedPageConvention  Grounding = "page_convention"  // on the given page only read 0-based or as a label
	GroundedWrongDocument   Grounding = "wrong_document"   // in another document only
	GroundedFabricated      Grounding = "fabricated"       // in no corpus document
	GroundedUnknownDocument Grounding = "unknown_document" // the cited document is not in the corpus
	GroundedUnverifiable    Grounding = "unverifiable"     // no quote, an ambiguous document mapping, or no text to search
	GroundedExternal        Grounding = "external_source"  // a source outside the corpus (a web page): never looked up
)

// AuditEntry is one audited citation.
type AuditEntry struct {
	Arm       string
	Session   int
	Question  string
	Line      int // the run record's line
	Citation  runs.Citation
	Grounding Grounding
	Result    Result
	Detail    string
	// Note is what the grounding corrected in the citation's naming
	// (Grounded.Note), shown whatever the grounding.
	Note string
}

// AuditUnread is a run record of which the adapter left citations unread
// (runs.Record.Unread): the audit reports it by line and is never clean.
type AuditUnread struct {
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
func (u AuditUnread) Summary() string {
	if u.NoCitations {
		return "no citations read"
	}
	return "citations not read"
}

// AuditTotals adds up one arm's session (Session 0: all its sessions; Arm
// "": every arm).
type AuditTotals struct {
	Arm             string `json:"arm"`
	Session         int    `json:"session"`
	Attempts        int    `json:"attempts"`
	Citations       int    `json:"citations"`
	Unique          int    `json:"grounded_unique"`
	Relaxed         int    `json:"relaxed"` // of Unique: found only at a relaxed level (Level.Relaxed)
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

// AuditReport is the result of Audit: entries in input order, totals
// sorted by arm and session, each arm's "all sessions" row after its
// sessions, the overall row last; the records with unread citations in
// input order.
type AuditReport struct {
	Entries []AuditEntry
	Totals  []AuditTotals
	Unread  []AuditUnread
}

// Clean reports whether every citation is grounded uniquely on a page it
// gave and no record left citations unread: what an audit exit status 0
// means.
func (r *AuditReport) Clean() bool {
	for _, e := range r.Entries {
		if e.Grounding != GroundedUnique {
			return false
		}
	}
	return len(r.Unread) == 0
}

// Audit locates every emitted citation of the runs in the corpus. It needs
// no reference: it says whether each quote is grounded, not whether it
// supports the answer. Citations are located on GOMAXPROCS goroutines
// (AuditWorkers).
func (ix *Index) Audit(recs []runs.Record) AuditReport { return ix.AuditWorkers(recs, 0) }

// AuditWorkers is Audit with the citations located on workers goroutines
// (0: GOMAXPROCS). The report is the same for every workers: entries are
// placed by their run and citation, and totals added up in that order
// afterwards.
func (ix *Index) AuditWorkers(recs []runs.Record, workers int) AuditReport {
	var rep AuditReport
	type ref struct{ run, cit int }
	var refs []ref
	for i, run := range recs {
		for c := range run.Citations {
			refs = append(refs, ref{i, c})
		}
	}
	if len(refs) > 0 {
		rep.Entries = make([]AuditEntry, len(refs)) // nil for none, as before
	}
	parallel(len(refs), workers, func(k int) {
		run := &recs[refs[k].run]
		rep.Entries[k] = ix.auditOne(*run, run.Citations[refs[k].cit])
	})
	next := 0
	type key struct {
		arm     string
		session int
	}
	totals := map[key]*AuditTotals{}
	get := func(k key) *AuditTotals {
		t := totals[k]
		if t == nil {
			t = &AuditTotals{Arm: k.arm, Session: k.session}
			totals[k] = t
		}
		return t
	}
	for i, run := range recs {
		keys := []key{{run.Arm, run.Session}, {run.Arm, 0}, {"", 0}}
		for _, k := range keys {
			get(k).Attempts++
			if len(run.Unread) > 0 {
				get(k).Unread++
			}
		}
		if len(run.Unread) > 0 {
			rep.Unread = append(rep.Unread, AuditUnread{Arm: run.Arm, Session: run.Session, Question: run.Question, Line: run.Line,
				Run: i, NoCitations: len(run.Citations) == 0, Notes: run.Unread})
		}
		for range run.Citations {
			e := &rep.Entries[next]
			next++
			for _, k := range keys {
				t := get(k)
				t.Citations++
				switch e.Grounding {
				case GroundedUnique:
					t.Unique++
					if l, ok := e.Result.Location(); ok && l.Level.Relaxed() {
						t.Relaxed++
					}
				case GroundedAmbiguous:
					t.Ambiguous++
				case GroundedWrongPage:
					t.WrongPage++
				case GroundedPageConvention:
					t.PageConvention++
				case GroundedWrongDocument:
					t.WrongDocument++
				case GroundedFabricated:
					t.Fabricated++
				case GroundedUnknownDocument:
					t.UnknownDocument++
				case GroundedUnverifiable:
					t.Unverifiable++
				case GroundedExternal:
					t.External++
				}
			}
		}
	}
	for _, t := range totals {
		rep.Totals = append(rep.Totals, *t)
	}
	sort.Slice(rep.Totals, func(i, j int) bool {
		a, b := rep.Totals[i], rep.Totals[j]
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
	return rep
}

func (ix *Index) auditOne(run runs.Record, rc runs.Citation) AuditEntry {
	g := ix.Ground(FromRun(rc), run.Documents)
	return AuditEntry{Arm: run.Arm, Session: run.Session, Question: run.Question, Line: run.Line, Citation: rc,
		Grounding: g.Grounding, Result: g.Result, Detail: g.Detail, Note: g.Note}
}

// FromRun converts a run record's citation for the classifier.
func FromRun(c runs.Citation) Citation {
	out := Citation{ID: c.ID, Document: c.Document, PageLabel: c.PageLabel, NoQuote: c.Quote == nil,
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
