# arbiter: draughts tournament arbiter. `make demo` and `make test` are the
# two commands a new user needs; both work with only Go installed.
GO       ?= go
BIN      := bin/arbiter
PKGS     := ./...
# The packages whose tests take longest come first: go test starts packages
# in the order named (two at a time on two cores), so a long one started
# last would run alone while the other core idles.
SLOW_PKGS := ./match/web ./cmd/arbiter ./rules ./reports ./match/engines/cb ./match
# Packages with goroutines run under the race detector in `make test`; the
# rules package (shared tables used from many games at once) and the
# endgame database builder (two workers) run their concurrency tests under
# it too (the whole packages would be slow under -race). cmd/arbiter is not among them: its tests run the binary as a
# separate process, which the detector in the test process cannot see; the
# code they drive is raced by its own packages' tests.
# Left out: the packages that start no goroutine and hold no shared state
# (schedules and pairings, adjudication rules, the engine checklist, the
# director's events, rating and statistics formulas); what runs them from
# goroutines (match/web, tournament) is raced with them. A new package is
# raced unless named here. (Racing them cost some 22 s of a warm make test.)
RACE_SKIP := match/schedule match/schedule/swiss match/schedule/swiss/pairfile match/schedule/swiss/trf \
	match/schedule/swiss/trf/internal/refgen match/engines/adjudicate match/engines/check match/people \
	match/people/director reports/rating reports/stats reports/tiebreak
RACE_PKGS = $(filter-out $(addprefix ./,$(RACE_SKIP)),$(patsubst github.com/draughts-arbiter/arbiter/%,./%,\
	$(shell $(GO) list ./match/... ./arbiter/... ./reports/...)))

.PHONY: build cross test test-quick vet bench bench-e2e fuzz demo demo-cluster clean cover cb-sweep egdb-verify egdb-verify-international shots doc-shots

build:
	$(GO) build -o $(BIN) ./cmd/arbiter

# The binaries for the other systems users run it on (Windows for the
# CheckerBoard engines and their authors, macOS, Linux on ARM), pure Go
# (CGO_ENABLED=0). Not part of `make test` (its time is spent); it must
# pass before a release (docs/development.md). A cold build cache: about
# a minute and a half per target on two cores.
CROSS := windows/amd64/.exe darwin/arm64/ linux/arm64/
cross:
	@set -e; for t in $(CROSS); do \
	  os=$${t%%/*}; rest=$${t#*/}; arch=$${rest%%/*}; ext=$${rest#*/}; \
	  echo "== $$os/$$arch"; \
	  CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -o bin/arbiter-$$os-$$arch$$ext ./cmd/arbiter; \
	done

vet:
	$(GO) vet $(PKGS)

# Every test runs once without the race detector (browser tests and long
# event runs included); then the race detector runs the quick tests (-short)
# of the packages with goroutines: the code the browser tests and the long
# runs drive is raced there by its API and unit tests, and racing those two
# kinds again would double the suite's time (issue 21: under 8 minutes on
# two cores). The tests that run the arbiter as a process copy the one just
# built (internal/testbin) rather than each linking its own, in both runs.
# The three runs pass -vet=off: `vet` has just run every analyzer on every
# package, test files included, and go test's own vet (a subset of them)
# would check each package again in each run, the race runs' twice more
# (their packages compile anew under -race).
test: build vet
	ARBITER_TEST_BIN=$(abspath $(BIN)) $(GO) test -count=1 -vet=off -timeout 20m $(SLOW_PKGS) $(PKGS)
	ARBITER_TEST_BIN=$(abspath $(BIN)) $(GO) test -count=1 -vet=off -race -short -timeout 20m $(RACE_PKGS)
	$(GO) test -count=1 -vet=off -race -run 'TestConcurrentUse|TestPerftWithEqualsPerft|TestPerftWithEdges|TestBuildSmall|TestBuildResumes' ./rules/ ./rules/egdb/

# The edit loop: every test but the browser ones (they skip under -short,
# see internal/browser) and the long ones that check testing.Short(), with
# no race pass. `make test` runs them all before a change lands. Four
# packages at once, not two: many of these tests wait on child processes
# and sockets, so two at a time left a core idle (124 s wall on two quiet
# cores; 81-87 s with four).
test-quick: build
	ARBITER_TEST_BIN=$(abspath $(BIN)) $(GO) test -count=1 -short -p 4 -timeout 20m $(SLOW_PKGS) $(PKGS)

# Coverage of the unit tests together with the runs of the binary: the CLI
# (and match) tests run bin/arbiter as a separate process, so its own code
# shows as untested in a plain -cover run. Here those tests build it with
# -cover (internal/testbin, when ARBITER_COVERDIR is set) and every run of it,
# its sparring engines included, writes to $(COVERDIR)/bin; `go tool covdata`
# merges that with the in-process tests' data. Prints per package the in-process
# figure and the one with the binary's runs; $(COVERDIR)/cover.out feeds `go tool cover -html`.
COVERDIR ?= out/cover
cover:
	@rm -rf $(COVERDIR) && mkdir -p $(COVERDIR)/unit $(COVERDIR)/bin
	ARBITER_COVERDIR=$(abspath $(COVERDIR)/bin) $(GO) test -count=1 -timeout 30m -cover -coverpkg=./... $(PKGS) \
	  -args -test.gocoverdir=$(abspath $(COVERDIR)/unit) > $(COVERDIR)/test.log || { cat $(COVERDIR)/test.log; exit 1; }
	@$(GO) tool covdata percent -i=$(COVERDIR)/unit > $(COVERDIR)/unit.txt
	@$(GO) tool covdata percent -i=$(COVERDIR)/unit,$(COVERDIR)/bin > $(COVERDIR)/all.txt
	@$(GO) tool covdata textfmt -i=$(COVERDIR)/unit,$(COVERDIR)/bin -o $(COVERDIR)/cover.out
	@awk 'NR == FNR { unit[$$1] = $$3; next } \
	  FNR == 1 { printf "%-56s %11s %13s\n", "package", "in-process", "+ binary runs" } \
	  { printf "%-56s %11s %13s\n", $$1, unit[$$1], $$3 }' $(COVERDIR)/unit.txt $(COVERDIR)/all.txt
	@$(GO) tool cover -func=$(COVERDIR)/cover.out | tail -1 | awk '{ printf "%-56s %11s %13s\n", "total (statements)", "", $$3 }'

bench: build
	$(GO) test -run '^$$' -bench . -benchtime 1x -timeout 60m $(PKGS)

# The game loop's CPU per move and the whole match's per ply, each beside
# the floor of a pipe round trip measured in the same run.
bench-e2e: build
	ARBITER_TEST_BIN=$(abspath $(BIN)) $(GO) test -run '^$$' -bench 'GameRandom|MatchEndToEnd' -benchtime 1x ./match/

# The CheckerBoard host's time guard over the whole sweep of issue 23
# (move=0.05 to move=1, 1+0.01 to 60+0.5, CB_SWEEP_PLIES plies each): an
# overshooting test engine must lose no game on time. About an hour.
CB_SWEEP_PLIES ?= 300
cb-sweep: build
	ARBITER_TEST_BIN=$(abspath $(BIN)) ARBITER_CB_SWEEP=1 ARBITER_CB_SWEEP_PLIES=$(CB_SWEEP_PLIES) \
	  $(GO) test -count=1 -v -timeout 3h -run TestCBKeepsTimeSweep ./match/engines/cb/

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

# The demo event over a cluster on this machine: an embedded NATS server,
# two workers (one game at a time each) and the coordinator, four processes
# of the same binary. Resumes like `make demo`; delete out/demo-cluster to
# start over.
NATS_PORT ?= 14222
demo-cluster: build
	@set -e; dir=out/demo-cluster; url=nats://127.0.0.1:$(NATS_PORT); mkdir -p $$dir; \
	./$(BIN) nats-server --listen 127.0.0.1:$(NATS_PORT) --store $$dir/nats > $$dir/nats-server.log 2>&1 & srv=$$!; \
	trap 'kill $$w1 $$w2 $$srv 2>/dev/null; wait 2>/dev/null' EXIT; \
	./$(BIN) worker --nats $$url --engines configs/demo.yaml --name worker-1 --log-level warn 2> $$dir/worker-1.log & w1=$$!; \
	./$(BIN) worker --nats $$url --engines configs/demo.yaml --name worker-2 --log-level warn 2> $$dir/worker-2.log & w2=$$!; \
	./$(BIN) tournament -c configs/demo.yaml --out $$dir --nats $$url

# The endgame databases at the sizes too slow for `make test`: English
# checkers to EGDB_PIECES pieces (5: 374 million indices, about 80 CPU
# seconds; 6: 7.5 billion, about 27 CPU minutes and 1.9 GB, then some
# 1.6 CPU hours of checking; docs/egdb.md has the measurements), built into out/egdb (resumed if interrupted), then
# every position checked against its moves, with each table's counts, and
# the counts matched against the published ones (TestPublishedCountsBuilt).
EGDB_PIECES ?= 5
egdb-verify: build
	./$(BIN) egdb build --variant english --pieces $(EGDB_PIECES) --dir out/egdb
	./$(BIN) egdb verify --variant english --dir out/egdb
	EGDB_DIR=$(CURDIR)/out/egdb go test -count=1 -run TestPublishedCountsBuilt -v ./rules/egdb/

# International draughts to EGDB_INT_PIECES pieces (5: 3.8 billion indices,
# an hour or more of CPU, 0.9 GB on disk; docs/egdb.md), then the tables up
# to 4 pieces checked whole and those of 5 one position in EGDB_EVERY, and
# the positions of Kingsrow's list (TestKingsrowPositionsBuilt) probed.
EGDB_INT_PIECES ?= 5
EGDB_EVERY ?= 1000
egdb-verify-international: build
	./$(BIN) egdb build --variant international --pieces $(EGDB_INT_PIECES) --dir out/egdb
	./$(BIN) egdb verify --variant international --dir out/egdb --to $$(( $(EGDB_INT_PIECES) - 1 ))
	./$(BIN) egdb verify --variant international --dir out/egdb --from $(EGDB_INT_PIECES) --every $(EGDB_EVERY)
	EGDB_INT_DIR=$(CURDIR)/out/egdb EGDB_INT_PIECES=$(EGDB_INT_PIECES) go test -count=1 -run TestKingsrowPositionsBuilt -v ./rules/egdb/

# The pictures of the README and the guides (docs/img/*.png), taken by the
# browser tests that follow the README's quick starts (issue 27).
# Every browser test, keeping the screenshots it checks the layout on (at a
# phone's and a desktop's width) in out/shots for a person to judge.
shots: build
	ARBITER_TEST_BIN=$(abspath $(BIN)) ARBITER_ARTIFACTS=$(CURDIR)/out/shots \
	  $(GO) test -count=1 -run 'Browser|QuickStart|CleanMatchReport|LiveViewOnAPhone|ReportLayoutAndViewer|ReportInChromium|SheetsInBrowser' ./match/web/ ./cmd/arbiter/ ./reports/...
	@echo "screenshots in out/shots"

doc-shots: build
	ARBITER_TEST_BIN=$(abspath $(BIN)) ARBITER_DOC_SHOTS=$(CURDIR)/docs/img \
	  $(GO) test -count=1 -v -run 'TestQuickStart(PlayerAndArbiter|Director|EngineAuthor)$$' ./cmd/arbiter/

clean:
	rm -rf bin out
