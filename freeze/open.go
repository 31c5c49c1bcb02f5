package freeze

import (
	"fmt"
	"path/filepath"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/plan"
	"github.com/citecheck/citecheck/spans"
)

// Evaluation is what a verified lock pins, ready to grade against.
type Evaluation struct {
	// CorpusDir is the corpus folder, as a path usable from the working
	// directory.
	CorpusDir string
	Reference *spans.Reference
	Plan      *plan.Plan // nil when the lock pins no plan
	// Reviews are the decisions files the lock pins, verified.
	Reviews []ReviewFile
	// Report is the verification Open ran; its Warnings name toolchain
	// drift.
	Report *Report
}

// Open verifies the lock at lockPath (Check) and, when every pinned input
// is unchanged, decodes the reference and plan it names. The bytes decoded
// are hashed again and compared with the lock, so what is graded is what
// was verified. A changed input returns the Report and an error wrapping
// ErrChanged; a lock that cannot be read returns Check's error.
func Open(lockPath string, tc Toolchain) (*Evaluation, error) {
	rep, err := Check(lockPath, tc)
	if err != nil {
		return nil, err
	}
	ev := &Evaluation{Report: rep}
	if err := rep.Err(); err != nil {
		return ev, err
	}
	l := rep.Lock
	dir := filepath.Dir(lockPath)
	path := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	c, ok := l.one("corpus")
	if !ok {
		return ev, fmt.Errorf("freeze: %s: %w: no corpus record", lockPath, ErrMalformed)
	}
	ev.CorpusDir = path(c.Fields[0])
	r, ok := l.one("reference")
	if !ok {
		return ev, fmt.Errorf("freeze: %s: %w: no reference record", lockPath, ErrMalformed)
	}
	data, err := readCapped(path(r.Fields[0]), spans.MaxReferenceBytes)
	if err != nil {
		return ev, fmt.Errorf("freeze: %w", err)
	}
	if got := corpus.Hash(data); got != r.Fields[1] {
		return ev, fmt.Errorf("freeze: reference %s: %w: changed while it was read", r.Fields[0], ErrChanged)
	}
	if ev.Reference, err = spans.Decode(data, path(r.Fields[0])); err != nil {
		return ev, err
	}
	ev.Reviews = reviewFiles(l, lockPath)
	if p, ok := l.one("plan"); ok {
		data, err := readCapped(path(p.Fields[0]), plan.MaxPlanBytes)
		if err != nil {
			return ev, fmt.Errorf("freeze: %w", err)
		}
		if got := corpus.Hash(data); got != p.Fields[1] {
			return ev, fmt.Errorf("freeze: plan %s: %w: changed while it was read", p.Fields[0], ErrChanged)
		}
		if ev.Plan, err = plan.Decode(data, path(p.Fields[0])); err != nil {
			return ev, err
		}
	}
	return ev, nil
}
