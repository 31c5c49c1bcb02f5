package freeze

import (
	"fmt"
	"path/filepath"

	"github.com/citecheck/citecheck/corpus"
)

// MaxReviewsBytes caps a decisions file a lock pins (package review reads
// the same).
const MaxReviewsBytes = 256 << 20

// addReviews pins each decisions file at paths by its bytes, so that a
// report made with the lock names exactly the reviews it applied. The
// files' syntax is their reader's to check (package review, which the
// command calls first): freeze pins bytes.
func (b *lockBuilder) addReviews(paths []string) error {
	seen := map[string]string{}
	for _, p := range paths {
		data, err := readCapped(p, MaxReviewsBytes)
		if err != nil {
			return fmt.Errorf("freeze: reviews: %w", err)
		}
		rel, err := b.rel(p)
		if err != nil {
			return err
		}
		if first, ok := seen[rel]; ok {
			return fmt.Errorf("freeze: reviews: %w: %s is given twice (as %s and %s)", ErrReviewsTwice, rel, first, p)
		}
		seen[rel] = p
		b.add("reviews", rel, corpus.Hash(data))
	}
	return nil
}

// reviews re-hashes every decisions file the lock pins: a missing or
// changed one is a change.
func (c *checker) reviews() {
	for _, r := range c.l.Find("reviews") {
		rel, sum := r.Fields[0], r.Fields[1]
		in := "reviews " + rel
		data, err := readCapped(c.path(rel), MaxReviewsBytes)
		if err != nil {
			c.change(in, "%v", err)
			continue
		}
		c.rep.Reviews++
		if got := corpus.Hash(data); got != sum {
			c.change(in, "the decisions changed after freeze: BLAKE3 frozen %s, now %s", sum, got)
		}
	}
}

// ReviewFile is a decisions file a lock pins: its path usable from the
// working directory, its path as the lock names it and its BLAKE3.
type ReviewFile struct {
	Path, Rel, BLAKE3 string
}

// reviewFiles lists the decisions files l pins, in lock order, with their
// paths made usable from where the lock at lockPath is read.
func reviewFiles(l *Lock, lockPath string) []ReviewFile {
	var out []ReviewFile
	for _, r := range l.Find("reviews") {
		out = append(out, ReviewFile{Path: filepath.Join(filepath.Dir(lockPath), filepath.FromSlash(r.Fields[0])), Rel: r.Fields[0], BLAKE3: r.Fields[1]})
	}
	return out
}
