package freeze_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/citecheck/citecheck/freeze"
	"github.com/citecheck/citecheck/internal/inputerr"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReviewsPinned: decisions files given to freeze are pinned by their
// bytes, relative to the lock; Open returns them verified; a changed,
// missing or repeated one is refused, and a lock without them is the lock
// it always was.
func TestReviewsPinned(t *testing.T) {
	dir := evaluation(t)
	plain, err := freeze.Build(inputs(dir))
	require.NoError(t, err)
	assert.Empty(t, plain.Lock.Find("reviews"), "no reviews, no record: the lock's bytes are those of before")

	require.NoError(t, os.MkdirAll(filepath.Join(dir, "review"), 0o755))
	ana, bo := filepath.Join(dir, "review", "ana.jsonl"), filepath.Join(dir, "review", "bo.jsonl")
	require.NoError(t, os.WriteFile(ana, []byte(`{"hash":"blake3:00","verdict":"pass","reviewer":"ana"}`+"\n"), 0o644))
	require.NoError(t, os.WriteFile(bo, []byte(`{"hash":"blake3:01","verdict":"fail","reviewer":"bo"}`+"\n"), 0o644))
	in := inputs(dir)
	in.Reviews = []string{bo, ana}
	fr, err := freeze.Write(in)
	require.NoError(t, err)
	var lines []string
	for _, r := range fr.Lock.Find("reviews") {
		lines = append(lines, r.String())
	}
	require.Len(t, lines, 2)
	assert.True(t, strings.HasPrefix(lines[0], "reviews review/ana.jsonl blake3:"), "sorted, relative to the lock: %v", lines)
	assert.True(t, strings.HasPrefix(lines[1], "reviews review/bo.jsonl blake3:"), "%v", lines)

	lock := filepath.Join(dir, "eval.lock")
	ev, err := freeze.Open(lock, testToolchain)
	require.NoError(t, err)
	require.Len(t, ev.Reviews, 2)
	assert.Equal(t, "review/ana.jsonl", ev.Reviews[0].Rel)
	assert.Equal(t, ana, ev.Reviews[0].Path)
	assert.Equal(t, 2, ev.Report.Reviews)

	require.NoError(t, os.WriteFile(ana, []byte(`{"hash":"blake3:00","verdict":"fail","reviewer":"ana"}`+"\n"), 0o644))
	require.NoError(t, os.Remove(bo))
	rep, err := freeze.Check(lock, testToolchain)
	require.NoError(t, err)
	var changed []string
	for _, c := range rep.Changes {
		changed = append(changed, c.String())
	}
	require.Len(t, changed, 2, "%v", changed)
	assert.Contains(t, changed[0], "reviews review/ana.jsonl: the decisions changed after freeze: BLAKE3 frozen blake3:")
	assert.Contains(t, changed[1], "reviews review/bo.jsonl: ")
	_, err = freeze.Open(lock, testToolchain)
	assert.ErrorIs(t, err, freeze.ErrChanged, "a report with this lock is refused")

	in.Reviews = []string{ana, filepath.Join(dir, "review", "..", "review", "ana.jsonl")}
	_, err = freeze.Build(in)
	assert.True(t, errors.Is(err, freeze.ErrReviewsTwice) && errors.Is(err, inputerr.ErrInput), "one file twice: %v", err)
	in.Reviews = []string{filepath.Join(dir, "review", "none.jsonl")}
	_, err = freeze.Build(in)
	assert.ErrorIs(t, err, os.ErrNotExist, "a decisions file that is not there")
}
