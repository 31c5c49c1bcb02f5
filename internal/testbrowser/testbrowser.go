package testbrowser

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// ChromiumPath finds a Chromium or Chrome binary: $CITECHECK_CHROMIUM,
// then the usual names on PATH.
func ChromiumPath() (string, bool) {
	for _, name := range []string{os.Getenv("CITECHECK_CHROMIUM"), "chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			return p, true
		}
	}
	return "", false
}

// Browser is a headless Chromium tab that records what the page writes to
// its console.
type Browser struct {
	Ctx     context.Context
	mu      sync.Mutex
	msgs    []chromedp.ConsoleMessage
	dialogs []string
}

// New starts Chromium for the test, or skips it when there is none; the
// browser ends with the test, after 90 s at the most.
func New(t *testing.T) *Browser {
	t.Helper()
	exe, ok := ChromiumPath()
	if !ok {
		t.Skip("no chromium binary found (chromium, chromium-browser, google-chrome, headless-shell on PATH, or $CITECHECK_CHROMIUM): the report's browser test needs one (apt-get install chromium)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox,
		chromedp.WindowSize(1400, 1000), chromedp.Flag("disable-gpu", true))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() {
		cancelTimeout()
		cancelCtx()
		cancelAlloc()
	})
	b := &Browser{Ctx: ctx}
	messages := chromedp.Console(ctx) // starts the browser and subscribes
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.msgs = append(b.msgs, m)
			b.mu.Unlock()
		}
	}()
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	go func() {
		// A dialog stops the page until answered: accept it, as a user
		// leaving the page would, and keep its type for Dialogs.
		for d, err := range dialogs {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.dialogs = append(b.dialogs, string(d.Type))
			b.mu.Unlock()
			_, _ = chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	}()
	return b
}

// Dialogs returns the types of the dialogs the pages opened so far
// ("beforeunload", "alert", ...), each accepted, and forgets them.
func (b *Browser) Dialogs() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	d := b.dialogs
	b.dialogs = nil
	return d
}

// Errors returns the console errors and exceptions so far, and forgets
// every message.
func (b *Browser) Errors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, m := range b.msgs {
		if m.Type == chromedp.ConsoleError || m.IsException() {
			out = append(out, fmt.Sprintf("%s (%s:%d)", m, m.URL, m.Line))
		}
	}
	b.msgs = nil
	return out
}

// NoErrors fails the test for each console error or exception so far.
func (b *Browser) NoErrors(t *testing.T, when string) {
	t.Helper()
	for _, e := range b.Errors() {
		t.Errorf("%s: console: %s", when, e)
	}
}

// Open loads a file, from about:blank so that a fragment is a new load,
// and waits until the page's script has set data-ready on the document.
func (b *Browser) Open(t *testing.T, path, frag string) time.Duration {
	t.Helper()
	u := (&url.URL{Scheme: "file", Path: path}).String()
	if frag != "" {
		u += "#" + frag
	}
	if err := chromedp.Do(b.Ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := chromedp.Do(b.Ctx, chromedp.Navigate(u)); err != nil {
		t.Fatalf("navigate %s: %v", u, err)
	}
	took := time.Since(start)
	if !b.Eval(t, `document.documentElement.getAttribute('data-ready') === '1'`) {
		t.Fatalf("%s: the report's script did not finish", u)
	}
	return took
}

// Eval runs a script that yields a boolean.
func (b *Browser) Eval(t *testing.T, js string) bool { return evaluate[bool](t, b, js) }

// EvalInt runs a script that yields a number, as an int.
func (b *Browser) EvalInt(t *testing.T, js string) int { return evaluate[int](t, b, js) }

// EvalFloat runs a script that yields a number.
func (b *Browser) EvalFloat(t *testing.T, js string) float64 { return evaluate[float64](t, b, js) }

// EvalString runs a script that yields a string.
func (b *Browser) EvalString(t *testing.T, js string) string { return evaluate[string](t, b, js) }

func evaluate[T any](t *testing.T, b *Browser, js string) T {
	t.Helper()
	v, err := chromedp.Run(b.Ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// Download runs the actions (a click that saves a file) and returns the
// file Chromium saved, in dir. A download the browser cancels, as a page's
// policy may, fails the test.
func (b *Browser) Download(t *testing.T, dir string, actions ...chromedp.Action[chromedp.Void]) []byte {
	t.Helper()
	progress := chromedp.Events(b.Ctx, cdpbrowser.DownloadProgress)
	yes := true
	allow := chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
			Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: &yes})
		return err
	})
	if err := chromedp.Do(b.Ctx, append([]chromedp.Action[chromedp.Void]{allow}, actions...)...); err != nil {
		t.Fatal(err)
	}
	// The subscription ends with Ctx, which ends after 90 s at the most:
	// a download that never completes fails the test there.
	for ev, err := range progress {
		if err != nil {
			t.Fatalf("waiting for the download: %v", err)
		}
		switch ev.State {
		case cdpbrowser.DownloadProgressStateCanceled:
			t.Fatal("the download was canceled: the page's CSP or the browser refused it")
		case cdpbrowser.DownloadProgressStateCompleted:
			data, err := os.ReadFile(filepath.Join(dir, ev.GUID))
			if err != nil {
				t.Fatal(err)
			}
			return data
		}
	}
	t.Fatal("no completed download")
	return nil
}
