package citations

import (
	"fmt"
	"sort"
	"strings"
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
)

// AuditEntry is one audited citation.
type AuditEntry struct {
	Arm       string
	Session   int
	Question  string
	Line      int // the run record's line
	Citation  RunCitation
	Grounding Grounding
	Result    Result
	Detail    string
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
}

// AuditReport is the result of Audit: entries in input order, totals
// sorted by arm and session, each arm's "all sessions" row after its
// sessions, the overall row last.
type AuditReport struct {
	Entries []AuditEntry
	Totals  []AuditTotals
}

// Clean reports whether every citation is grounded uniquely on a page it
// gave: what an audit exit status 0 means.
func (r *AuditReport) Clean() bool {
	for _, e := range r.Entries {
		if e.Grounding != GroundedUnique {
			return false
		}
	}
	return true
}

// Audit locates every emitted citation of the runs in the corpus. It needs
// no reference: it says whether each quote is grounded, not whether it
// supports the answer.
func (ix *Index) Audit(runs []RunRecord) AuditReport {
	var rep AuditReport
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
	for _, run := range runs {
		keys := []key{{run.Arm, run.Session}, {run.Arm, 0}, {"", 0}}
		for _, k := range keys {
			get(k).Attempts++
		}
		for _, c := range run.Citations {
			e := ix.auditOne(run, c)
			rep.Entries = append(rep.Entries, e)
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

func (ix *Index) auditOne(run RunRecord, rc RunCitation) AuditEntry {
	e := AuditEntry{Arm: run.Arm, Session: run.Session, Question: run.Question, Line: run.Line, Citation: rc, Result: Result{Chosen: -1}}
	c := rc.Citation()
	set := func(g Grounding, format string, args ...any) AuditEntry {
		e.Grounding, e.Detail = g, fmt.Sprintf(format, args...)
		return e
	}
	dm := ix.Resolve(c.Document, run.Documents)
	switch dm.Resolution {
	case DocUnknown:
		e.Result = ix.Locate(Query{Document: c.Document, Quote: c.Quote})
		return set(GroundedUnknownDocument, "document %q is not in the corpus", c.Document)
	case DocAmbiguous:
		return set(GroundedUnverifiable, "%s", dm.Why(c.Document))
	}
	if c.NoQuote || strings.TrimSpace(c.Quote) == "" {
		return set(GroundedUnverifiable, "no quote to verify")
	}
	r := ix.Locate(Query{Document: dm.Name, Quote: c.Quote, Page: c.Page, LastPage: c.LastPage, PageLabel: c.PageLabel})
	e.Result = r
	switch r.Status {
	case StatusNotFound, StatusNotFoundInDocument:
		if why := textless(r, c.Page); why != "" {
			return set(GroundedUnverifiable, "%s", why)
		}
		if r.Status == StatusNotFoundInDocument {
			return set(GroundedWrongDocument, "not in %s; found in %s", r.Document, r.Elsewhere[0].Document)
		}
		return set(GroundedFabricated, "in no corpus document")
	}
	switch r.PageCheck {
	case PageNotOnPage:
		return set(GroundedWrongPage, "given page %s; found on page %s", pageText(c), intsText(r.Pages()))
	case PageZeroBased, PageLabelled:
		return set(GroundedPageConvention, "given page %s is page %s only as %s", pageText(c), intsText(r.Pages()), r.PageCheck)
	}
	if r.Status == StatusAmbiguous {
		if r.Short {
			return set(GroundedAmbiguous, "a very short quote that occurs many times")
		}
		return set(GroundedAmbiguous, "%d locations on pages %s", len(r.Locations), intsText(r.Pages()))
	}
	l, _ := r.Location()
	return set(GroundedUnique, "%s", l.Level)
}
