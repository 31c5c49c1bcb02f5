// Package grade grades answers to document questions by the scoring
// policy's grade_response: the citation classifier (Classify) and the
// ground truth it needs from a reference (ExpectedFor).
package grade
