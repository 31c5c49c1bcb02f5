package citations

import (
	"sort"
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
	g := ix.Ground(rc.Citation(), run.Documents)
	return AuditEntry{Arm: run.Arm, Session: run.Session, Question: run.Question, Line: run.Line, Citation: rc,
		Grounding: g.Grounding, Result: g.Result, Detail: g.Detail}
}
