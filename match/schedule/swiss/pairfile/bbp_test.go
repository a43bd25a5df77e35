package pairfile

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/match/schedule/swiss/trf"
)

// bbpPath is bbpPairings' executable from ARBITER_BBPPAIRINGS; the tests
// that need it skip without it (it is not part of the repository: build
// it from https://github.com/BieremaBoyzProgramming/bbpPairings outside).
func bbpPath(t *testing.T) string {
	p := os.Getenv("ARBITER_BBPPAIRINGS")
	if p == "" {
		t.Skip("ARBITER_BBPPAIRINGS is not set: set it to a bbpPairings executable (v6, Dutch 2025) to compare with it")
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("ARBITER_BBPPAIRINGS: %v", err)
	}
	return p
}

func bbpEvents() int {
	if n, err := strconv.Atoi(os.Getenv("ARBITER_BBP_EVENTS")); err == nil && n > 0 {
		return n
	}
	return 20
}

// TestBBPGeneratedCheckedHere: events bbpPairings generates (every round
// paired by bbpPairings, results and byes from its random generator)
// check clean here: every round, re-paired by this engine, is bbpPairings'
// pairing, boards and colours and PAB.
func TestBBPGeneratedCheckedHere(t *testing.T) {
	bbp := bbpPath(t)
	dir := t.TempDir()
	rounds, differ := 0, 0
	for seed := 1; seed <= bbpEvents(); seed++ {
		out := filepath.Join(dir, fmt.Sprintf("bbp%d.trf", seed))
		cmd := exec.Command(bbp, "--dutch", "-g", "-o", out, "-s", strconv.Itoa(seed))
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Logf("seed %d: bbpPairings -g failed (%v): %s", seed, err, b)
			continue
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := trf.Read(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		diffs, err := Check(ev)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		all, _ := ev.PairingState()
		rounds += len(all[0].History)
		differ += len(diffs)
		for _, d := range diffs {
			t.Errorf("bbpPairings seed %d (%d players) round %d: %.300s", seed, len(ev.Players), d.Round, d.Reason())
		}
	}
	t.Logf("bbpPairings' generator: %d rounds, %d paired alike here, %d differ", rounds, rounds-differ, differ)
}

// TestGeneratedCheckedByBBP: events generated here check clean with
// bbpPairings' checker (-c lists no round whose pairing differs).
func TestGeneratedCheckedByBBP(t *testing.T) {
	bbp := bbpPath(t)
	dir := t.TempDir()
	rounds, differ := 0, 0
	for seed := uint64(1); seed <= uint64(bbpEvents()); seed++ {
		ev, err := Generate(Config{}, seed)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := trf.Write(&b, ev); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, fmt.Sprintf("a%d.trf", seed))
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(bbp, "--dutch", path, "-c").CombinedOutput()
		if err != nil {
			t.Fatalf("seed %d: bbpPairings -c: %v\n%s", seed, err, out)
		}
		rounds += len(ev.Players[0].History)
		for _, block := range strings.Split(string(out), ": Round #")[1:] {
			if strings.Contains(block, "Checker pairings") {
				differ++
				t.Errorf("seed %d: bbpPairings differs in round %.600s", seed, block)
			}
		}
	}
	t.Logf("generated here: %d rounds, bbpPairings' checker agrees with %d, differs on %d", rounds, rounds-differ, differ)
}

// TestTRF26AgainstBBP: a TRF-2026 file with accelerations (250), a
// prohibited pairing for the round (260) and one for every round (XXP),
// each forbidding a pair the engine would otherwise make, pairs here as
// bbpPairings pairs it.
func TestTRF26AgainstBBP(t *testing.T) {
	bbp := bbpPath(t)
	dir := t.TempDir()
	for seed := uint64(1); seed <= 5; seed++ {
		ev, err := Generate(Config{Players: 40, Rounds: 4, set: map[string]bool{"PlayersNumber": true, "RoundsNumber": true}}, seed)
		if err != nil {
			t.Fatal(err)
		}
		ev.Rounds = 9
		free, err := Next(ev)
		if err != nil {
			t.Fatal(err)
		}
		a, b := free.Boards[0], free.Boards[1]
		ev.Forbidden = []trf.Forbidden{{First: 5, Last: 5, Players: []int{a.White, a.Black}}, {Players: []int{b.White, b.Black}}}
		for i := range ev.Players {
			if ev.Players[i].Number <= 12 {
				ev.Players[i].Acceleration = []int{0, 0, 0, 0, 10}
			}
		}
		var buf bytes.Buffer
		if err := trf.Write(&buf, ev); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), "\n250 ") || !strings.Contains(buf.String(), "\n260 ") || !strings.Contains(buf.String(), "\nXXP ") {
			t.Fatalf("the file lacks its 250/260/XXP records:\n%s", buf.String())
		}
		path := filepath.Join(dir, fmt.Sprintf("t%d.trf", seed))
		if d := os.Getenv("ARBITER_KEEP"); d != "" {
			path = filepath.Join(d, fmt.Sprintf("t%d.trf", seed))
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		back, err := trf.Read(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		got, err := Next(back)
		if err != nil {
			t.Fatal(err)
		}
		var mine bytes.Buffer
		if err := WritePairs(&mine, got); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "bbp.txt")
		if b, err := exec.Command(bbp, "--dutch", path, "-p", out).CombinedOutput(); err != nil {
			t.Fatalf("bbpPairings: %v: %s", err, b)
		}
		theirs, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if mine.String() != string(theirs) {
			t.Errorf("seed %d: here\n%s\nbbpPairings\n%s", seed, mine.String(), theirs)
		}
		if mine.String() == "" || strings.Contains(mine.String(), fmt.Sprintf("\n%d %d\n", a.White, a.Black)) {
			t.Errorf("seed %d: the 260 pair %d-%d is paired", seed, a.White, a.Black)
		}
	}
}
