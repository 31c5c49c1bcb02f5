package ingest_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"

	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/corpus/ingest"
)

// TestShardManifestSchema: docs/schema/corpus-shard.schema.json accepts
// the shard manifests Build writes, and refuses one with a key citecheck
// does not know.
func TestShardManifestSchema(t *testing.T) {
	schema, err := jsonschema.NewCompiler().Compile(filepath.Join("..", "..", "docs", "schema", "corpus-shard.schema.json"))
	require.NoError(t, err)

	in := t.TempDir()
	for _, f := range []string{"a.pdf", "b.pdf", "c.pdf"} {
		require.NoError(t, os.WriteFile(filepath.Join(in, f), []byte("content of "+f), 0o644))
	}
	files, err := ingest.Inputs([]string{in})
	require.NoError(t, err)
	ext := corpus.ExtractorID{Name: "fake", Version: "1", Limits: map[string]int64{"timeout_ms": 1000}}
	extract := func(context.Context, string, []byte) corpus.Extraction {
		return corpus.Extraction{Status: corpus.StatusOK, Pages: []corpus.PageText{{Text: "page"}}}
	}
	for k := range 2 {
		out := filepath.Join(t.TempDir(), "shard")
		_, err := ingest.Build(context.Background(), out, files, ingest.BuildOptions{Extractor: ext, Extract: extract, Shard: ingest.Shard{Index: k, Count: 2}})
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(out, ingest.ShardFile))
		require.NoError(t, err)
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		require.NoError(t, err)
		require.NoError(t, schema.Validate(inst), "shard %d/2:\n%s", k, b)

		extra := bytes.Replace(b, []byte(`"format"`), []byte(`"extra": 1, "format"`), 1)
		inst, err = jsonschema.UnmarshalJSON(bytes.NewReader(extra))
		require.NoError(t, err)
		require.Error(t, schema.Validate(inst), "an unknown key")
	}
}
