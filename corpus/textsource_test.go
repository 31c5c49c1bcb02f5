package corpus

import (
	"bytes"
	"errors"
	"slices"
	"testing"
)

func TestManifestTextSources(t *testing.T) {
	// An empty limits map round-trips through encoding, decoding and
	// validation, and stays equal to TextExtractorID's.
	m := &Manifest{Format: Format, Extractor: TextExtractorID(), Documents: []Document{{
		Name: "a.pdf", Source: "text:../pages/a.pdf", Bytes: 1, BLAKE3: TextHash([]string{"a"}), Status: StatusOK, PageCount: 1,
		Pages: []Page{{Page: 1, BLAKE3: Hash([]byte("a")), Chars: 1}},
	}}}
	b, err := encodeManifest(m)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeManifest(b, "manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	if !got.Extractor.Equal(TextExtractorID()) || got.Extractor.Limits == nil {
		t.Errorf("extractor after a round trip: %+v", got.Extractor)
	}
	if b2, _ := encodeManifest(got); !bytes.Equal(b, b2) {
		t.Errorf("re-encoding changed the manifest:\n%s\n%s", b, b2)
	}
	if folder, ok := TextSource(got.Documents[0].Source); !ok || folder != "../pages/a.pdf" {
		t.Errorf("TextSource: %q %v", folder, ok)
	}

	// Sources that do not match the extractor are refused.
	mixed := *m
	mixed.Documents = slices.Clone(m.Documents)
	mixed.Documents[0].Source = "../pdfs/a.pdf"
	b, _ = encodeManifest(&mixed)
	if _, err := decodeManifest(b, "manifest.json"); !errors.Is(err, ErrMixedCorpus) {
		t.Errorf("a PDF source in a text corpus: %v", err)
	}
	mixed.Extractor = ExtractorID{Name: "test", Version: "1"}
	mixed.Documents[0].Source = "text:../pages/a.pdf"
	b, _ = encodeManifest(&mixed)
	if _, err := decodeManifest(b, "manifest.json"); !errors.Is(err, ErrMixedCorpus) {
		t.Errorf("a text source in a PDF corpus: %v", err)
	}
}
