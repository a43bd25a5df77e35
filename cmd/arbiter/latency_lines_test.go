package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/reports"
)

// The README's match, read as its engine author reads it: each game's line
// (latency=, max=) and the run's latency line give the figures
// results.json gives for the same games. The console summed each move's
// latency to the nanosecond and results.json to whole microseconds, so
// game 1 read "latency=740µs" on the console and 722 µs in results.json,
// "at most 53µs" against a max_us of 52.
func TestMatchLatencyLinesAgreeWithResults(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := runArbiter(t, dir, "match",
		"--engine", "name=club cmd=self engine --level 3", "--engine", "name=casual cmd=self engine --level greedy",
		"--variant", "english", "--time-control", "10+0.1", "--games-per-encounter", "4", "--out", "out", "--progress", "off")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res, err := reports.ReadResults(filepath.Join(dir, "out", reports.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := regexp.MustCompile(`(?m)^game (\d+): .* latency=(\S+) max=(\S+)$`).FindAllStringSubmatch(stdout, -1)
	if len(lines) != len(res.Games) || len(lines) == 0 {
		t.Fatalf("%d game lines with a latency, %d games in results.json:\n%s", len(lines), len(res.Games), stdout)
	}
	var maxUS int64
	for _, l := range lines {
		i, _ := strconv.Atoi(l[1])
		g := res.Games[i-1]
		if g.WhiteLatency == nil || g.BlackLatency == nil {
			t.Fatalf("game %d has no latency in results.json", i)
		}
		total := time.Duration(g.WhiteLatency.TotalUS+g.BlackLatency.TotalUS) * time.Microsecond
		most := time.Duration(max(g.WhiteLatency.MaxUS, g.BlackLatency.MaxUS)) * time.Microsecond
		maxUS = max(maxUS, g.WhiteLatency.MaxUS, g.BlackLatency.MaxUS)
		if want := total.Round(10 * time.Microsecond).String(); l[2] != want {
			t.Errorf("game %d: the console says latency=%s, results.json's sides add up to %s (%s rounded as the console rounds)", i, l[2], total, want)
		}
		if want := most.Round(10 * time.Microsecond).String(); l[3] != want {
			t.Errorf("game %d: the console says max=%s, results.json %s", i, l[3], most)
		}
	}
	m := regexp.MustCompile(`latency not reported as thinking: \S+ per move on average, at most (\S+) \(game \d+\)`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no latency line:\n%s", stdout)
	}
	if want := (time.Duration(maxUS) * time.Microsecond).String(); m[1] != want {
		t.Errorf("the run's line says at most %s, results.json's largest max_us is %s", m[1], want)
	}
}

// A game that ended before its first move (White's engine crashed at its
// first search) measured no latency, and its line prints none: it read
// "plies=0 latency=0s max=0s", a latency of nothing that looked like an
// instant engine's. The game with a move has its latency.
func TestMatchNoLatencyForAGameWithoutMoves(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := runArbiter(t, dir, "match",
		"--engine", "name=ok cmd=self engine --level 2", "--engine", "name=crashes cmd=self engine --fault crash-at=1",
		"--games-per-encounter", "2", "--out", "out", "--progress", "off")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	empty := regexp.MustCompile(`(?m)^game \d+: crashes - ok .* plies=0(.*)$`).FindStringSubmatch(stdout)
	moved := regexp.MustCompile(`(?m)^game \d+: ok - crashes .* plies=1 latency=\S+ max=\S+$`).FindString(stdout)
	if empty == nil || moved == "" {
		t.Fatalf("want a game of no moves and one of one move:\n%s", stdout)
	}
	if empty[1] != "" {
		t.Errorf("the game of no moves prints %q after its plies:\n%s", empty[1], stdout)
	}
}
