package textnorm

import (
	"github.com/citecheck/citecheck/internal/shareddata"

	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
)

type normVectors struct {
	Whitespace []string `json:"python_whitespace_codepoints"`
	Cases      []struct {
		Input  string   `json:"input"`
		InputC []string `json:"input_codepoints"`
		NFC    string   `json:"NFC"`
		NFKC   string   `json:"NFKC"`
	} `json:"cases"`
}

func parseCP(t *testing.T, s string) rune {
	v, err := strconv.ParseUint(strings.TrimPrefix(s, "U+"), 16, 32)
	if err != nil {
		t.Fatalf("bad code point %q", s)
	}
	return rune(v)
}

// TestNormalizationVectors cross-checks the NFC step and the rules against
// the Python/unicodedata vectors in ../shared/vectors/normalization.json.
func TestNormalizationVectors(t *testing.T) {
	path := shareddata.Path(t, "vectors/normalization.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("%s absent: %v", path, err)
	}
	var v normVectors
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(v.Cases) == 0 {
		t.Fatalf("%s: no cases", path)
	}
	canon := quote.Limit(Canonical)
	for _, c := range v.Cases {
		// The stored string and its code point list agree.
		var sb strings.Builder
		for _, cp := range c.InputC {
			sb.WriteRune(parseCP(t, cp))
		}
		if sb.String() != c.Input {
			t.Fatalf("vector %q: code points disagree", c.Input)
		}
		// NFC step equals Python's unicodedata NFC.
		if got := canon.Normalize(c.Input).String(); got != c.NFC {
			t.Errorf("NFC(%q) = %q, Python %q", c.Input, got, c.NFC)
		}
		// The full profile is NFC plus the listed rules: where none of
		// them applies it is NFC exactly, so it never takes an NFKC-only
		// fold ("ＡＢＣ", "x²", "½", "①", "℃" stay).
		full := quote.Normalize(c.Input).String()
		touched := false
		for _, r := range c.NFC {
			if (isSpace(r) && r != ' ') || typoFold(r) != 0 || ligatures[r] != "" || r == 0x2026 ||
				r == 0xad || r == 0x200b || r == 0x200c || r == 0x200d || r == 0x2060 || r == 0xfeff {
				touched = true
			}
		}
		if !touched && full != strings.TrimSpace(c.NFC) {
			t.Errorf("%q: full profile %q, want its NFC %q", c.Input, full, c.NFC)
		}
		if !touched && c.NFKC != c.NFC && full == c.NFKC {
			t.Errorf("%q: full profile applied NFKC (%q)", c.Input, full)
		}
		checkInvariants(t, quote, c.Input, quote.Normalize(c.Input))
	}
	// Python's whitespace is Unicode White_Space plus U+001C..U+001F.
	py := map[rune]bool{}
	for _, s := range v.Whitespace {
		py[parseCP(t, s)] = true
	}
	for r := rune(0); r < 0x3001; r++ {
		want := py[r] && !(r >= 0x1c && r <= 0x1f)
		if isSpace(r) != want {
			t.Errorf("isSpace(%U) = %v, Python-minus-separators says %v", r, isSpace(r), want)
		}
	}
}
