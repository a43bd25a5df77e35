package director

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// extTRF is a two-player TRF16 file with the XXR and XXC extensions, one
// round played.
const extTRF = "012 Extensions\r\n" +
	"XXR 5\r\n" +
	"XXC black1\r\n" +
	"001    1      Alpha, A                          2000                             1.0    1     2 b 1\r\n" +
	"001    2      Beta, B                           1900                             0.0    2     1 w 0\r\n"

// TestImportTRFRoundsAndFirstColour: XXR becomes the event's rounds and
// XXC its first colour (in the pairing options too), and both are written
// back on export.
func TestImportTRFRoundsAndFirstColour(t *testing.T) {
	s := newStore(t, nil)
	ctx := context.Background()
	tev, err := ParseTRF([]byte(extTRF))
	must(t, err)
	ev, _, err := s.ImportTRF(ctx, Event{Variant: "international", Rounds: 3}, tev)
	must(t, err)
	if ev.Rounds != 5 || ev.FirstColor != tally.Black {
		t.Fatalf("imported rounds %d, first colour %d; want 5, Black", ev.Rounds, ev.FirstColor)
	}
	sn := get(t, s, ev.ID)
	if o := sn.Event.Options(); o.Rounds != 5 || o.FirstColor != tally.Black {
		t.Fatalf("stored event's options %+v", o)
	}
	var buf bytes.Buffer
	must(t, sn.WriteTRF(&buf))
	out := buf.String()
	for _, want := range []string{"XXR 5\r\n", "XXC black1\r\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("export lacks %q:\n%s", want, out)
		}
	}
	// Without XXC the event leaves the colour to the pairing, and the
	// export says nothing.
	tev, err = ParseTRF([]byte(strings.Replace(extTRF, "XXC black1\r\n", "", 1)))
	must(t, err)
	ev, _, err = s.ImportTRF(ctx, Event{Variant: "international"}, tev)
	must(t, err)
	buf.Reset()
	must(t, get(t, s, ev.ID).WriteTRF(&buf))
	if ev.FirstColor != tally.NoColor || strings.Contains(buf.String(), "XXC") {
		t.Fatalf("no XXC: first colour %d, export:\n%s", ev.FirstColor, buf.String())
	}
	if _, _, err := s.Create(ctx, Event{Name: "E", Rounds: 1, FirstColor: 7}); code(err) != "director.bad-field" {
		t.Fatalf("first colour 7: %v", err)
	}
}

// allCodesTRF has every TRF16 result code of a played round: 1 = 0, W D L
// (played, not rated), + - with an opponent, and the rows without one,
// 0000 - U, H, F, Z.
const allCodesTRF = "012 All codes\r\n" +
	"001    1      Player 1                                                           0.0          2 w 1     3 b D     4 w L\r\n" +
	"001    2      Player 2                                                           0.0          1 b 0     4 w +     3 b 0\r\n" +
	"001    3      Player 3                                                           0.0          4 w W     1 w D     2 w 1\r\n" +
	"001    4      Player 4                                                           0.0          3 b L     2 b -     1 b W\r\n" +
	"001    5      Player 5                                                           0.0          6 w =  0000 - U  0000 - F\r\n" +
	"001    6      Player 6                                                           0.0          5 b =  0000 - H  0000 - Z\r\n" +
	""

// TestTRFRoundTripAllCodes imports a file with every result code and
// exports it: the round columns (from column 92) come back byte-equal,
// and the unrated games score as the played ones.
func TestTRFRoundTripAllCodes(t *testing.T) {
	s := newStore(t, nil)
	ctx := context.Background()
	tev, err := ParseTRF([]byte(allCodesTRF))
	must(t, err)
	ev, _, err := s.ImportTRF(ctx, Event{Variant: "international"}, tev)
	must(t, err)
	sn := get(t, s, ev.ID)
	var buf bytes.Buffer
	must(t, sn.WriteTRF(&buf))
	rounds := func(text string) map[string]string {
		out := map[string]string{}
		for _, l := range strings.Split(text, "\r\n") {
			if r := []rune(l); strings.HasPrefix(l, "001 ") && len(r) > 91 {
				out[string(r[4:8])] = string(r[91:])
			}
		}
		return out
	}
	in, out := rounds(allCodesTRF), rounds(buf.String())
	if len(in) != 6 {
		t.Fatalf("test file: %d players", len(in))
	}
	for n, want := range in {
		if out[n] != want {
			t.Errorf("player %s: rounds exported as\n%q, read\n%q", n, out[n], want)
		}
	}
	// W-L is scored like 1-0 (player 3: W, D, 1 = 2.5 points; player 1:
	// 1, D, L = 1.5) and shown as played on the board.
	st := sn.State()
	if got := st[2].Score(sn.Event.Scoring); got != 5 {
		t.Errorf("player 3 scores %d units, want 5 (2.5 points)", got)
	}
	if got := st[0].Score(sn.Event.Scoring); got != 3 {
		t.Errorf("player 1 scores %d units, want 3", got)
	}
	var unrated Board
	for _, b := range sn.Rounds[0].Boards {
		if b.WhiteResult == tally.UnratedWin {
			unrated = b
		}
	}
	if unrated.Score() != "1-0 (not rated)" || unrated.BlackResult != tally.UnratedLoss {
		t.Errorf("the unrated board of round 1: %+v, score %q", unrated, unrated.Score())
	}
}

// aheadTRF has round 1 played and byes asked ahead: player 2 a half-point
// bye in round 2, player 3 a zero-point bye in round 2 and a full-point
// bye in round 3.
const aheadTRF = "012 Ahead\r\nXXR 4\r\n" +
	"001    1      Player 1                                                           0.0          2 w 1\r\n" +
	"001    2      Player 2                                                           0.0          1 b 0  0000 - H\r\n" +
	"001    3      Player 3                                                           0.0          4 w =  0000 - Z  0000 - F\r\n" +
	"001    4      Player 4                                                           0.0          3 b =\r\n" +
	""

// TestImportTRFRequestedByes: the byes written after the last round
// played become the director's requests for those rounds (and not played
// rounds); the next round's are exported back in its column, and pairing
// round 2 leaves out the players who asked.
func TestImportTRFRequestedByes(t *testing.T) {
	s := newStore(t, nil)
	ctx := context.Background()
	tev, err := ParseTRF([]byte(aheadTRF))
	must(t, err)
	ev, _, err := s.ImportTRF(ctx, Event{Variant: "international"}, tev)
	must(t, err)
	sn := get(t, s, ev.ID)
	id := func(n int) int { return sn.ByNumber(n).ID }
	if len(sn.Rounds) != 1 || sn.Requested[2][id(2)] != tally.HalfBye || sn.Requested[2][id(3)] != tally.ZeroBye || sn.Requested[3][id(3)] != tally.FullBye || len(sn.Requested[2]) != 2 {
		t.Fatalf("rounds %d, requests %v", len(sn.Rounds), sn.Requested)
	}
	var buf bytes.Buffer
	must(t, sn.WriteTRF(&buf))
	out := buf.String()
	for _, l := range strings.Split(out, "\r\n") {
		r := []rune(l)
		if !strings.HasPrefix(l, "001 ") || len(r) < 99 {
			continue
		}
		switch string(r[4:8]) {
		case "   2":
			if string(r[91:]) != "   1 b 0  0000 - H" {
				t.Errorf("player 2: %q", string(r[91:]))
			}
		case "   3":
			if string(r[91:]) != "   4 w =  0000 - Z" {
				t.Errorf("player 3 (round 3's request not written): %q", string(r[91:]))
			}
		default:
			if len(r) > 100 {
				t.Errorf("a column ahead for %q", l)
			}
		}
	}
	must(t, s.PairRound(ctx, ev.ID, 2, nil))
	rd := get(t, s, ev.ID).Rounds[1]
	if len(rd.Boards) != 1 || rd.Absent[id(2)] != tally.HalfBye || rd.Absent[id(3)] != tally.ZeroBye {
		t.Fatalf("round 2: %+v", rd)
	}
	// After the last round played only requested byes may follow.
	bad := strings.Replace(aheadTRF, "0000 - F", "0000 - -", 1)
	if tev, err = ParseTRF([]byte(bad)); err == nil {
		_, _, err = s.ImportTRF(ctx, Event{Variant: "international"}, tev)
	}
	if err == nil || !strings.Contains(err.Error(), "round 3") {
		t.Fatalf("a forfeit ahead: %v", err)
	}
}

// FuzzImportTRF: whatever the file, ParseTRF then ImportTRF give an event
// or an *Error that names the file's line (director.trf, line > 0), never
// a crash.
func FuzzImportTRF(f *testing.F) {
	for _, seed := range []string{allCodesTRF, aheadTRF, extTRF, "XXR 3\n", "012 \x01\n" + extTRF,
		strings.Replace(aheadTRF, "0000 - F", "0000 - -", 1), strings.Replace(extTRF, "XXR 5", "XXR 90", 1),
		"042 2024/13/45\n" + extTRF, "122 90'+30''\n" + extTRF, "XXS W=1.0 D=1.0\n" + extTRF} {
		f.Add([]byte(seed))
	}
	s, err := Open(Config{Path: f.TempDir() + "/fuzz.db"})
	if err != nil {
		f.Fatal(err)
	}
	defer s.Close()
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := ParseTRF(data)
		if err == nil {
			_, _, err = s.ImportTRF(context.Background(), Event{Variant: "international"}, ev)
		}
		if err == nil {
			return
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("error %v is not an *Error", err)
		}
		if (e.Code != "director.trf" && e.Code != "director.trf-line") || e.Args["line"] == "" || e.Args["line"] == "0" {
			t.Fatalf("error %q (%s %v) names no line of the file", err, e.Code, e.Args)
		}
	})
}

// TestImportTRFOldPAB: older files write the pairing-allocated bye as
// "0000 - +" (a win without an opponent) and a zero-point bye as
// "0000 - -"; they import as the round's PAB and a Z, and export as U and Z.
func TestImportTRFOldPAB(t *testing.T) {
	old := strings.NewReplacer("0000 - U", "0000 - +", "0000 - Z", "0000 - -").Replace(allCodesTRF)
	s := newStore(t, nil)
	tev, err := ParseTRF([]byte(old))
	must(t, err)
	ev, _, err := s.ImportTRF(context.Background(), Event{Variant: "international"}, tev)
	must(t, err)
	sn := get(t, s, ev.ID)
	if sn.Rounds[1].Bye == 0 || sn.Player(sn.Rounds[1].Bye).Number != 5 {
		t.Errorf("round 2's pairing-allocated bye: player id %d, want player 5's", sn.Rounds[1].Bye)
	}
	if got := sn.State()[4].Score(sn.Event.Scoring); got != 1+2+2 {
		t.Errorf("player 5 scores %d units, want 5 (a draw, the PAB, a full-point bye)", got)
	}
	var buf bytes.Buffer
	must(t, sn.WriteTRF(&buf))
	for _, want := range []string{"6 w =  0000 - U  0000 - F", "5 b =  0000 - H  0000 - Z"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the export lacks %q:\n%s", want, buf.String())
		}
	}
}
