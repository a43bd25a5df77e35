package reports

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

// replayRecord applies a record the way the page's viewer does (from,
// to, captures, "+" crowns), with no rules: the test that the record
// carries everything the viewer needs.
func replayRecord(t *testing.T, start, rec string) string {
	t.Helper()
	parts := strings.Split(rec, "|")
	if len(parts) != 3 {
		t.Fatalf("record %q has %d parts", rec, len(parts))
	}
	pos := []byte(start)
	if parts[0] != "" {
		pos = []byte(parts[0])
	}
	if parts[1] == "" {
		return string(pos)
	}
	for _, p := range strings.Split(parts[1], ",") {
		promo := strings.HasSuffix(p, "+")
		p = strings.TrimSuffix(p, "+")
		sq := make([]int, len(p))
		for i := range p {
			sq[i] = strings.IndexByte(recordAlphabet, p[i])
		}
		piece := pos[sq[0]]
		pos[sq[0]] = '.'
		for _, c := range sq[2:] {
			pos[c] = '.'
		}
		if promo {
			piece = piece - 'a' + 'A'
		}
		pos[sq[1]] = piece
	}
	return string(pos)
}

func TestRecordReplaysToTheFinalPosition(t *testing.T) {
	for _, variant := range []string{"english", "international", "russian", "frisian"} {
		v := rules.MustLookup(variant)
		start := positionString(rules.NewPosition(v))
		enc := newRecordEncoder(variant)
		for seed := range 20 {
			pos := rules.NewPosition(v)
			var moves []Move
			for ply := 0; ply < 200; ply++ {
				legal := pos.LegalMoves()
				if len(legal) == 0 {
					break
				}
				m := legal[(ply*7+seed*13)%len(legal)]
				moves = append(moves, Move{Text: pos.MoveTextAmong(m, legal), Score: 0.5, HasScore: ply%2 == 0, Depth: 3})
				pos = pos.Play(m)
			}
			rec, err := enc.encode("", moves)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := replayRecord(t, start, rec), positionString(pos); got != want {
				t.Fatalf("%s game %d: replayed %s, the rules say %s", variant, seed, got, want)
			}
			evals := strings.Split(strings.Split(rec, "|")[2], ",")
			if len(evals) != len(moves) || evals[0] != "50:3" || evals[1] != "" {
				t.Fatalf("%s: evaluations %v", variant, evals[:2])
			}
		}
	}
	// A move the rules do not read ends the record there.
	rec, err := EncodeRecord("english", "", []Move{{Text: "11-15"}, {Text: "99-98"}, {Text: "23-19"}})
	if err != nil || strings.Count(strings.Split(rec, "|")[1], ",") != 0 {
		t.Errorf("record %q (%v), want one ply", rec, err)
	}
	if rec, _ := EncodeRecord("no-such-variant", "", []Move{{Text: "11-15"}}); rec != "" {
		t.Errorf("unknown variant: record %q", rec)
	}
}

func TestIncidents(t *testing.T) {
	ev := Event{Engines: []string{"a", "b"}, Variant: "english", Games: []Game{
		{Round: 1, Board: 1, White: "a", Black: "b", Result: "1-0", Termination: "time forfeit", Reason: "black's flag fell"},
		{Round: 1, Board: 2, White: "b", Black: "a", Result: "1/2-1/2", Termination: "adjudication"},
		{Round: 2, Board: 1, White: "a", Black: "b", Result: "0-1", Termination: "normal",
			PDN: `1. 11-15 {warning: white played "22-17", illegal: a capture is compulsory} 23-19 {warning: Black played "9-13", illegal: a capture is compulsory} 0-1`},
		{Round: 2, Board: 2, White: "b", Black: "a", Result: "1-0", Termination: "engine crashed"},
	}}
	gv, _, err := buildGamesView(ev, ev.Engines)
	if err != nil {
		t.Fatal(err)
	}
	want := []incident{
		{Game: 0, Engine: 1, Kind: "time forfeit", Text: "time forfeit: black's flag fell"},
		{Game: 1, Engine: -1, Kind: "adjudication", Text: "adjudication"},
		// A stored game's note names the side in lower case, a newer one
		// as the referee does; the report says both as the referee does.
		{Game: 2, Engine: 0, Kind: "warning", Text: `White played "22-17", illegal: a capture is compulsory`},
		{Game: 2, Engine: 1, Kind: "warning", Text: `Black played "9-13", illegal: a capture is compulsory`},
		{Game: 3, Engine: 0, Kind: "engine crashed", Text: "engine crashed"},
	}
	if len(gv.Incident) != len(want) {
		t.Fatalf("incidents %+v, want %+v", gv.Incident, want)
	}
	for i := range want {
		if gv.Incident[i] != want[i] {
			t.Errorf("incident %d: %+v, want %+v", i, gv.Incident[i], want[i])
		}
	}
}

// TestRecordFromOpeningFEN: a game from a ballot position carries that
// position in its record, and replays to where the rules end it.
func TestRecordFromOpeningFEN(t *testing.T) {
	const fen = "W:W17,22,23,24,25,26,27,28,29,30,31,32:B1,10,11,12,13,2,3,4,6,7,8,9"
	v := rules.MustLookup("english")
	pos, err := rules.ParseFEN(v, fen)
	if err != nil {
		t.Fatal(err)
	}
	start := positionString(pos)
	var moves []Move
	for ply := 0; ply < 120; ply++ {
		legal := pos.LegalMoves()
		if len(legal) == 0 {
			break
		}
		m := legal[(ply*5+3)%len(legal)]
		moves = append(moves, Move{Text: pos.MoveTextAmong(m, legal)})
		pos = pos.Play(m)
	}
	rec, err := EncodeRecord("english", fen, moves)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rec, start+"|") {
		t.Fatalf("record does not start with the opening's position: %.60s", rec)
	}
	if got, want := replayRecord(t, "", rec), positionString(pos); got != want {
		t.Errorf("replayed %s, the rules say %s", got, want)
	}
}

// TestGamesViewWorkers checks that a cluster's games name their workers
// (interned) and a local game none.
func TestGamesViewWorkers(t *testing.T) {
	ev := Event{Name: "w", Variant: "english", Engines: []string{"a", "b"}, Games: []Game{
		{Round: 1, Board: 1, White: "a", Black: "b", Result: "1-0", Worker: "box-1"},
		{Round: 1, Board: 2, White: "b", Black: "a", Result: "0-1"},
		{Round: 2, Board: 1, White: "a", Black: "b", Result: "1/2-1/2", Worker: "box-1"},
	}}
	gv, _, err := buildGamesView(ev, ev.Engines)
	if err != nil {
		t.Fatal(err)
	}
	if len(gv.Workers) != 1 || gv.Workers[0] != "box-1" {
		t.Fatalf("workers %q, want [box-1]", gv.Workers)
	}
	for i, want := range []int{0, -1, 0} {
		if got := gv.Games[i][9]; got != want {
			t.Errorf("game %d: worker index %d, want %d", i+1, got, want)
		}
	}
}

// TestRecordOfIsEncodeRecord: the record the runner makes from the
// referee's moves at a game's finish (RecordOf) is the one the report
// makes from the stored move texts (EncodeRecord), in every preset the
// viewer draws, from the start and from an opening position, with and
// without evaluations.
func TestRecordOfIsEncodeRecord(t *testing.T) {
	for _, variant := range rules.Presets() {
		v := rules.MustLookup(variant)
		if v.Squares() > len(recordAlphabet) {
			continue
		}
		for seed := range 6 {
			start, fen := rules.NewPosition(v), ""
			pos := start
			var plies []rules.Move
			var moves []Move
			for ply := 0; ply < 160; ply++ {
				legal := pos.LegalMoves()
				if len(legal) == 0 || pos.Outcome() != rules.Ongoing {
					break
				}
				m := legal[(ply*7+seed*13)%len(legal)]
				plies = append(plies, m)
				moves = append(moves, Move{Text: pos.MoveTextAmong(m, legal), Score: float64(ply) / 10, HasScore: ply%3 != 0, Depth: ply % 4})
				pos = pos.Play(m)
				if seed%2 == 1 && ply == 5 {
					// From an opening position: the game so far is its ballot.
					start, fen, plies, moves = pos, pos.FEN(), nil, nil
				}
			}
			want, err := EncodeRecord(variant, fen, moves)
			if err != nil {
				t.Fatal(err)
			}
			evals := moves
			if seed == 2 {
				evals = nil // no scores at all: empty evaluations
				want, _ = EncodeRecord(variant, fen, textsOnly(moves))
			}
			if got := RecordOf(start, fen, plies, evals); got != want {
				t.Fatalf("%s seed %d (%d plies): RecordOf\n%s\nEncodeRecord\n%s", variant, seed, len(plies), got, want)
			}
		}
	}
	if got := RecordOf(rules.NewPosition(rules.MustLookup("english")), "", nil, nil); got != "" {
		t.Errorf("a game of no plies: record %q, want none", got)
	}
}

func textsOnly(ms []Move) []Move {
	out := make([]Move, len(ms))
	for i, m := range ms {
		out[i] = Move{Text: m.Text}
	}
	return out
}

// TestListJSON: the games list and the records written by hand read back
// as encoding/json reads them, and a record that is not one of ours (a
// store's text) cannot end the page's script.
func TestListJSON(t *testing.T) {
	rows := gameRows{{1, 2, -1, 0}, {}, {123456789}}
	b, err := json.Marshal(struct {
		G gameRows `json:"g"`
	}{rows})
	if err != nil {
		t.Fatal(err)
	}
	var back struct{ G [][]int }
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back.G, [][]int(rows)) {
		t.Errorf("games list %s read back as %v (%v)", b, back.G, err)
	}
	recs := []string{"", "|ab,cd+|12:3,", "bbbb..wwWB|" + recordAlphabet + "|", `</script><script>alert("x")</script>`, "é\u2028\\"}
	b, err = recordsJSON(recs)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := json.Unmarshal(b, &got); err != nil || !reflect.DeepEqual(got, recs) {
		t.Errorf("records %s read back as %q (%v)", b, got, err)
	}
	if strings.Contains(string(b), "</script") || strings.Contains(string(b), "\u2028") {
		t.Errorf("records JSON can end the script: %s", b)
	}
}
