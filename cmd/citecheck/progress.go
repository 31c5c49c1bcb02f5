package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progressEvery is how often a progress line goes to a stderr that is not
// a terminal (a CI log); the first goes after as long, so that a shorter
// run prints none.
const progressEvery = 10 * time.Second

// progress shows a long verb's advance on stderr: a bar when stderr is a
// terminal; when it is another file (a CI log, a redirect), a line such as
// "citecheck: extract: 120/249 documents" at most every progressEvery;
// nothing when stderr is no file (in-process callers: tests, the demo).
// Its methods may be called from any goroutine.
type progress struct {
	bar *progressbar.ProgressBar // terminal

	// Line mode.
	mu         sync.Mutex
	w          io.Writer
	verb, unit string
	total      int // < 0: unknown
	done       int
	now        func() time.Time
	last       time.Time // when the last line was written, or the start
	stop, gone chan struct{}
}

// startProgress starts showing progress of verb over total units (total
// < 0 when unknown: then the count alone is shown); unit names them
// ("documents", "records graded"). Call finish when the work ends.
func startProgress(stderr io.Writer, verb, unit string, total int) *progress {
	f, ok := stderr.(*os.File)
	switch {
	case !ok:
		return &progress{}
	case term.IsTerminal(int(f.Fd())):
		return &progress{bar: progressbar.NewOptions(total,
			progressbar.OptionSetWriter(stderr),
			progressbar.OptionShowCount(),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish())}
	}
	p := newLineProgress(stderr, verb, unit, total, time.Now)
	p.stop, p.gone = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(p.gone)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				p.tick()
			case <-p.stop:
				return
			}
		}
	}()
	return p
}

// newLineProgress returns a progress in line mode writing to w, its time
// read from now; nothing drives its tick (startProgress does, every second).
func newLineProgress(w io.Writer, verb, unit string, total int, now func() time.Time) *progress {
	return &progress{w: w, verb: verb, unit: unit, total: total, now: now, last: now()}
}

// add counts one more unit done; label names it on the bar.
func (p *progress) add(label string) {
	if p.bar != nil {
		p.bar.Describe(label)
		p.bar.Add(1)
		return
	}
	p.mu.Lock()
	p.done++
	p.mu.Unlock()
}

// set records n units done.
func (p *progress) set(n int) {
	if p.bar != nil {
		p.bar.Set(n)
		return
	}
	p.mu.Lock()
	p.done = n
	p.mu.Unlock()
}

// tick writes a progress line when progressEvery has passed since the
// last one (or the start).
func (p *progress) tick() {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if now.Sub(p.last) < progressEvery {
		return
	}
	p.last = now
	if p.total >= 0 {
		fmt.Fprintf(p.w, "citecheck: %s: %d/%d %s\n", p.verb, p.done, p.total, p.unit)
	} else {
		fmt.Fprintf(p.w, "citecheck: %s: %d %s\n", p.verb, p.done, p.unit)
	}
}

// finish ends the display: the bar is cleared, the line ticker stopped;
// nothing more is written.
func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
	if p.stop != nil {
		close(p.stop)
		<-p.gone
		p.stop = nil
	}
}
