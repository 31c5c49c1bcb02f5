package main

import (
	"context"
	"os"
	"os/signal"
	"runtime"
	"time"

	"github.com/citecheck/citecheck/corpus/ingest"
)

const mergeAbout = `
Make the corpus folder CORPUS from the stores of a sharded extraction
("citecheck extract --shard K/N", one folder per shard): the same bytes one
"citecheck extract" of all the PDFs into CORPUS would have written. Every
stored file is checked against its shard's manifest as it is copied. The
PDFs' paths in the manifest are made relative to CORPUS from where the
shards saw them: shard folders may have moved since (from a node's scratch
disk to shared storage), the PDFs not (mount them at one path everywhere).
Documents already in CORPUS and not among the shards' inputs stay, as with
extract. See docs/sharding.md for Slurm and Kubernetes.

Refused with exit status 2, naming the shard, and nothing written: shards
extracted by another extractor version or with other limits, split another
number of ways, or from other PDFs; a shard missing or given twice; a
document missing from its shard or held by another; a folder that is not
a shard (no shard.json: docs/formats.md#shard-manifest); an --out that is a
shard or not a corpus folder.

Prints the summary table extract prints.

Example:
  citecheck merge --out corpus shards/0 shards/1 shards/2 shards/3

Exit status: 0 merged, every document ok; 1 merged, some document did not
extract (each is listed with its class); 2 bad usage or shards refused, as
above; 3 a shard's stored file does not match its manifest.`

func runMerge(e *env, args []string) error {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet(stderr, "merge", "merge --out CORPUS [--jobs N] [--json] SHARD...", mergeAbout)
	out := fs.String("out", "", "corpus `folder` to create or update (required)")
	jobs := fs.Int("jobs", 0, "documents to copy in parallel; 0, the default: one per core")
	asJSON := fs.Bool("json", false, "print the per-document results as JSON instead of tables")
	shards, err := parseFlags(fs, stdout, args)
	if err != nil {
		return err
	}
	if *out == "" {
		return usageErrorf("merge: --out CORPUS is required")
	}
	if len(shards) == 0 {
		return usageErrorf("merge: no shard folders given")
	}
	if *jobs < 0 {
		return usageErrorf("merge: --jobs cannot be negative")
	}
	if *jobs == 0 {
		*jobs = runtime.NumCPU()
	}
	if err := checkOutCorpus("merge", *out); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	report, err := ingest.Merge(ctx, *out, shards, ingest.MergeOptions{Jobs: *jobs})
	if err != nil {
		return buildError("merge", err)
	}
	if err := storeIndex("merge", *out); err != nil {
		return err
	}
	return finishBuild(stdout, report, *asJSON, time.Since(start))
}
