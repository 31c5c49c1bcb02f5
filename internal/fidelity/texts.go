package fidelity

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/citecheck/citecheck/corpus"
)

// DocumentTexts gathers the page texts Measure and MeasureLocate compare:
// ours from the corpus store (under Ours) and each tool's, through the
// cache, from the PDF the store records. A tool that fails on the file is
// left out, and so is every tool for a document imported from page texts
// (corpus.TextSource), which has no PDF; only a cancelled context or an
// unreadable stored text is an error.
func DocumentTexts(ctx context.Context, store *corpus.Store, d *corpus.Document, tools []*Tool, cache *Cache) (map[string][]string, error) {
	texts, _, err := GatherTexts(ctx, store, d, tools, cache)
	return texts, err
}

// GatherTexts is DocumentTexts, and says why each tool left out of texts
// has none: its error on the file (a bound it hit, say), or that it read no
// page.
func GatherTexts(ctx context.Context, store *corpus.Store, d *corpus.Document, tools []*Tool, cache *Cache) (texts map[string][]string, failed map[string]error, err error) {
	ours := make([]string, len(d.Pages))
	for i := range d.Pages {
		t, err := store.Text(d, i+1)
		if err != nil {
			return nil, nil, err
		}
		ours[i] = t
	}
	texts = map[string][]string{Ours: ours}
	failed = map[string]error{}
	if _, ok := corpus.TextSource(d.Source); ok {
		return texts, failed, nil
	}
	path := filepath.Join(store.Dir(), filepath.FromSlash(d.Source))
	for _, t := range tools {
		pages, perr := cache.Pages(ctx, t, path, d.BLAKE3)
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		switch {
		case len(pages) > 0:
			texts[t.Name] = pages
		case perr != nil:
			failed[t.Name] = perr
		default:
			failed[t.Name] = errors.New("no page")
		}
	}
	return texts, failed, nil
}
