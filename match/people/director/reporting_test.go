package director

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// pairedRound pairs and publishes round 1 of a 4-player Swiss and
// returns its result links.
func pairedRound(t *testing.T) (*Store, string, string, []BoardLinks) {
	t.Helper()
	s := newStore(t, testPair)
	ctx := context.Background()
	id, tok := newEvent(t, s, Swiss, 3, 4)
	must(t, s.PairRound(ctx, id, 1, nil))
	if _, err := s.ReportLinks(ctx, id, tok, 1); code(err) != "director.not-published" {
		t.Fatalf("links of a round not published: %v", err)
	}
	must(t, s.Publish(ctx, id, 1))
	links, err := s.ReportLinks(ctx, id, tok, 1)
	must(t, err)
	if len(links) != 2 {
		t.Fatalf("%d boards with links, want 2", len(links))
	}
	return s, id, tok, links
}

// TestReportAgree: both players report the same result from their links:
// it is recorded as the players'; the links are made once (asking again
// gives the same secrets), are 256-bit base64url, differ from each other,
// and the file holds only their hashes and sealed copies.
func TestReportAgree(t *testing.T) {
	s, id, tok, links := pairedRound(t)
	ctx := context.Background()
	again, err := s.ReportLinks(ctx, id, tok, 1)
	must(t, err)
	seen := map[string]bool{}
	for i, l := range links {
		if again[i] != l {
			t.Errorf("board %d: links changed on asking again: %v then %v", l.Board, l, again[i])
		}
		for _, sec := range []string{l.White, l.Black} {
			if len(sec) != 43 || seen[sec] || strings.ContainsAny(sec, "+/=") {
				t.Errorf("secret %q: not a fresh 256-bit base64url secret", sec)
			}
			seen[sec] = true
		}
	}
	if _, err := s.ReportLinks(ctx, id, "not-the-director", 1); code(err) != "director.unknown-event" {
		t.Errorf("links with a wrong director's secret: %v", err)
	}
	b1 := links[0]
	v, err := s.Report(ctx, b1.White, "1-0")
	must(t, err)
	if v.Side != "white" || v.Mine != "1-0" || v.Theirs != "" || v.Result != "" || !v.Open || v.Disputed {
		t.Fatalf("after White's report: %+v", v)
	}
	v, err = s.BoardReportOf(ctx, b1.Black)
	must(t, err)
	if v.Side != "black" || v.Theirs != "1-0" || v.Mine != "" || v.White.Name == "" || len(v.Choices) != 3 {
		t.Fatalf("Black's page: %+v", v)
	}
	v, err = s.Report(ctx, b1.Black, "1-0")
	must(t, err)
	if v.Result != "1-0" || v.Source != SourcePlayers || v.Label != "2-0" {
		t.Fatalf("after both agree: %+v", v)
	}
	b := get(t, s, id).Rounds[0].Boards[0]
	if b.WhiteResult != tally.Win || b.BlackResult != tally.Loss || b.Source != SourcePlayers {
		t.Errorf("board stored: %+v", b)
	}
	// The same word again is no change; another is refused: the result is in.
	if _, err := s.Report(ctx, b1.Black, "1-0"); err != nil {
		t.Errorf("the same result again: %v", err)
	}
	if _, err := s.Report(ctx, b1.Black, "0-1"); code(err) != "director.board-done" {
		t.Errorf("another result after it is in: %v", err)
	}
	// The file: no secret in clear.
	db, err := sql.Open("sqlite", filepath.Join(s.path))
	must(t, err)
	defer db.Close()
	var dump strings.Builder
	rows, err := db.Query("SELECT hex(hash), hex(sealed) FROM passes")
	must(t, err)
	for rows.Next() {
		var h, sealed string
		must(t, rows.Scan(&h, &sealed))
		dump.WriteString(h + sealed)
	}
	rows.Close()
	for sec := range seen {
		if strings.Contains(dump.String(), strings.ToUpper(sec)) {
			t.Errorf("a secret is stored in clear")
		}
	}
	log, err := s.AuditLog(ctx, id)
	must(t, err)
	var actions []string
	for _, a := range log {
		actions = append(actions, a.Action+": "+a.Detail)
	}
	all := strings.Join(actions, "\n")
	for _, want := range []string{"links: round 1: 4 result links made", "report: round 1 board 1: White", "result: round 1 board 1: 2-0 (players)"} {
		if !strings.Contains(all, want) {
			t.Errorf("audit log lacks %q:\n%s", want, all)
		}
	}
	for sec := range seen {
		if strings.Contains(all, sec) {
			t.Errorf("the audit log holds a secret")
		}
	}
}

// TestReportDisagree: the players disagree: nothing is recorded, the
// director's claims flag it, the director settles it (the director's word
// stands); a player may change their word before.
func TestReportDisagree(t *testing.T) {
	s, id, _, links := pairedRound(t)
	ctx := context.Background()
	b2 := links[1]
	_, err := s.Report(ctx, b2.White, "½-½")
	must(t, err)
	v, err := s.Report(ctx, b2.Black, "0-1")
	must(t, err)
	if !v.Disputed || v.Result != "" || v.Mine != "0-1" || v.Theirs != "=-=" {
		t.Fatalf("a disagreement: %+v", v)
	}
	cl, err := s.RoundClaims(ctx, id, 1)
	must(t, err)
	if got := cl[2]; got != (Claims{White: "=-=", Black: "0-1", Disputed: true}) || len(cl) != 1 {
		t.Fatalf("director's claims: %+v", cl)
	}
	if b := get(t, s, id).Rounds[0].Boards[1]; b.Done() {
		t.Fatalf("a disputed board has a result: %+v", b)
	}
	if _, err := s.Record(ctx, id, 1, 2, [2]tally.Result{tally.Draw, tally.Draw}, "director"); err != nil {
		t.Fatal(err)
	}
	cl, err = s.RoundClaims(ctx, id, 1)
	must(t, err)
	if cl[2].Disputed {
		t.Errorf("still disputed once the director decided: %+v", cl[2])
	}
	v, err = s.BoardReportOf(ctx, b2.Black)
	must(t, err)
	if v.Result != "=-=" || v.Source != "director" || v.Disputed {
		t.Errorf("Black's page after the director decided: %+v", v)
	}
	// Changing one's word before the other agrees: board 1.
	b1 := links[0]
	_, err = s.Report(ctx, b1.White, "0-1")
	must(t, err)
	_, err = s.Report(ctx, b1.White, "1-0")
	must(t, err)
	v, err = s.Report(ctx, b1.Black, "1-0")
	must(t, err)
	if v.Result != "1-0" {
		t.Errorf("after White changed their word and Black agreed: %+v", v)
	}
	log, err := s.AuditLog(ctx, id)
	must(t, err)
	found := false
	for _, a := range log {
		found = found || (a.Action == "dispute" && strings.Contains(a.Detail, "round 1 board 2: the players disagree"))
	}
	if !found {
		t.Errorf("no dispute in the audit log: %+v", log)
	}
}

// TestReportRefusals: what a result link refuses, each with its code; an
// unknown, tampered or stale link is the same ErrUnknownPass.
func TestReportRefusals(t *testing.T) {
	s, id, tok, links := pairedRound(t)
	ctx := context.Background()
	w := links[0].White
	tampered := w[:len(w)-1] + string("AB"[strings.IndexByte("AB", w[len(w)-1])+1&1])
	if w[len(w)-1] != 'A' && w[len(w)-1] != 'B' {
		tampered = w[:len(w)-1] + "A"
	}
	// Another first character: "x" + w[1:] was w itself when the random
	// secret began with x (a loaded run's failure, one secret in 64).
	unknown := "x" + w[1:]
	if w[0] == 'x' {
		unknown = "y" + w[1:]
	}
	for _, c := range []struct{ name, secret, outcome, want string }{
		{"unknown", unknown, "1-0", "director.unknown-link"},
		{"tampered", tampered, "1-0", "director.unknown-link"},
		{"empty", "", "1-0", "director.unknown-link"},
		{"too long", strings.Repeat("a", MaxPass+1), "1-0", "director.unknown-link"},
		{"director's secret", tok, "1-0", "director.unknown-link"},
		{"forfeit", w, "+-", "director.report-outcome"},
		{"double forfeit", w, "--", "director.report-outcome"},
		{"nonsense", w, "white won", "director.report-outcome"},
	} {
		if _, err := s.Report(ctx, c.secret, c.outcome); code(err) != c.want {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
	}
	// A check-in link is no result link.
	cl, err := s.CheckInLinks(ctx, id, tok)
	must(t, err)
	for pid, sec := range cl.Players {
		if _, err := s.Report(ctx, sec, "1-0"); code(err) != "director.unknown-link" {
			t.Errorf("player %d's check-in link as a result link: %v", pid, err)
		}
	}
	// The round closed: refused.
	for _, b := range links {
		if _, err := s.Record(ctx, id, 1, b.Board, [2]tally.Result{tally.Win, tally.Loss}, "director"); err != nil {
			t.Fatal(err)
		}
	}
	must(t, s.CloseRound(ctx, id, 1))
	if _, err := s.Report(ctx, w, "1-0"); code(err) != "director.closed" {
		t.Errorf("a closed round: %v", err)
	}
	if _, err := s.ReportLinks(ctx, id, tok, 1); code(err) != "director.closed" {
		t.Errorf("links of a closed round: %v", err)
	}
}

// TestReportStaleLink: a pairing changed by hand after the links were
// made: the old link of a player no longer on that side is unknown.
func TestReportStaleLink(t *testing.T) {
	s := newStore(t, testPair)
	ctx := context.Background()
	id, tok := newEvent(t, s, Swiss, 3, 4)
	must(t, s.PairRound(ctx, id, 1, nil))
	must(t, s.Publish(ctx, id, 1))
	links, err := s.ReportLinks(ctx, id, tok, 1)
	must(t, err)
	must(t, s.SwapColors(ctx, id, 1, 1))
	if _, err := s.BoardReportOf(ctx, links[0].White); code(err) != "director.unknown-link" {
		t.Errorf("White's link after the colours were swapped: %v", err)
	}
	fresh, err := s.ReportLinks(ctx, id, tok, 1)
	must(t, err)
	if fresh[0].White == links[0].White || fresh[0].White == links[0].Black {
		t.Errorf("the swapped board kept an old link")
	}
	if fresh[1] != links[1] {
		t.Errorf("an unchanged board's links changed")
	}
}

// TestCheckIn: players check in by their link and at the tablet; the
// director gives the absent a zero-point bye in one action before the
// round is paired, and the round pairs without them.
func TestCheckIn(t *testing.T) {
	s := newStore(t, testPair)
	ctx := context.Background()
	id, tok := newEvent(t, s, Swiss, 3, 5)
	if _, err := s.AbsentByes(ctx, id); code(err) != "director.no-checkins" {
		t.Fatalf("byes with nobody checked in: %v", err)
	}
	cl, err := s.CheckInLinks(ctx, id, tok)
	must(t, err)
	if len(cl.Players) != 5 || cl.Tablet == "" {
		t.Fatalf("check-in links: %+v", cl)
	}
	sn := get(t, s, id)
	ids := []int{}
	for _, p := range sn.Players {
		ids = append(ids, p.ID)
	}
	// Players 1 and 2 by their links, 3 at the tablet, 4 by the director;
	// 5 does not come.
	for _, pid := range ids[:2] {
		v, err := s.CheckIn(ctx, cl.Players[pid], 0)
		must(t, err)
		if v.Round != 1 || !v.Open || len(v.Players) != 1 || !v.Players[0].CheckedIn || v.Tablet {
			t.Fatalf("player %d checked in: %+v", pid, v)
		}
	}
	if _, err := s.CheckIn(ctx, cl.Players[ids[0]], ids[1]); code(err) != "director.unknown-player" {
		t.Errorf("a player's link checking in another: %v", err)
	}
	v, err := s.CheckIn(ctx, cl.Tablet, ids[2])
	must(t, err)
	if !v.Tablet || len(v.Players) != 5 {
		t.Fatalf("the tablet: %+v", v)
	}
	here := 0
	for _, a := range v.Players {
		if a.CheckedIn {
			here++
		}
	}
	if here != 3 {
		t.Errorf("the tablet shows %d checked in, want 3", here)
	}
	if _, err := s.CheckIn(ctx, cl.Tablet, 999); code(err) != "director.unknown-player" {
		t.Errorf("the tablet, an unknown player: %v", err)
	}
	must(t, s.SetPresent(ctx, id, ids[3], true))
	arr, err := s.Arrivals(ctx, id)
	must(t, err)
	if arr.Round != 1 || len(arr.In) != 4 || arr.In[ids[3]] != ByDirector || arr.In[ids[2]] != ByTablet || arr.In[ids[0]] != ByLink {
		t.Fatalf("arrivals: %+v", arr)
	}
	absent, err := s.AbsentByes(ctx, id)
	must(t, err)
	if len(absent) != 1 || absent[0] != ids[4] {
		t.Fatalf("absent: %v, want [%d]", absent, ids[4])
	}
	must(t, s.PairRound(ctx, id, 1, nil))
	sn = get(t, s, id)
	r := sn.Rounds[0]
	if len(r.Boards) != 2 || r.Absent[ids[4]] != tally.ZeroBye {
		t.Fatalf("round 1 after the byes: %+v", r)
	}
	for _, b := range r.Boards {
		if b.White == ids[4] || b.Black == ids[4] {
			t.Errorf("the absent player is paired")
		}
	}
	// Check-in now is for round 2.
	v, err = s.CheckIn(ctx, cl.Players[ids[4]], 0)
	must(t, err)
	if v.Round != 2 {
		t.Errorf("checking in after round 1 was paired: round %d, want 2", v.Round)
	}
	// A withdrawn player's link no longer opens.
	must(t, s.Withdraw(ctx, id, ids[1]))
	if _, err := s.CheckIn(ctx, cl.Players[ids[1]], 0); code(err) != "director.withdrawn" {
		t.Errorf("a withdrawn player's check-in: %v", err)
	}
	log, err := s.AuditLog(ctx, id)
	must(t, err)
	found := false
	for _, a := range log {
		found = found || (a.Action == "bye" && strings.Contains(a.Detail, "round 1: zero-point bye for the players not checked in: #5 Player E"))
	}
	if !found {
		t.Errorf("no bye line in the audit log: %+v", log)
	}
}

// TestSchemaV1Migrates: a version-1 file (before the players' links)
// opens and gains the new tables, its events intact.
func TestSchemaV1Migrates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.db")
	db, err := sql.Open("sqlite", path)
	must(t, err)
	_, err = db.Exec("BEGIN;" + schema + "PRAGMA application_id = 1145655877; PRAGMA user_version = 1; COMMIT;")
	must(t, err)
	db.Close()
	s, err := Open(Config{Path: path})
	must(t, err)
	defer s.Close()
	ev, tok, err := s.Create(context.Background(), Event{Name: "Old file", Rounds: 1})
	must(t, err)
	if _, err := s.CheckInLinks(context.Background(), ev.ID, tok); err != nil {
		t.Errorf("check-in links on a migrated file: %v", err)
	}
}

// TestCheckInLate: a player given the zero-point bye for absence checks
// in before the round is paired: the bye is lifted and they are paired; a
// bye the player asked for is not lifted by checking in.
func TestCheckInLate(t *testing.T) {
	s := newStore(t, testPair)
	ctx := context.Background()
	id, tok := newEvent(t, s, Swiss, 3, 5)
	cl, err := s.CheckInLinks(ctx, id, tok)
	must(t, err)
	sn := get(t, s, id)
	ids := []int{}
	for _, p := range sn.Players {
		ids = append(ids, p.ID)
	}
	must(t, s.RequestBye(ctx, id, ids[0], 1, tally.HalfBye))
	for _, pid := range ids[1:3] {
		_, err := s.CheckIn(ctx, cl.Players[pid], 0)
		must(t, err)
	}
	absent, err := s.AbsentByes(ctx, id)
	must(t, err)
	if len(absent) != 2 || absent[0] != ids[3] || absent[1] != ids[4] {
		t.Fatalf("absent %v, want %v (the half-point bye asked for is not absence)", absent, ids[3:])
	}
	arr, err := s.Arrivals(ctx, id)
	must(t, err)
	if len(arr.Late) != 2 || len(arr.Expected) != 4 {
		t.Fatalf("arrivals after the byes: %+v", arr)
	}
	v, err := s.CheckIn(ctx, cl.Tablet, ids[3])
	must(t, err)
	if len(v.Players) != 4 {
		t.Errorf("the tablet lists %d players, want 4 (the late ones included)", len(v.Players))
	}
	if _, err := s.CheckIn(ctx, cl.Players[ids[0]], 0); err != nil {
		t.Fatal(err)
	}
	sn = get(t, s, id)
	if k, ok := sn.Requested[1][ids[3]]; ok {
		t.Errorf("the late player keeps a bye %c", k)
	}
	if sn.Requested[1][ids[0]] != tally.HalfBye || sn.Requested[1][ids[4]] != tally.ZeroBye {
		t.Errorf("byes after the late check-in: %v", sn.Requested[1])
	}
	if again, err := s.AbsentByes(ctx, id); err != nil || len(again) != 0 {
		t.Errorf("the byes again: %v %v, want none", again, err)
	}
	must(t, s.PairRound(ctx, id, 1, nil))
	r := get(t, s, id).Rounds[0]
	paired := map[int]bool{r.Bye: true} // three to pair: one has the pairing's bye
	for _, b := range r.Boards {
		paired[b.White], paired[b.Black] = true, true
	}
	if !paired[ids[3]] || paired[ids[4]] || paired[ids[0]] {
		t.Errorf("round 1 pairs %v; want the late player in, the absent one and the half bye out", paired)
	}
}
