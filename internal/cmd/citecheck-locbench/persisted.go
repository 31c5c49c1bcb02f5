package main

import (
	"encoding/gob"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/citecheck/citecheck/citations"
	"github.com/citecheck/citecheck/corpus"
)

// gobQuote is a quote as the parent hands it to the child.
type gobQuote struct {
	Kind  kind
	Q     citations.Query
	Pages []int
}

// persist writes the index to path and the quotes beside it
// (path.quotes), for locateOpened, and prints the file's size and the time
// the writing took.
func persist(stdout io.Writer, ix *citations.Index, qs []quote, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	t0 := time.Now()
	if _, err := citations.WriteIndex(f, ix, [32]byte{}); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	wrote := time.Since(t0)
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "index file: %.1f MB written in %.2fs\n", float64(fi.Size())/1e6, wrote.Seconds())
	return writeQuotes(qs, path)
}

// writeQuotes writes the quotes beside the index file at path
// (path.quotes), for locateOpened.
func writeQuotes(qs []quote, path string) error {
	gq := make([]gobQuote, len(qs))
	for i, q := range qs {
		gq[i] = gobQuote{q.kind, q.q, q.pages}
	}
	qf, err := os.Create(path + ".quotes")
	if err != nil {
		return err
	}
	if err := gob.NewEncoder(qf).Encode(gq); err != nil {
		qf.Close()
		return err
	}
	return qf.Close()
}

// locateOpened runs this program again on the files persist wrote at path
// (runOpened), so that the child's memory is the opened index's alone; the
// quotes file goes afterwards.
func locateOpened(stdout io.Writer, path string, workers int, childArgs []string) error {
	defer os.Remove(path + ".quotes")
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(self, append([]string{"--open", path, "--workers", fmt.Sprint(workers)}, childArgs...)...)
	cmd.Stdout, cmd.Stderr = stdout, os.Stderr
	return cmd.Run()
}

// runOpened maps the index file, opens it, locates the quotes and reports.
func runOpened(stdout io.Writer, path string, workers int) error {
	var gq []gobQuote
	qf, err := os.Open(path + ".quotes")
	if err != nil {
		return err
	}
	err = gob.NewDecoder(qf).Decode(&gq)
	qf.Close()
	if err != nil {
		return err
	}
	qs := make([]quote, len(gq))
	for i, q := range gq {
		qs[i] = quote{q.Kind, q.Q, q.Pages}
	}
	gq = nil
	runtime.GC()
	debug.FreeOSMemory()
	base := vmStatus("VmRSS")
	t0 := time.Now()
	b, err := citations.MapFile(path)
	if err != nil {
		return err
	}
	// The verbs take the digest from the manifest; here the file gives it.
	blocks, err := citations.IndexBlocks(b)
	if err != nil {
		return err
	}
	ix, err := citations.OpenIndex(b, [32]byte{}, blocks)
	if err != nil {
		return err
	}
	opened := time.Since(t0)
	t1 := time.Now()
	first := ix.Locate(qs[0].q)
	firstQ := time.Since(t1)
	_ = first
	fmt.Fprintf(stdout, "opened (mapped, structure and tables checked, other blocks verified as read): %.1f ms; first quote located %.1f ms later; resident then %s (%s before opening)\n",
		ms(opened), ms(firstQ), vmStatus("VmRSS"), base)
	results := timeLocate(stdout, "locate from the opened index", ix, qs, workers)
	if err := ix.Err(); err != nil {
		return err
	}
	var mem runtime.MemStats
	runtime.ReadMemStats(&mem)
	fmt.Fprintf(stdout, "opened index process: peak memory (VmHWM) %s, resident now (VmRSS) %s: %s of the mapped file (RssFile), %s of heap and stacks (RssAnon; Go heap in use %.0f MiB, the %d results included)\n",
		vmHWM(), vmStatus("VmRSS"), vmStatus("RssFile"), vmStatus("RssAnon"), float64(mem.HeapAlloc)/(1<<20), len(qs))
	runtime.KeepAlive(results) // counted above, collected below
	runtime.GC()
	debug.FreeOSMemory()
	runtime.ReadMemStats(&mem)
	fmt.Fprintf(stdout, "without the quotes' results: resident %s, of which heap and stacks %s (Go heap in use %.0f MiB, the index's kept pages included)\n",
		vmStatus("VmRSS"), vmStatus("RssAnon"), float64(mem.HeapAlloc)/(1<<20))
	runtime.KeepAlive(ix)
	t0 = time.Now()
	corpus.Hash(b)
	fmt.Fprintf(stdout, "hashing the whole file, as freeze --verify does: %.1f ms (the file now in the page cache and mapped)\n", ms(time.Since(t0)))
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// vmStatus reads one memory figure of /proc/self/status.
func vmStatus(key string) string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unavailable"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			var kb int64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), &kb)
			return fmt.Sprintf("%.0f MiB", float64(kb)/1024)
		}
	}
	return "unavailable"
}

// perCPU reports the CPU time n quotes took and the quotes per CPU second:
// on a machine other processes keep busy, the wall time says how much of
// the cores this process got, the CPU time what the locating costs.
func perCPU(n int, cpu time.Duration) string {
	if cpu <= 0 {
		return ""
	}
	return fmt.Sprintf("; %.2f s CPU, %.0f quotes per CPU second", cpu.Seconds(), float64(n)/cpu.Seconds())
}
