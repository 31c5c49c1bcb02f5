package ingest

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/citecheck/citecheck/corpus"
)

// richExtract gives every page glyph boxes, some pages alternative texts,
// a few documents warnings or a failure, so a store holds every kind of
// file and entry.
func richExtract(_ context.Context, name string, pdf []byte) corpus.Extraction {
	content := string(pdf)
	switch {
	case strings.HasPrefix(content, "broken"):
		return corpus.Extraction{Status: corpus.StatusMalformed, Error: "not a PDF: " + name}
	case strings.HasPrefix(content, "locked"):
		return corpus.Extraction{Status: corpus.StatusEncrypted, Error: "encrypted"}
	}
	var ex corpus.Extraction
	ex.Status = corpus.StatusOK
	for i, line := range strings.Split(content, "|") {
		p := corpus.PageText{Text: line, Label: fmt.Sprint(i + 1)}
		if line != "" {
			p.Boxes = corpus.EncodeBoxes([]corpus.GlyphBox{{Start: 0, End: 1, X0: float64(i), Y0: 1, X1: float64(i) + 5, Y1: 9}})
		}
		if strings.HasPrefix(line, "=") {
			p.Alts = []string{"6" + line[1:]}
		}
		ex.Pages = append(ex.Pages, p)
	}
	if strings.Contains(content, "repaired") {
		ex.Warnings = []string{"cross-reference table rebuilt"}
	}
	return ex
}

// shardInputs writes n PDFs (and a few odd ones) into a folder beside the
// stores and returns it.
func shardInputs(t *testing.T, root string, n int) string {
	t.Helper()
	in := filepath.Join(root, "pdfs")
	files := map[string]string{
		"broken.pdf":      "broken bytes",
		"locked.pdf":      "locked bytes",
		"sub/nested.pdf":  "= b|repaired page",
		"same-as-0.pdf":   "document 0 page 1|document 0 page 2",
		"text:colon.pdf":  "a name that looks like a page folder",
		"empty-pages.pdf": "|",
	}
	for i := range n {
		files[fmt.Sprintf("doc%03d.pdf", i)] = fmt.Sprintf("document %d page 1|document %d page 2", i, i)
	}
	writeFiles(t, in, files)
	return in
}

func buildWith(t *testing.T, out string, in []string, shard Shard, ext corpus.ExtractorID) (*Report, error) {
	t.Helper()
	files, err := Inputs(in)
	require.NoError(t, err)
	return Build(context.Background(), out, files, BuildOptions{Extractor: ext, Extract: richExtract, Jobs: 3, Shard: shard})
}

// treeOf reads every file under root, by slash-separated relative path.
func treeOf(t *testing.T, root string) map[string]string {
	t.Helper()
	tree := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		tree[filepath.ToSlash(rel)] = string(b)
		return err
	})
	require.NoError(t, err)
	return tree
}

// TestShardedThenMergedIsUnsharded: documents extracted in N shards and
// merged make the store an unsharded extraction of the same inputs makes,
// byte for byte, for every N; the shards hold every input once between
// them.
func TestShardedThenMergedIsUnsharded(t *testing.T) {
	root := t.TempDir()
	in := shardInputs(t, root, 40)
	whole := filepath.Join(root, "whole")
	_, err := buildWith(t, whole, []string{in}, Shard{}, testExtractor)
	require.NoError(t, err)
	want := treeOf(t, whole)

	for _, n := range []int{1, 4, 7} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var shards []string
			held := 0
			for k := range n {
				dir := filepath.Join(root, fmt.Sprintf("shards-%d", n), fmt.Sprint(k))
				rep, err := buildWith(t, dir, []string{in}, Shard{Index: k, Count: n}, testExtractor)
				require.NoError(t, err)
				held += len(rep.Results)
				shards = append(shards, dir)
			}
			assert.Equal(t, 46, held, "the shards hold every input once between them")
			// Shards move (from a node's scratch disk to shared storage)
			// before they are merged, in any order.
			moved := filepath.Join(t.TempDir(), "elsewhere")
			require.NoError(t, os.Rename(filepath.Dir(shards[0]), moved))
			for k := range shards {
				shards[k] = filepath.Join(moved, fmt.Sprint(k))
			}
			out := filepath.Join(root, fmt.Sprintf("merged-%d", n))
			rep, err := Merge(context.Background(), out, reversed(shards), MergeOptions{Jobs: 2})
			require.NoError(t, err)
			assert.Len(t, rep.Results, 46)
			assert.Equal(t, want, treeOf(t, out))
		})
	}
}

func reversed(s []string) []string {
	r := make([]string, len(s))
	for i, x := range s {
		r[len(s)-1-i] = x
	}
	return r
}

// TestShardIsChosenByContent: a document's shard follows from its bytes
// alone, so documents added to a corpus leave the others where they were,
// and the same bytes under two names land together.
func TestShardIsChosenByContent(t *testing.T) {
	s := Shard{Index: 0, Count: 4}
	counts := make([]int, 4)
	for i := range 400 {
		d := corpus.Hash(fmt.Appendf(nil, "document %d", i))
		counts[s.of(d)]++
		assert.Equal(t, s.of(d), Shard{Count: 4}.of(d), "the index asked about does not matter")
	}
	for k, c := range counts {
		assert.InDelta(t, 100, c, 40, "shard %d of 4 holds about a quarter", k)
	}
	// The first 8 bytes of the hash, big-endian, mod N.
	d := "blake3:00000000000000070000000000000000000000000000000000000000000000ff"
	assert.Equal(t, 3, Shard{Count: 4}.of(d))
	assert.True(t, Shard{Index: 3, Count: 4}.Owns(d))
	assert.True(t, Shard{}.Owns(d), "an unsharded build owns everything")
}

func TestParseShard(t *testing.T) {
	tests := []struct {
		text string
		want Shard
		ok   bool
		why  string
	}{
		{"0/4", Shard{0, 4}, true, "the first of four"},
		{"3/4", Shard{3, 4}, true, "the last of four"},
		{"0/1", Shard{0, 1}, true, "one shard is the whole"},
		{"4/4", Shard{}, false, "K counts from 0"},
		{"-1/4", Shard{}, false, "negative"},
		{"1/0", Shard{}, false, "no shards"},
		{"1", Shard{}, false, "no N"},
		{"a/b", Shard{}, false, "not numbers"},
		{"0/65537", Shard{}, false, "more than MaxShards"},
	}
	for _, tc := range tests {
		got, err := ParseShard(tc.text)
		if tc.ok {
			require.NoError(t, err, tc.why)
			assert.Equal(t, tc.want, got, tc.why)
			assert.Equal(t, tc.text, got.String())
		} else {
			assert.Error(t, err, tc.why)
		}
	}
}

// TestMergeRefuses: shards that are not every shard of one extraction,
// each holding exactly its documents, are refused with the error naming
// the fault, before anything is written.
func TestMergeRefuses(t *testing.T) {
	root := t.TempDir()
	in := shardInputs(t, root, 12)
	shards := func(name string, n int, ext corpus.ExtractorID) []string {
		var dirs []string
		for k := range n {
			dir := filepath.Join(root, name, fmt.Sprint(k))
			_, err := buildWith(t, dir, []string{in}, Shard{Index: k, Count: n}, ext)
			require.NoError(t, err)
			dirs = append(dirs, dir)
		}
		return dirs
	}
	four := shards("four", 4, testExtractor)
	newer := testExtractor
	newer.Version = "2"
	otherLimits := corpus.ExtractorID{Name: testExtractor.Name, Version: testExtractor.Version, Limits: map[string]int64{"timeout_ms": 5000}}
	v2 := shards("v2", 4, newer)
	limits := shards("limits", 4, otherLimits)
	three := shards("three", 3, testExtractor)
	// A PDF added after two shards were extracted.
	grown := shards("grown", 4, testExtractor)
	writeFiles(t, in, map[string]string{"late.pdf": "a late page"})
	_, err := buildWith(t, grown[3], []string{in}, Shard{Index: 3, Count: 4}, testExtractor)
	require.NoError(t, err)
	require.NoError(t, os.Remove(filepath.Join(in, "late.pdf")))
	// A shard whose manifest lost a document, one whose shard file was
	// edited to claim another's document, one whose page text changed.
	lost := shards("lost", 4, testExtractor)
	withManifestEdited(t, lost, func(m *corpus.Manifest) { m.Documents = m.Documents[1:] })
	tampered := shards("tampered", 4, testExtractor)
	tamperPage(t, tampered)

	tests := []struct {
		why    string
		shards []string
		want   error
	}{
		{"another extractor version", []string{four[0], four[1], v2[2], four[3]}, ErrShardMismatch},
		{"other limits", []string{four[0], limits[1], four[2], four[3]}, ErrShardMismatch},
		{"split another number of ways", []string{four[0], four[1], four[2], three[0]}, ErrShardMismatch},
		{"a shard missing", four[:3], ErrShardMissing},
		{"a shard given twice", []string{four[0], four[1], four[2], four[3], four[2]}, ErrShardOverlap},
		{"a shard from other inputs", []string{four[0], four[1], four[2], grown[3]}, ErrShardMismatch},
		{"a document missing from its shard", lost, ErrShardMissing},
		{"not a shard", []string{four[0], four[1], four[2], in}, ErrNotShard},
		{"a stored page text changed", tampered, corpus.ErrIntegrity},
		{"nothing to merge", nil, ErrShardMissing},
	}
	for _, tc := range tests {
		out := filepath.Join(t.TempDir(), "merged")
		_, err := Merge(context.Background(), out, tc.shards, MergeOptions{})
		assert.ErrorIs(t, err, tc.want, tc.why)
		_, statErr := os.Stat(out)
		assert.ErrorIs(t, statErr, fs.ErrNotExist, "%s: nothing left behind", tc.why)
	}

	_, err = Merge(context.Background(), four[0], four, MergeOptions{})
	assert.ErrorIs(t, err, ErrShardOverlap, "the output is one of the shards")
}

// withManifestEdited rewrites the manifest of the shard holding
// documents, through edit, and returns its folder.
func withManifestEdited(t *testing.T, shards []string, edit func(*corpus.Manifest)) string {
	t.Helper()
	for _, dir := range shards {
		m := manifestOf(t, dir)
		if len(m.Documents) == 0 {
			continue
		}
		edit(m)
		b, err := json.MarshalIndent(m, "", "  ")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, corpus.ManifestFile), b, 0o644))
		return dir
	}
	t.Fatal("no shard holds a document")
	return ""
}

// tamperPage changes the first stored page text of the shards.
func tamperPage(t *testing.T, shards []string) {
	t.Helper()
	for _, dir := range shards {
		for _, d := range manifestOf(t, dir).Documents {
			if len(d.Pages) > 0 {
				require.NoError(t, os.WriteFile(filepath.Join(dir, pageFile(&d, 1)), []byte("changed"), 0o644))
				return
			}
		}
	}
	t.Fatal("no shard holds a page")
}

// TestShardAndCorpusFoldersDoNotMix: a shard is not extracted into a whole
// corpus's folder, nor a whole corpus into a shard's; a shard extracted
// again reuses its unchanged documents and drops those no longer its own.
func TestShardAndCorpusFoldersDoNotMix(t *testing.T) {
	root := t.TempDir()
	in := shardInputs(t, root, 8)
	whole := filepath.Join(root, "whole")
	_, err := buildWith(t, whole, []string{in}, Shard{}, testExtractor)
	require.NoError(t, err)
	_, err = buildWith(t, whole, []string{in}, Shard{Index: 0, Count: 2}, testExtractor)
	assert.ErrorIs(t, err, ErrNotShard, "a shard into a whole corpus")

	shard := filepath.Join(root, "shard")
	first, err := buildWith(t, shard, []string{in}, Shard{Index: 0, Count: 2}, testExtractor)
	require.NoError(t, err)
	_, err = buildWith(t, shard, []string{in}, Shard{}, testExtractor)
	assert.ErrorIs(t, err, ErrNotShard, "a whole corpus into a shard")

	again, err := buildWith(t, shard, []string{in}, Shard{Index: 0, Count: 2}, testExtractor)
	require.NoError(t, err)
	reused := 0
	for _, r := range again.Results {
		if r.Reused {
			reused++
		}
	}
	assert.Equal(t, first.Count(corpus.StatusOK), reused, "unchanged documents are not extracted again")

	other, err := buildWith(t, shard, []string{in}, Shard{Index: 1, Count: 2}, testExtractor)
	require.NoError(t, err)
	st, err := corpus.Open(shard)
	require.NoError(t, err)
	assert.Len(t, st.Manifest().Documents, len(other.Results), "the folder now holds shard 1/2 and nothing of 0/2")
}
