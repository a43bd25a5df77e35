package director

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// numbers is the event's players as "number:name" in number order.
func numbers(sn *Snapshot) string {
	var out []string
	for _, p := range sn.Seeded() {
		out = append(out, fmt.Sprintf("%s=%02d", p.Name, p.Number))
	}
	return strings.Join(out, " ")
}

// TestSeedingOrder: the starting numbers follow rating, then title (GMI
// before MI before MF before none, FIDE C.04.1 A.2's order with FMJD's
// titles), then name, whatever order the players came in.
func TestSeedingOrder(t *testing.T) {
	s := newStore(t, testPair)
	ctx := context.Background()
	ev, _, err := s.Create(ctx, Event{Name: "Seeds", Rounds: 3})
	must(t, err)
	_, err = s.AddPlayers(ctx, ev.ID, []Player{
		{Name: "Zed", Rating: 2300}, {Name: "Bo", Rating: 2300, Title: "mf"}, {Name: "Al", Rating: 2300},
		{Name: "Cy", Rating: 2300, Title: "GMI"}, {Name: "Di", Rating: 2400}, {Name: "Ed", Rating: 2300, Title: "MI"}, {Name: "Fy"},
	})
	must(t, err)
	if got, want := numbers(get(t, s, ev.ID)), "Di=01 Cy=02 Ed=03 Bo=04 Al=05 Zed=06 Fy=07"; got != want {
		t.Fatalf("seeding %s, want %s", got, want)
	}
	if TitleRank("gm") != 1 || TitleRank("WFM") != 6 || TitleRank("") != 99 || TitleRank("XYZ") != 99 {
		t.Error("TitleRank")
	}
}

// TestEditBeforeRound1: every field of a player is corrected before
// round 1; a new rating moves the starting numbers, the audit log names
// each change, and a name that makes two players alike is refused until
// confirmed.
func TestEditBeforeRound1(t *testing.T) {
	s := newStore(t, testPair)
	ctx := context.Background()
	id, _ := newEvent(t, s, Swiss, 3, 4) // A 2000, B 1990, C 1980, D 1970
	np := Player{Name: "Dora Lund", Club: "Bergen SK", Federation: "nor", FedID: "4711", Rating: 2100, Title: "mf"}
	must(t, s.EditPlayer(ctx, id, 4, np, false))
	sn := get(t, s, id)
	p := sn.Player(4)
	if p.Name != "Dora Lund" || p.Club != "Bergen SK" || p.Federation != "NOR" || p.FedID != "4711" || p.Rating != 2100 || p.Title != "MF" || p.Number != 1 {
		t.Fatalf("edited: %+v", *p)
	}
	a, _ := s.AuditLog(ctx, id)
	last := a[len(a)-1]
	if last.Action != "edit-player" || !strings.Contains(last.Detail, `rating "1970" -> "2100"`) || !strings.Contains(last.Detail, `name "Player D" -> "Dora Lund"`) ||
		!strings.Contains(last.Detail, "before round 1") {
		t.Fatalf("audit: %+v", last)
	}
	// Player C renamed as Dora Lund of the same club: refused, then confirmed.
	same := Player{Name: "dora  lund", Club: "Bergen SK", Rating: 1980}
	if err := s.EditPlayer(ctx, id, 3, same, false); code(err) != "director.duplicate-club" {
		t.Fatalf("a look-alike: %v", err)
	}
	must(t, s.EditPlayer(ctx, id, 3, same, true))
	// Nothing changed: no audit line.
	n := len(must2(s.AuditLog(ctx, id)))
	must(t, s.EditPlayer(ctx, id, 3, same, true))
	if len(must2(s.AuditLog(ctx, id))) != n {
		t.Error("an edit that changes nothing is audited")
	}
	if err := s.EditPlayer(ctx, id, 3, Player{Name: ""}, true); code(err) != "director.bad-field" {
		t.Errorf("an empty name: %v", err)
	}
	if err := s.EditPlayer(ctx, id, 99, np, true); code(err) != "director.unknown-player" {
		t.Errorf("an unknown player: %v", err)
	}
}

func must2[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestDuplicates: a player with the same name and federation id, or the
// same name and club, as one entered is refused by the form and, with its
// line, by a CSV import (also two lines of one file), unless confirmed;
// two people of one name with different federation ids are not refused.
func TestDuplicates(t *testing.T) {
	s := newStore(t, testPair)
	ctx := context.Background()
	ev, _, err := s.Create(ctx, Event{Name: "Dups", Rounds: 3})
	must(t, err)
	_, err = s.AddPlayers(ctx, ev.ID, []Player{{Name: "Ingrid Hansen", Club: "Bergen SK", FedID: "111"}, {Name: "Per Olsen", Club: "Oslo DK"}})
	must(t, err)
	if _, err := s.AddPlayers(ctx, ev.ID, []Player{{Name: "ingrid hansen", FedID: "111"}}); code(err) != "director.duplicate-fed_id" {
		t.Fatalf("same name and id: %v", err)
	}
	var e *Error
	_, err = s.AddPlayers(ctx, ev.ID, []Player{{Name: "Per Olsen", Club: "Oslo DK", Rating: 1500}})
	if !errors.As(err, &e) || e.Code != "director.duplicate-club" || e.Args["number"] == "" || !strings.Contains(e.Error(), "Per Olsen (Oslo DK)") {
		t.Fatalf("same name and club: %v", err)
	}
	// Another Ingrid Hansen with another federation id is another person.
	if _, err := s.AddPlayers(ctx, ev.ID, []Player{{Name: "Ingrid Hansen", Club: "Bergen SK", FedID: "222"}}); err != nil {
		t.Fatalf("two people of one name: %v", err)
	}
	csv := "name,club,fed_id\nAnne Dahl,Tromsø\nIngrid Hansen,Bergen SK,111\nKari Nes,Bodø\nkari nes,Bodø\n"
	ps, lines, err := ParsePlayerLines([]byte(csv))
	must(t, err)
	_, err = s.AddPlayersWith(ctx, ev.ID, ps, AddOptions{Lines: lines})
	var ce *CSVError
	if !errors.As(err, &ce) || len(ce.Problems) != 2 {
		t.Fatalf("the CSV's look-alikes: %v", err)
	}
	if got := ce.Problems[0].Error(); !strings.HasPrefix(got, "CSV line 3: Ingrid Hansen looks like Ingrid Hansen (Bergen SK, 111)") {
		t.Errorf("line 3: %q", got)
	}
	if got := ce.Problems[1]; got.Code != "director.csv-twice" || got.Args["line"] != "5" || got.Args["other"] != "4" {
		t.Errorf("line 5: %v", got)
	}
	if n := len(get(t, s, ev.ID).Players); n != 3 {
		t.Fatalf("a refused import entered players: %d", n)
	}
	if _, err := s.AddPlayersWith(ctx, ev.ID, ps, AddOptions{Lines: lines, Confirm: true}); err != nil {
		t.Fatal(err)
	}
	if n := len(get(t, s, ev.ID).Players); n != 7 {
		t.Fatalf("confirmed import: %d players", n)
	}
	a := must2(s.AuditLog(ctx, ev.ID))
	if l := a[len(a)-1]; !strings.Contains(l.Detail, "kari nes") || !strings.Contains(l.Detail, "looks like") || !strings.Contains(l.Detail, "confirmed as another person") {
		t.Errorf("the confirmed look-alike's audit line: %q", l.Detail)
	}
}

// TestRemovePlayer: before round 1 a player is removed and the numbers
// close up; after round 1 a player entered by mistake who never played
// (absent, a late entry) is removed, the numbers above move up and the
// results keep their games; one who has played is refused, and so is any
// in a round-robin.
func TestRemovePlayer(t *testing.T) {
	s := newStore(t, testPair)
	ctx := context.Background()
	id, _ := newEvent(t, s, Swiss, 4, 7) // A..G
	must(t, s.RemovePlayer(ctx, id, 2))  // B, number 2
	if got := numbers(get(t, s, id)); got != "Player A=01 Player C=02 Player D=03 Player E=04 Player F=05 Player G=06" {
		t.Fatalf("after removing B: %s", got)
	}
	// The phantom: entered twice, withdrawn before round 1 (absent, Z).
	ps, err := s.AddPlayers(ctx, id, []Player{{Name: "Phantom", Club: "X", Rating: 1995}})
	must(t, err)
	ph := ps[0].ID
	if ps[0].Number != 2 {
		t.Fatalf("the phantom is number %d", ps[0].Number)
	}
	must(t, s.Withdraw(ctx, id, ph))
	must(t, s.PairRound(ctx, id, 1, nil))
	playRound(t, s, id, 1)
	sn := get(t, s, id)
	if k := sn.Rounds[0].Absent[ph]; k != tally.ZeroBye {
		t.Fatalf("the phantom in round 1: %q", k)
	}
	before, err := sn.Standings()
	must(t, err)
	must(t, s.RemovePlayer(ctx, id, ph))
	sn = get(t, s, id)
	if sn.Player(ph) != nil || len(sn.Rounds[0].Absent) != 0 {
		t.Fatalf("the phantom is still there: %+v", sn.Rounds[0])
	}
	if got := numbers(sn); got != "Player A=01 Player C=02 Player D=03 Player E=04 Player F=05 Player G=06" {
		t.Fatalf("numbers after removing the phantom: %s", got)
	}
	after, err := sn.Standings()
	must(t, err)
	if len(after) != len(before)-1 {
		t.Fatalf("standings %d lines, were %d", len(after), len(before))
	}
	for _, st := range after {
		for _, b := range before {
			if b.Player.ID == st.Player.ID && b.Score != st.Score {
				t.Errorf("%s scored %d, now %d", st.Player.Name, b.Score, st.Score)
			}
		}
	}
	a := must2(s.AuditLog(ctx, id))
	if l := a[len(a)-1]; l.Action != "remove-player" || !strings.Contains(l.Detail, "Phantom (X)") || !strings.Contains(l.Detail, "never having played") {
		t.Errorf("audit: %+v", l)
	}
	// Player A played round 1; a late entry has not.
	late, err := s.AddPlayers(ctx, id, []Player{{Name: "Late"}})
	must(t, err)
	if got := get(t, s, id).Removable(); len(got) != 1 || got[0] != late[0].ID {
		t.Fatalf("removable after round 1: %v", got)
	}
	must(t, s.RemovePlayer(ctx, id, late[0].ID))
	// The removed ids are not given again.
	again, err := s.AddPlayers(ctx, id, []Player{{Name: "Later"}})
	must(t, err)
	if again[0].ID <= late[0].ID {
		t.Fatalf("a new player has id %d; %d was removed", again[0].ID, late[0].ID)
	}
	must(t, s.RemovePlayer(ctx, id, again[0].ID))
	if err := s.RemovePlayer(ctx, id, 1); code(err) != "director.has-played" {
		t.Fatalf("removing a player who played: %v", err)
	}
	// Round 2 pairs the six without a gap in the numbers.
	must(t, s.PairRound(ctx, id, 2, nil))
	if n := len(get(t, s, id).Rounds[1].Boards); n != 3 {
		t.Fatalf("round 2 has %d boards", n)
	}

	rr, _ := newEvent(t, s, RoundRobin, 3, 4)
	must(t, s.PairRound(ctx, rr, 1, nil))
	if err := s.RemovePlayer(ctx, rr, 4); code(err) != "director.rr-remove" {
		t.Fatalf("removing from a round-robin: %v", err)
	}
}

// TestEditAfterRound1: after round 1 a rating is corrected (audited), the
// starting numbers stay, and the standings and the TRF carry the new
// rating.
func TestEditAfterRound1(t *testing.T) {
	s := newStore(t, testPair)
	ctx := context.Background()
	id, _ := newEvent(t, s, Swiss, 3, 4)
	must(t, s.PairRound(ctx, id, 1, nil))
	playRound(t, s, id, 1)
	p := *get(t, s, id).Player(4)
	p.Rating = 2200
	p.Name = "Player D."
	must(t, s.EditPlayer(ctx, id, 4, p, false))
	sn := get(t, s, id)
	if q := sn.Player(4); q.Rating != 2200 || q.Number != 4 {
		t.Fatalf("after the correction: %+v", *q)
	}
	a := must2(s.AuditLog(ctx, id))
	if l := a[len(a)-1]; l.Action != "edit-player" || !strings.Contains(l.Detail, `rating "1970" -> "2200"`) || !strings.Contains(l.Detail, "after round 1") {
		t.Errorf("audit: %+v", l)
	}
	var b strings.Builder
	must(t, sn.WriteTRF(&b))
	if !strings.Contains(b.String(), "2200") || !strings.Contains(b.String(), "Player D.") {
		t.Errorf("the TRF misses the corrected player:\n%s", b.String())
	}
}

// TestSetSeeding: the director orders the starting numbers by hand before
// round 1 (audited); a later entry gets the next number; the order is
// refused when it misses or repeats a player, and after round 1; an empty
// order goes back to the ranking.
func TestSetSeeding(t *testing.T) {
	s := newStore(t, testPair)
	ctx := context.Background()
	id, _ := newEvent(t, s, Swiss, 3, 3) // A 1, B 2, C 3
	if err := s.SetSeeding(ctx, id, []int{3, 1}); code(err) != "director.bad-seeding" {
		t.Fatalf("two of three: %v", err)
	}
	if err := s.SetSeeding(ctx, id, []int{3, 1, 1}); code(err) != "director.bad-seeding" {
		t.Fatalf("one twice: %v", err)
	}
	must(t, s.SetSeeding(ctx, id, []int{3, 1, 2}))
	sn := get(t, s, id)
	if got := numbers(sn); got != "Player C=01 Player A=02 Player B=03" || sn.Event.Seeding != SeedManual {
		t.Fatalf("by hand: %s (%q)", got, sn.Event.Seeding)
	}
	_, err := s.AddPlayers(ctx, id, []Player{{Name: "Strong", Rating: 2700}})
	must(t, err)
	if got := numbers(get(t, s, id)); got != "Player C=01 Player A=02 Player B=03 Strong=04" {
		t.Fatalf("a later entry: %s", got)
	}
	a := must2(s.AuditLog(ctx, id))
	found := false
	for _, l := range a {
		found = found || (l.Action == "seeding" && strings.Contains(l.Detail, "Player C 3 -> 1"))
	}
	if !found {
		t.Error("the seeding is not audited")
	}
	must(t, s.SetSeeding(ctx, id, nil))
	if got := numbers(get(t, s, id)); got != "Strong=01 Player A=02 Player B=03 Player C=04" {
		t.Fatalf("back to the ranking: %s", got)
	}
	must(t, s.PairRound(ctx, id, 1, nil))
	if err := s.SetSeeding(ctx, id, []int{1, 2, 3, 4}); code(err) != "director.seeding-fixed" {
		t.Fatalf("after round 1: %v", err)
	}
}

// TestMigrateTitle: a file of schema version 1 (no title column) opens,
// gains the column (through version 2's tables) and version 4's year of
// birth, games and K, and keeps its players.
func TestMigrateTitle(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.db")
	db, err := sql.Open("sqlite", "file:"+path)
	must(t, err)
	_, err = db.Exec(schema + "PRAGMA application_id = 1145655877; PRAGMA user_version = 1;" +
		`INSERT INTO events VALUES ('e1', x'00', 0, '{"name":"Old","system":"swiss","rounds":3}');
		INSERT INTO players (event, id, number, name) VALUES ('e1', 1, 1, 'Old Timer');`)
	must(t, err)
	db.Close()
	s, err := Open(Config{Path: path})
	must(t, err)
	defer s.Close()
	sn, err := s.Get(context.Background(), "e1")
	must(t, err)
	if len(sn.Players) != 1 || sn.Players[0].Name != "Old Timer" || sn.Players[0].Title != "" {
		t.Fatalf("migrated: %+v", sn.Players)
	}
	must(t, s.EditPlayer(context.Background(), "e1", 1, Player{Name: "Old Timer", Title: "GMI", Born: 1950, Games: 300, K: 10}, false))
	sn, err = s.Get(context.Background(), "e1")
	must(t, err)
	if p := sn.Players[0]; p.Title != "GMI" || p.Born != 1950 || p.Games != 300 || p.K != 10 {
		t.Errorf("after the edit: %+v", p)
	}
}

// BenchmarkLookAlikes compares a 500-line import with a field of 500,
// every name shared (the worst case: each line meets its namesake), as
// AddPlayersWith does before entering them.
func BenchmarkLookAlikes(b *testing.B) {
	sn := &Snapshot{}
	var ps []Player
	lines := make([]int, 500)
	for i := range 500 {
		sn.Players = append(sn.Players, Player{ID: i + 1, Number: i + 1, Name: fmt.Sprintf("Player %03d", i), Club: "A", FedID: fmt.Sprint(i)})
		ps = append(ps, Player{Name: fmt.Sprintf("player %03d", i), Club: "B", FedID: fmt.Sprint(1000 + i)})
		lines[i] = i + 2
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := sn.duplicates(ps, lines); err != nil {
			b.Fatal(err)
		}
	}
}
