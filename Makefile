# citecheck: the two commands of the README are "make demo" and "make test".
GO      ?= go
CORPUS  ?= ../shared/pdf-corpus
GRADING ?= ../shared/grading
JOBS    ?= 2
BENCHTMP ?= $(or $(TMPDIR),/tmp)/citecheck-bench

.PHONY: all build demo test lint fuzz-smoke bench bench-fidelity reftools clean

all: build

build:
	$(GO) build -o bin/citecheck ./cmd/citecheck
	$(GO) build -o bin/citecheck-bench ./internal/cmd/citecheck-bench
	$(GO) build -o bin/citecheck-locbench ./internal/cmd/citecheck-locbench

# The whole pipeline on the fixture PDFs the program generates; its files,
# the report among them, are kept in bin/demo.
demo:
	$(GO) run ./cmd/citecheck demo --out bin/demo

# Every test, the corpus sweeps included (they skip, saying so, when
# ../shared is absent), after the lint checks.
test: lint
	$(GO) test -count=1 ./...

lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...

# Each fuzz target for a short while: a smoke test, not a campaign.
FUZZTIME ?= 15s
fuzz-smoke:
	$(GO) test -run=NONE -fuzz='^FuzzExtract$$' -fuzztime=$(FUZZTIME) ./pdftext/
	$(GO) test -run=NONE -fuzz='^FuzzParse$$' -fuzztime=$(FUZZTIME) ./pdftext/internal/cmap/
	$(GO) test -run=NONE -fuzz='^FuzzDecodeBoxes$$' -fuzztime=$(FUZZTIME) ./corpus/
	$(GO) test -run=NONE -fuzz='^FuzzDecodeManifest$$' -fuzztime=$(FUZZTIME) -fuzzminimizetime=3s ./corpus/
	$(GO) test -run=NONE -fuzz='^FuzzFontPrograms$$' -fuzztime=$(FUZZTIME) ./pdftext/internal/fontfile/
	$(GO) test -run=NONE -fuzz='^FuzzMendObjects$$' -fuzztime=$(FUZZTIME) ./pdftext/
	$(GO) test -run=NONE -fuzz='^FuzzDecodeTextString$$' -fuzztime=$(FUZZTIME) ./pdftext/internal/fontenc/
	$(GO) test -run=NONE -fuzz='^FuzzNormalize$$' -fuzztime=$(FUZZTIME) ./textnorm/
	$(GO) test -run=NONE -fuzz='^FuzzNormalizeValue$$' -fuzztime=$(FUZZTIME) -fuzzminimizetime=3s ./textnorm/
	$(GO) test -run=NONE -fuzz='^FuzzParseResponse$$' -fuzztime=$(FUZZTIME) -fuzzminimizetime=3s ./grade/
	$(GO) test -run=NONE -fuzz='^FuzzLocate$$' -fuzztime=$(FUZZTIME) -fuzzminimizetime=3s ./citations/
	$(GO) test -run=NONE -fuzz='^FuzzReadRuns$$' -fuzztime=$(FUZZTIME) -fuzzminimizetime=3s ./citations/
	$(GO) test -run=NONE -fuzz='^FuzzReadResponses$$' -fuzztime=$(FUZZTIME) ./typedqa/
	$(GO) test -run=NONE -fuzz='^FuzzReadTruth$$' -fuzztime=$(FUZZTIME) ./typedqa/
	$(GO) test -run=NONE -fuzz='^FuzzReadConfig$$' -fuzztime=$(FUZZTIME) -fuzzminimizetime=3s ./typedqa/
	$(GO) test -run=NONE -fuzz='^FuzzParse$$' -fuzztime=$(FUZZTIME) ./internal/strictjson/
	$(GO) test -run=NONE -fuzz='^FuzzDecodeReference$$' -fuzztime=$(FUZZTIME) ./spans/
	$(GO) test -run=NONE -fuzz='^FuzzDecodePlan$$' -fuzztime=$(FUZZTIME) ./plan/
	$(GO) test -run=NONE -fuzz='^FuzzParseLock$$' -fuzztime=$(FUZZTIME) ./freeze/

# Speed and memory, measured against the reference tools where installed.
bench: build
	$(GO) test -run=NONE -bench=. -benchmem ./pdftext/... ./textnorm/ ./typedqa/ ./citations/ ./grade/ ./metrics/ ./report/
	bin/citecheck-bench extract --citecheck bin/citecheck --corpus $(CORPUS) --jobs $(JOBS)
	bin/citecheck-bench grade --citecheck bin/citecheck --grading $(GRADING) --attempts 10000,100000
	rm -rf $(BENCHTMP) && bin/citecheck extract --out $(BENCHTMP) --jobs $(JOBS) $(CORPUS) > /dev/null || true
	bin/citecheck-bench spacing --corpus-store $(BENCHTMP)
	bin/citecheck-locbench --store $(BENCHTMP)
	bin/citecheck-locbench --store $(BENCHTMP) --scale 10

# Extraction fidelity: windows of each installed reference extractor's page
# text looked up in ours (package internal/fidelity). Reference texts are
# cached under $$XDG_CACHE_HOME/citecheck/reftext; the first run takes minutes.
bench-fidelity: build
	rm -rf $(BENCHTMP) && bin/citecheck extract --out $(BENCHTMP) --jobs $(JOBS) $(CORPUS) > /dev/null || true
	bin/citecheck-bench fidelity --corpus-store $(BENCHTMP) --jobs $(JOBS) --locate

# The reference extractors the fidelity benchmark and tests compare with:
# Debian packages, and pdf.js from npm into the user cache.
PDFJS_DIR ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/citecheck/pdfjs
reftools:
	command -v pdftotext >/dev/null && command -v mutool >/dev/null && /usr/bin/python3 -c 'import pdfminer' 2>/dev/null || \
		(apt-get update -qq && apt-get install -y -qq poppler-utils mupdf-tools python3-pdfminer nodejs npm)
	test -f $(PDFJS_DIR)/node_modules/pdfjs-dist/legacy/build/pdf.mjs || \
		(mkdir -p $(PDFJS_DIR) && npm install --prefix $(PDFJS_DIR) --no-audit --no-fund pdfjs-dist@4.10.38)

clean:
	rm -rf bin
