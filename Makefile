# citecheck: the two commands of the README are "make demo" and "make test".
GO      ?= go
CORPUS  ?= ../shared/pdf-corpus
JOBS    ?= 2
BENCHTMP ?= $(or $(TMPDIR),/tmp)/citecheck-bench

.PHONY: all build demo test lint fuzz-smoke bench clean

all: build

build:
	$(GO) build -o bin/citecheck ./cmd/citecheck
	$(GO) build -o bin/citecheck-bench ./internal/cmd/citecheck-bench
	$(GO) build -o bin/citecheck-locbench ./internal/cmd/citecheck-locbench

# The whole pipeline on the fixture PDFs the program generates.
demo:
	$(GO) run ./cmd/citecheck demo

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
	$(GO) test -run=NONE -fuzz='^FuzzDecodeTextString$$' -fuzztime=$(FUZZTIME) ./pdftext/internal/fontenc/
	$(GO) test -run=NONE -fuzz='^FuzzNormalize$$' -fuzztime=$(FUZZTIME) ./textnorm/
	$(GO) test -run=NONE -fuzz='^FuzzLocate$$' -fuzztime=$(FUZZTIME) -fuzzminimizetime=3s ./citations/
	$(GO) test -run=NONE -fuzz='^FuzzReadResponses$$' -fuzztime=$(FUZZTIME) ./typedqa/
	$(GO) test -run=NONE -fuzz='^FuzzReadTruth$$' -fuzztime=$(FUZZTIME) ./typedqa/

# Speed and memory, measured against the reference tools where installed.
bench: build
	$(GO) test -run=NONE -bench=. -benchmem ./pdftext/... ./textnorm/ ./typedqa/ ./citations/
	bin/citecheck-bench extract --citecheck bin/citecheck --corpus $(CORPUS) --jobs $(JOBS)
	rm -rf $(BENCHTMP) && bin/citecheck extract --out $(BENCHTMP) --jobs $(JOBS) $(CORPUS) > /dev/null || true
	bin/citecheck-bench spacing --corpus-store $(BENCHTMP)
	bin/citecheck-locbench --store $(BENCHTMP)
	bin/citecheck-locbench --store $(BENCHTMP) --scale 10

clean:
	rm -rf bin
