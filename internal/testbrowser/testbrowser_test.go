package testbrowser

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// helpersPage is a small page that does what the report's pages do for the
// helpers: sets data-ready when its script is done, logs an error on
// request, asks before it is left, and saves a file from a Blob URL.
const helpersPage = `<!doctype html><html><head><meta charset="utf-8"><title>t</title></head><body>
<button id="err" onclick="console.error('boom')">err</button>
<button id="ask" onclick="window.asking = true">ask</button>
<button id="save">save</button>
<script>document.getElementById('save').addEventListener('click', function () {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob(['saved'], { type: 'text/plain' }));
  a.download = 'x.txt';
  document.body.appendChild(a);
  a.click();
  a.remove();
});
// Set at load, as the review page does: Chromium learns of a beforeunload
// listener by a message of its own, which a listener added by the click
// could still be sending when the test navigates away.
window.addEventListener('beforeunload', e => { if (window.asking) e.preventDefault(); });
document.documentElement.setAttribute('data-ready', '1'); window.n = 2.5</script>
</body></html>`

// TestBrowserHelpers: Open waits for the page's script, Eval reads its
// values, Errors sees a console error, Dialogs answers and
// records a beforeunload dialog (else the next Open would hang), and
// Download returns the saved file's bytes.
func TestBrowserHelpers(t *testing.T) {
	b := New(t)
	path := filepath.Join(t.TempDir(), "page.html")
	require.NoError(t, os.WriteFile(path, []byte(helpersPage), 0o644))
	b.Open(t, path, "")
	assert.True(t, b.Eval(t, `document.title === 't'`))
	assert.Equal(t, 2.5, b.EvalFloat(t, `window.n`))
	assert.Equal(t, "t", b.EvalString(t, `document.title`))
	assert.Empty(t, b.Errors(), "a clean load")
	data := b.Download(t, t.TempDir(), chromedp.Click(chromedp.CSS("#save")))
	assert.Equal(t, "saved", string(data))

	assert.Empty(t, b.Dialogs())
	require.NoError(t, chromedp.Do(b.Ctx, chromedp.Click(chromedp.CSS("#ask"))))
	// Chromium asks only when the listener is set and the page has had a
	// user gesture; say which of the two is missing if it does not ask.
	waitFor(t, b, `window.asking === true`, "the click on #ask ran its handler")
	require.True(t, b.Eval(t, `navigator.userActivation.hasBeenActive`), "the click counts as a user gesture")
	b.Open(t, path, "")
	assert.Equal(t, []string{"beforeunload"}, b.Dialogs(), "the dialog answered and recorded")
	assert.Empty(t, b.Dialogs(), "Dialogs forgets what it returned")

	b.NoErrors(t, "the helpers' page")

	// A console error is seen; it arrives after the click returns.
	require.NoError(t, chromedp.Do(b.Ctx, chromedp.Click(chromedp.CSS("#err"))))
	var errs []string
	for deadline := time.Now().Add(5 * time.Second); len(errs) == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		errs = b.Errors()
	}
	if assert.NotEmpty(t, errs, "the console error") {
		assert.Contains(t, errs[0], "boom")
	}
}

// waitFor polls a script until it yields true, for 5 s at the most: what
// a click starts may finish after the click returns.
func waitFor(t *testing.T, b *Browser, js, what string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !b.Eval(t, js); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: %s still false after 5 s", what, js)
		}
	}
}
