package reports

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/reports/stats"
)

// FuzzEvent builds events from arbitrary field values: statistics and the
// HTML report must either succeed or fail with an error, never panic.
func FuzzEvent(f *testing.F) {
	f.Add("A", "B", "1-0", "white", 40, 1, 3, int64(1e8), "normal", true)
	f.Add("A", "B", "*", "black", 0, 0, 0, int64(0), "", false)
	f.Add("x", "x", "1/2-1/2", "red", -3, -1, 7, int64(-5), "draw", true)
	f.Fuzz(func(t *testing.T, white, black, result, first string, plies, pair, nTimes int, moveNS int64, term string, sprt bool) {
		if nTimes < 0 || nTimes > 500 {
			nTimes %= 500
			if nTimes < 0 {
				nTimes = -nTimes
			}
		}
		times := make([]time.Duration, nTimes)
		for i := range times {
			times[i] = time.Duration(moveNS) * time.Duration(i%3)
		}
		g := Game{Round: 1, Board: 1, Pair: pair, White: white, Black: black, Result: result,
			FirstMover: first, Plies: plies, MoveTimes: times, Termination: term}
		rev := g
		rev.White, rev.Black, rev.Board = black, white, 2
		ev := Event{Name: term, Games: []Game{g, rev}}
		if sprt {
			ev.SPRT = &stats.SPRTConfig{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
		}
		if _, err := Compute(ev); err != nil {
			return
		}
		if err := WriteHTML(io.Discard, ev); err != nil {
			t.Fatalf("Compute accepted the event but WriteHTML failed: %v", err)
		}
	})
}

func FuzzReadResults(f *testing.F) {
	f.Add([]byte(`{"version":1,"stats":{"engines":[{"elo":{"elo":null}}]},"games":[{"round":1}]}`))
	f.Add([]byte(`{"version":2}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "r.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := ReadResults(path)
		if err == nil && r.Version != ResultsVersion {
			t.Errorf("accepted version %d", r.Version)
		}
	})
}

// FuzzEncodeRecord feeds the viewer's record maker arbitrary move texts and
// start positions, as a damaged store could hold them: it must make a
// record (of the plies it could read) or return an error, never panic, and
// the record must only hold the characters the viewer reads.
func FuzzEncodeRecord(f *testing.F) {
	f.Add("english", "", "11-15 23-19 8-11", 0.31, 12)
	f.Add("international", "W:W31-50:B1-20", "32-28 19-23 28x19 14x23", -1.5, 0)
	f.Add("russian", "", "c3-d4 f6-e5 d4xf6", 0.0, 3)
	f.Add("english", "B:W18:B14", "14x23 x-x --", 1e300, -4)
	f.Fuzz(func(t *testing.T, variant, fen, texts string, score float64, depth int) {
		var moves []Move
		for _, s := range strings.Fields(texts) {
			moves = append(moves, Move{Text: s, Score: score, HasScore: true, Depth: depth})
		}
		rec, err := EncodeRecord(variant, fen, moves)
		if err != nil {
			return
		}
		for _, c := range rec {
			if !strings.ContainsRune(recordAlphabet+"|,+.wWbB:-0123456789", c) {
				t.Fatalf("record %q holds %q", rec, c)
			}
		}
	})
}
