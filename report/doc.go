// Package report renders an evaluation's results for people and tools:
// summary.json (WriteJSON, the contract other tools read), summary.md
// (WriteMarkdown) and a text table (WriteTable) from a metrics.Summary,
// and report.html (WriteHTML), one self-contained page with every result
// and citation. It reads nothing but what it is given, and never prints
// or exits.
package report
