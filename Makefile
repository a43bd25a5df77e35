# arbiter: draughts tournament arbiter. `make demo` and `make test` are the
# two commands a new user needs; both work with only Go installed.
GO       ?= go
BIN      := bin/arbiter
PKGS     := ./...
# Packages with goroutines run under the race detector in `make test`; the
# rules package (shared tables used from many games at once) runs its
# concurrency tests under it too (the whole package would be slow under -race).
RACE_PKGS := ./arbiter/... ./match/... ./reports/... ./cmd/...

.PHONY: build test race vet bench fuzz demo clean

build:
	$(GO) build -o $(BIN) ./cmd/arbiter

vet:
	$(GO) vet $(PKGS)

test: build vet
	$(GO) test -count=1 -timeout 12m $(PKGS)
	$(GO) test -count=1 -race -timeout 12m $(RACE_PKGS)
	$(GO) test -count=1 -race -run 'TestConcurrentUse|TestPerftWithEqualsPerft|TestPerftWithEdges' ./rules/

bench: build
	$(GO) test -run '^$$' -bench . -benchtime 1x -timeout 60m $(PKGS)

# Each fuzz target runs for FUZZTIME (go test allows one target per run).
FUZZTIME ?= 30s
fuzz:
	@set -e; for pkg in $$($(GO) list $(PKGS)); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$t"; $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

demo: build
	./$(BIN) tournament -c configs/demo.yaml

clean:
	rm -rf bin out
