package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestShowOrder: show --order prints a page in one of its reading orders;
// --ruler gives each line's offset in the page text, which is what locate
// reports.
func TestShowOrder(t *testing.T) {
	in := writeDemoPDFs(t)
	c := filepath.Join(t.TempDir(), "corpus")
	if out, errOut, code := runCLI(t, "extract", "--out", c, "--jobs", "2", in); code != 0 {
		t.Fatalf("extract: exit %d\n%s%s", code, out, errOut)
	}
	out, _, code := runCLI(t, "show", "--corpus", c, "--order", "layout", "inspection-manual.pdf", "2")
	want := "Rejected parts are tagged red and moved to quarantine within 4 hours.\nThe quarantine area is inspected daily.\n\ninspection-manual.pdf Page 2\n\nSideways note: retain for audit."
	if code != 0 || out != want {
		t.Errorf("show --order layout: exit %d\n%q\nwant\n%q", code, out, want)
	}
	checkGolden(t, "show-order-ruler.txt", []byte(mustRun(t, "show", "--corpus", c, "--order", "layout", "--ruler", "inspection-manual.pdf", "2")))
	out = mustRun(t, "show", "--corpus", c, "--order", "layout", "--json", "inspection-manual.pdf", "2")
	if !strings.Contains(out, `"order_text": "Rejected parts`) || !strings.Contains(out, `"order_map": [`) {
		t.Errorf("show --order --json: %s", out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"show", "--corpus", c, "--order", "layout", "inspection-manual.pdf"}, "--order needs a PAGE"},
		{[]string{"show", "--corpus", c, "--order", "layout", "supplier-policy.pdf", "1"}, "has no reading order \"layout\": it has none"},
		{[]string{"show", "--corpus", c, "--order", "columns", "inspection-manual.pdf", "2"}, "has no reading order \"columns\"; it has boxes, layout"},
	} {
		_, errOut, code := runCLI(t, tc.args...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 mentioning %q", tc.args, code, errOut, tc.want)
		}
	}
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("%q: exit %d: %s", args, code, errOut)
	}
	return out
}
