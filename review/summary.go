package review

import "github.com/citecheck/citecheck/metrics"

// Summary is what summary.json says of the reviews: the files read and
// what their decisions decided.
func (a *Applied) Summary(files []File) *metrics.Reviews {
	rv := &metrics.Reviews{Files: []metrics.ReviewFile{}, Items: a.Items, Decided: a.Decided, Undecided: a.Undecided,
		Disagreements: a.Disagreements, Reviewers: a.Reviewers, Agreement: a.Agreement}
	for _, f := range files {
		rv.Files = append(rv.Files, metrics.ReviewFile{File: f.Path, BLAKE3: f.BLAKE3, Decisions: f.Decisions})
	}
	if rv.Reviewers == nil {
		rv.Reviewers = []string{}
	}
	return rv
}
