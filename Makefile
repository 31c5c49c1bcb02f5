# citecheck: the two commands of the README are "make demo" and "make test".
GO      ?= go
CORPUS  ?= ../shared/pdf-corpus
FILINGS ?= ../shared/pdf-corpus-filings
GRADING ?= ../shared/grading
JOBS    ?= 2
BENCHTMP ?= $(or $(TMPDIR),/tmp)/citecheck-bench

.PHONY: all build demo test race lint fuzz-smoke bench bench-filings bench-fidelity reftools screenshot clean

all: build

build:
	$(GO) build -o bin/citecheck ./cmd/citecheck
	$(GO) build -o bin/citecheck-bench ./internal/cmd/citecheck-bench
	$(GO) build -o bin/citecheck-locbench ./internal/cmd/citecheck-locbench

# The whole pipeline on the fixture PDFs the program generates; its files,
# the report among them, are kept in bin/demo.
demo:
	$(GO) run ./cmd/citecheck demo --out bin/demo

# docs/report.png, the README's picture of the demo's report, taken by
# headless Chromium (Debian's chromium, or CHROMIUM=...).
CHROMIUM ?= chromium
screenshot: demo
	$(CHROMIUM) --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1000 \
		--screenshot=docs/report.png file://$(CURDIR)/bin/demo/report/report.html 2>/dev/null

# Every test, the corpus sweeps included (they skip, saying so, when
# ../shared is absent), after the lint checks. TESTFLAGS adds go test flags
# (.ci/run passes -json to read which tests skipped). The timeout is past go
# test's 10 minutes for the fidelity ratchet's first run, which extracts the
# corpus with six reference tools (some 12 minutes on 2 busy cores; later
# runs read their texts from the cache).
test: lint
	$(GO) test -count=1 -timeout 45m $(TESTFLAGS) ./...

# Every package under the race detector (.ci/run runs it after make test).
# -short leaves out the corpus sweeps: they run no concurrency the other
# tests do not, and under the race detector they would add some six
# minutes on 2 cores.
race:
	$(GO) test -race -short -count=1 -timeout 30m $(TESTFLAGS) ./...

lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...

# Each fuzz target for a short while: a smoke test, not a campaign. Every
# func Fuzz of the module has its line (TestFuzzSmokeRunsEveryTarget).
FUZZTIME ?= 15s
fuzz-smoke:
	$(GO) test -run=NONE -fuzz='^FuzzExtract$$' -fuzztime=$(FUZZTIME) ./pdftext/
	$(GO) test -run=NONE -fuzz='^FuzzParse$$' -fuzztime=$(FUZZTIME) ./pdftext/internal/cmap/
	$(GO) test -run=NONE -fuzz='^FuzzDecodeBoxes$$' -fuzztime=$(FUZZTIME) ./corpus/
	$(GO) test -run=NONE -fuzz='^FuzzBoxLineFast$$' -fuzztime=$(FUZZTIME) ./corpus/
	$(GO) test -run=NONE -fuzz='^FuzzDecodeManifest$$' -fuzztime=$(FUZZTIME) -fuzzminimizetime=3s ./corpus/
	$(GO) test -run=NONE -fuzz='^FuzzDecodeOrders$$' -fuzztime=$(FUZZTIME) -fuzzminimizetime=3s ./corpus/
	$(GO) test -run=NONE -fuzz='^FuzzFontPrograms$$' -fuzztime=$(FUZZTIME) ./pdftext/internal/fontfile/
	$(GO) test -run=NONE -fuzz='^FuzzMendObjects$$' -fuzztime=$(FUZZTIME) ./pdftext/
	$(GO) test -run=NONE -fuzz='^FuzzDecodeResponse$$' -fuzztime=$(FUZZTIME) ./pdftext/
	$(GO) test -run=NONE -fuzz='^FuzzReadResults$$' -fuzztime=$(FUZZTIME) -fuzzminimizetime=3s ./metrics/
	$(GO) test -run=NONE -fuzz='^FuzzResultRoundTrip$$' -fuzztime=$(FUZZTIME) -fuzzminimizetime=3s ./grade/
	$(GO) test -run=NONE -fuzz='^FuzzResultsApart$$' -fuzztime=$(FUZZTIME) -fuzzminimizetime=3s ./grade/
	$(GO) test -run=NONE -fuzz='^FuzzAlign$$' -fuzztime=$(FUZZTIME) ./textnorm/
	$(GO) test -run=NONE -fuzz='^FuzzScoreAnswer$$' -fuzztime=$(FUZZTIME) ./typedqa/
	$(GO) test -run=NONE -fuzz='^FuzzDecodeTextString$$' -fuzztime=$(FUZZTIME) ./pdftext/internal/fontenc/
	$(GO) test -run=NONE -fuzz='^FuzzNormalize$$' -fuzztime=$(FUZZTIME) ./textnorm/
	$(GO) test -run=NONE -fuzz='^FuzzNormalizeValue$$' -fuzztime=$(FUZZTIME) -fuzzminimizetime=3s ./textnorm/
	$(GO) test -run=NONE -fuzz='^FuzzParseResponse$$' -fuzztime=$(FUZZTIME) -fuzzminimizetime=3s ./grade/
	$(GO) test -run=NONE -fuzz='^FuzzOrders$$' -fuzztime=$(FUZZTIME) ./layout/
	$(GO) test -run=NONE -fuzz='^FuzzLocate$$' -fuzztime=$(FUZZTIME) -fuzzminimizetime=3s ./citations/
	$(GO) test -run=NONE -fuzz='^FuzzReadRuns$$' -fuzztime=$(FUZZTIME) -fuzzminimizetime=3s ./runs/
	$(GO) test -run=NONE -fuzz='^FuzzRecordsApart$$' -fuzztime=$(FUZZTIME) -fuzzminimizetime=3s ./runs/
	$(GO) test -run=NONE -fuzz='^FuzzReadLocateRequests$$' -fuzztime=$(FUZZTIME) -fuzzminimizetime=3s ./citations/
	$(GO) test -run=NONE -fuzz='^FuzzLocateRequestsApart$$' -fuzztime=$(FUZZTIME) -fuzzminimizetime=3s ./citations/
	$(GO) test -run=NONE -fuzz='^FuzzOpenIndex$$' -fuzztime=$(FUZZTIME) -fuzzminimizetime=3s ./citations/
	$(GO) test -run=NONE -fuzz='^FuzzReadResponses$$' -fuzztime=$(FUZZTIME) ./typedqa/
	$(GO) test -run=NONE -fuzz='^FuzzReadTruth$$' -fuzztime=$(FUZZTIME) ./typedqa/
	$(GO) test -run=NONE -fuzz='^FuzzReadDecisions$$' -fuzztime=$(FUZZTIME) -fuzzminimizetime=3s ./review/
	$(GO) test -run=NONE -fuzz='^FuzzReadConfig$$' -fuzztime=$(FUZZTIME) -fuzzminimizetime=3s ./typedqa/
	$(GO) test -run=NONE -fuzz='^FuzzParse$$' -fuzztime=$(FUZZTIME) ./internal/strictjson/
	$(GO) test -run=NONE -fuzz='^FuzzBuild$$' -fuzztime=$(FUZZTIME) ./internal/sais/
	$(GO) test -run=NONE -fuzz='^FuzzDecodeReference$$' -fuzztime=$(FUZZTIME) ./spans/
	$(GO) test -run=NONE -fuzz='^FuzzDecodePlan$$' -fuzztime=$(FUZZTIME) ./plan/
	$(GO) test -run=NONE -fuzz='^FuzzParseLock$$' -fuzztime=$(FUZZTIME) ./freeze/

# Speed and memory, measured against the reference tools where installed.
bench: build
	$(GO) test -run=NONE -bench=. -benchmem ./pdftext/... ./textnorm/ ./typedqa/ ./citations/ ./corpus/ ./grade/ ./metrics/ ./report/
	bin/citecheck-bench extract --citecheck bin/citecheck --corpus $(CORPUS) --jobs $(JOBS)
	bin/citecheck-bench grade --citecheck bin/citecheck --grading $(GRADING) --attempts 10000,100000
	rm -rf $(BENCHTMP) && bin/citecheck extract --out $(BENCHTMP) --jobs $(JOBS) $(CORPUS) > /dev/null || true
	bin/citecheck-bench spacing --corpus-store $(BENCHTMP)
	bin/citecheck-bench locate --citecheck bin/citecheck --store $(BENCHTMP)
	bin/citecheck-locbench --store $(BENCHTMP)
	bin/citecheck-locbench --store $(BENCHTMP) --scale 10
	$(MAKE) --no-print-directory bench-filings

# The long SEC filings (docs/benchmarks.md): extraction beside pdftotext,
# the store's size, the quote index's build (time, peak memory) and
# lookups at scale 1 and 10 (20,000 quotes; a changed quote, found
# nowhere, is looked up in every shard, so its cost grows with the corpus).
bench-filings: build
	bin/citecheck-bench extract --citecheck bin/citecheck --corpus $(FILINGS) --jobs $(JOBS) --runs 5 --target 1.2
	rm -rf $(BENCHTMP)-filings && /usr/bin/time -f "extract of $(FILINGS): %e s wall, %U s user, %S s system, %M KB peak resident memory" \
		bin/citecheck extract --out $(BENCHTMP)-filings --jobs $(JOBS) $(FILINGS) > /dev/null || true
	bin/citecheck-bench store --store $(BENCHTMP)-filings
	bin/citecheck-locbench --store $(BENCHTMP)-filings --quotes 20000 --build-file $(BENCHTMP)-filings.idx
	rm -f $(BENCHTMP)-filings.idx
	bin/citecheck-locbench --store $(BENCHTMP)-filings --quotes 20000
	bin/citecheck-locbench --store $(BENCHTMP)-filings --quotes 20000 --scale 10

# Extraction fidelity: windows of each installed reference extractor's page
# text looked up in ours (package internal/fidelity). Reference texts are
# cached under $$XDG_CACHE_HOME/citecheck/reftext; the first run takes minutes.
bench-fidelity: build
	rm -rf $(BENCHTMP) && bin/citecheck extract --out $(BENCHTMP) --jobs $(JOBS) $(CORPUS) > /dev/null || true
	bin/citecheck-bench fidelity --corpus-store $(BENCHTMP) --jobs $(JOBS) --locate

# The reference extractors the fidelity ratchet and benchmark compare with,
# one recipe line per tool. Each line says "present", "installed" or
# "FAILED" (with the installer's last lines) and never stops the next; the
# last line fails the target when any tool is still missing. The Debian
# packages are poppler-utils, mupdf-tools and python3-pdfminer; pdf.js is
# pdfjs-dist from npm, installed into the user cache by the node already on
# the machine: with its npm, else with corepack's npm, and only where there
# is no node at all with Debian's nodejs and npm (Debian's npm conflicts with
# a nodejs that bundles its own, as NodeSource's does).
PDFJS_VERSION ?= 4.10.38
PDFJS_DIR ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/citecheck/pdfjs
APT_INSTALL = DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends
HAVE_pdftotext = command -v pdftotext
HAVE_mutool    = command -v mutool
HAVE_pdfminer  = /usr/bin/python3 -c 'import pdfminer'
HAVE_pypdf     = /usr/bin/python3 -c 'import pypdf'
HAVE_pymupdf   = /usr/bin/python3 -c 'import fitz'
HAVE_pdfjs     = command -v node && test -f $(PDFJS_DIR)/node_modules/pdfjs-dist/legacy/build/pdf.mjs && \
	grep -Eq 'version.: *.$(PDFJS_VERSION).' $(PDFJS_DIR)/node_modules/pdfjs-dist/package.json
NPM_PDFJS = install --prefix $(PDFJS_DIR) --no-audit --no-fund --loglevel=error pdfjs-dist@$(PDFJS_VERSION)
# reftool NAME CHECK INSTALL: run INSTALL when CHECK fails, then CHECK again.
REFTOOL = reftool() { \
	if sh -c "$$2" >/dev/null 2>&1; then echo "reftools: $$1: present"; return 0; fi; \
	log=$$(mktemp); \
	if ! sh -c "$$3" >"$$log" 2>&1; then echo "reftools: $$1: FAILED to install; the installer said:"; tail -n 8 "$$log" | sed 's/^/reftools:   /'; \
	elif ! sh -c "$$2" >/dev/null 2>&1; then echo "reftools: $$1: FAILED: installed, but still not found (on PATH?)"; \
	else echo "reftools: $$1: installed"; fi; \
	rm -f "$$log"; }; reftool
reftools:
	@if ! { $(HAVE_pdftotext) && $(HAVE_mutool) && $(HAVE_pdfminer) && $(HAVE_pypdf) && $(HAVE_pymupdf); } >/dev/null 2>&1; then \
		apt-get update -qq >/dev/null 2>&1 || echo "reftools: apt-get update FAILED"; fi
	@$(REFTOOL) pdftotext "$(HAVE_pdftotext)" "$(APT_INSTALL) poppler-utils"
	@$(REFTOOL) mutool "$(HAVE_mutool)" "$(APT_INSTALL) mupdf-tools"
	@$(REFTOOL) pdfminer "$(HAVE_pdfminer)" "$(APT_INSTALL) python3-pdfminer"
	@$(REFTOOL) pypdf "$(HAVE_pypdf)" "$(APT_INSTALL) python3-pypdf"
	@$(REFTOOL) pymupdf "$(HAVE_pymupdf)" "$(APT_INSTALL) python3-fitz"
	@$(REFTOOL) pdfjs "$(HAVE_pdfjs)" "mkdir -p $(PDFJS_DIR) && \
		if command -v npm >/dev/null; then npm $(NPM_PDFJS); \
		elif command -v node >/dev/null && command -v corepack >/dev/null; then \
			COREPACK_ENABLE_DOWNLOAD_PROMPT=0 COREPACK_INTEGRITY_KEYS=0 corepack npm@10 $(NPM_PDFJS); \
		elif command -v node >/dev/null; then echo 'node is installed without npm or corepack: install npm for it'; exit 1; \
		else apt-get update -qq && $(APT_INSTALL) nodejs npm && npm $(NPM_PDFJS); fi"
	@missing=; for t in pdftotext mutool pdfminer pdfjs pypdf pymupdf; do \
		case $$t in pdftotext) c="$(HAVE_pdftotext)";; mutool) c="$(HAVE_mutool)";; \
		pdfminer) c="$(HAVE_pdfminer)";; pdfjs) c="$(HAVE_pdfjs)";; \
		pypdf) c="$(HAVE_pypdf)";; pymupdf) c="$(HAVE_pymupdf)";; esac; \
		sh -c "$$c" >/dev/null 2>&1 || missing="$$missing $$t"; done; \
		if [ -n "$$missing" ]; then echo "reftools: missing:$$missing"; exit 1; fi; \
		echo "reftools: all six reference extractors are installed"

clean:
	rm -rf bin
