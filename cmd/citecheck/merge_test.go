package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/citecheck/citecheck/fixtures"
)

// TestShardedExtractMergesToUnsharded: the fixture PDFs extracted in four
// shards (extract --shard K/4), then merged, give the store one extract
// gives, byte for byte; each shard holds its own documents only.
func TestShardedExtractMergesToUnsharded(t *testing.T) {
	t.Chdir(t.TempDir())
	require.NoError(t, os.Mkdir("pdfs", 0o755))
	docs := append(fixtures.Demo(), fixtures.Eval()...)
	for _, d := range docs {
		require.NoError(t, os.WriteFile(filepath.Join("pdfs", d.Name), d.Data, 0o644))
	}
	writeFile(t, filepath.Join("pdfs", "broken.pdf"), "%PDF-1.7\nnot really\n")
	whole, errOut, code := runCLI(t, "extract", "--out", "corpus", "--jobs", "2", "pdfs")
	require.Equal(t, 1, code, "broken.pdf does not extract: %s%s", whole, errOut)

	held := 0
	var shards []string
	for k := range 4 {
		dir := filepath.Join("shards", fmt.Sprint(k))
		out, errOut, code := runCLI(t, "extract", "--shard", fmt.Sprintf("%d/4", k), "--out", dir, "--jobs", "2", "pdfs")
		require.Contains(t, []int{0, 1}, code, "%s%s", out, errOut)
		var n, total int
		_, err := fmt.Sscanf(out, fmt.Sprintf("shard %d/4: %%d of %%d documents", k), &n, &total)
		require.NoError(t, err, out)
		assert.Equal(t, len(docs)+1, total)
		held += n
		shards = append(shards, dir)
	}
	assert.Equal(t, len(docs)+1, held, "the shards hold every PDF once between them")

	out, errOut, code := runCLI(t, "merge", "--out", "merged", shards[2], shards[0], shards[3], shards[1])
	assert.Equal(t, 1, code, "merged, and broken.pdf is listed: %s%s", out, errOut)
	assert.Contains(t, out, "broken.pdf")
	assert.Equal(t, readFiles(t, "corpus"), readFiles(t, "merged"))
}

// readFiles reads every file under root, by slash-separated path.
func readFiles(t *testing.T, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	require.NoError(t, filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	}))
	return files
}
