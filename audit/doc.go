// Package audit checks the citations of whole runs against a corpus, with
// no reference: for every citation an AI system emitted (run records,
// package runs), is its quote in the document it names, on the page it
// gives, and once? Run grounds each citation with the locator
// (citations.Index.GroundAll) and adds the groundings up per arm and
// session; Report.Clean says whether the audit passes. FromRun turns a
// run record's citation into the locator's, for the grader too.
//
// The audit is the run-facing layer over the locator: package citations
// knows quotes, documents and pages, never run records, and this package
// is where the two meet.
//
// # Ordering
//
// Entries follow the input: run by run, each run's citations in order.
// Totals are sorted by arm and session, each arm's "all sessions" row
// after its sessions and the overall row last. Citations are grounded on
// several goroutines, each result placed by its input's index, so the
// report is the same for every number of workers.
//
// # Unread citations
//
// A run record of which the adapter left citations unread
// (runs.Record.Unread) is listed by line in Report.Unread and counted in
// the totals; the audit is then never clean, so that no citation is lost
// in silence.
//
// Judging whether a grounded quote supports the answer is package grade's.
// The package never prints or exits.
package audit
