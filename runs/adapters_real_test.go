package runs_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/citecheck/citecheck/audit"
	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/corpus"
	"github.com/citecheck/citecheck/internal/testcorpus"
	"github.com/citecheck/citecheck/runs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Published vendor payloads (testdata/adapters/<format>-<source>.jsonl,
// their sources in testdata/adapters/README.md) and the documents they
// cite (testdata/adapters/corpus: each a one-page document holding the
// text the payload quotes).

var (
	realOnce sync.Once
	realIx   *citations.Index
)

// realIndex indexes the demo corpus and the real payloads' documents.
func realIndex(t testing.TB) *citations.Index {
	t.Helper()
	realOnce.Do(func() {
		srcs := append(testcorpus.DemoDocuments(), testcorpus.PayloadDocuments(t, filepath.Join("testdata", "adapters"))...)
		m, err := corpus.NewMemory(srcs...)
		if err != nil {
			panic(err)
		}
		ix, err := citations.Build(m, citations.Options{})
		if err != nil {
			panic(err)
		}
		realIx = ix
	})
	return realIx
}

// realPayloads lists the real payload files with the format each is read
// in (the name before the first "-").
func realPayloads(t testing.TB) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "adapters", "*-*.jsonl"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	out := map[string]string{}
	for _, f := range files {
		format, _, _ := strings.Cut(filepath.Base(f), "-")
		require.Contains(t, runs.Formats, format, "%s: a real payload file is named <format>-<source>.jsonl", f)
		out[f] = format
	}
	return out
}

// checkRunsGolden compares the run records read from a testdata file with
// its golden <name>.want.json, or rewrites it with -update.
func checkRunsGolden(t *testing.T, path string, recs []runs.Record) {
	t.Helper()
	got, err := json.MarshalIndent(recs, "", "  ")
	require.NoError(t, err)
	got = append(got, '\n')
	golden := strings.TrimSuffix(path, ".jsonl") + ".want.json"
	if *update {
		require.NoError(t, os.WriteFile(golden, got, 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "run go test -update")
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the adapter's output (run go test -update to accept):\n%s", golden, got)
	}
}

// TestRealPayloads reads every published payload with its format's
// adapter, checks the run records against the goldens, and audits them
// against the documents they cite: no correct citation is called
// fabricated and none is lost.
func TestRealPayloads(t *testing.T) {
	want := map[string]struct {
		groundings []citations.Grounding
		why        string
	}{
		"anthropic-prism.jsonl": {[]citations.Grounding{citations.GroundedUnique, citations.GroundedUnique, citations.GroundedUnique, citations.GroundedUnique, citations.GroundedUnique},
			"page_location, char_location and content_block_location quotes of prism's fixtures are in the documents"},
		"anthropic-vercel-web.jsonl": {[]citations.Grounding{citations.GroundedExternal, citations.GroundedExternal, citations.GroundedExternal},
			"web_search_result_location cites web pages: kept, external_source"},
		"openai-vercel.jsonl": {[]citations.Grounding{citations.GroundedUnique, citations.GroundedExternal, citations.GroundedExternal, citations.GroundedExternal, citations.GroundedExternal, citations.GroundedExternal},
			"the file_search_call result is the file_citation's quote; url_citation cites web pages"},
		"gemini-prism-filesearch.jsonl": {[]citations.Grounding{citations.GroundedUnique},
			"the File Search chunk's page marker is not part of the quote"},
		"gemini-vertex-rag.jsonl": {[]citations.Grounding{citations.GroundedUnique, citations.GroundedUnique},
			"snake_case keys (the Python SDK's) are read: the two chunks the supports name"},
		"gemini-langchain-google-web.jsonl": {[]citations.Grounding{citations.GroundedExternal},
			"a snake_case web chunk is an external source"},
		"langchain-qa-citations.jsonl": {[]citations.Grounding{citations.GroundedUnique, citations.GroundedUnique, citations.GroundedUnique},
			"CitedAnswer, QuotedAnswer and the XML parser's cited_answer"},
		"llamaindex-citation-query-engine.jsonl": {[]citations.Grounding{citations.GroundedUnique, citations.GroundedUnique},
			"[1] and [2] cite the two source nodes, their \"Source N:\" prefix left out"},
		"lmstudio-js-citationblock.jsonl": {[]citations.Grounding{citations.GroundedUnique, citations.GroundedUnique},
			"citationBlock.create blocks, pageNumber a number or a [start, end] pair"},
	}
	ix := realIndex(t)
	seen := map[string]bool{}
	for path, format := range realPayloads(t) {
		name := filepath.Base(path)
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			recs, err := runs.ReadRuns(bytes.NewReader(data), path, format)
			require.NoError(t, err)
			checkRunsGolden(t, path, recs)
			// --format auto reads the file as its format does.
			auto, err := runs.ReadRuns(bytes.NewReader(data), path, runs.FormatAuto)
			require.NoError(t, err)
			assert.Equal(t, recs, auto, "--format auto")
			w, ok := want[name]
			require.True(t, ok, "no expectation for %s", name)
			var got []citations.Grounding
			for _, e := range audit.Run(ix, recs, 0, nil).Entries {
				got = append(got, e.Grounding)
				t.Logf("%s %s: %s %s", e.Question, e.Citation.ID, e.Grounding, e.Detail)
			}
			assert.Equal(t, w.groundings, got, w.why)
			for _, r := range recs {
				assert.Empty(t, r.Unread, "line %d: nothing is left unread", r.Line)
			}
		})
	}
	for name := range want {
		assert.True(t, seen[name], "%s: no such payload", name)
	}
}
