package director

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/internal/message"
	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// TestAuditCoded: every line the store writes keeps its code, arguments
// and parts, read back as written; its English detail is its template
// filled in; the composite pieces (the changes of an edit, how a round
// was paired, who entered a result, a result's label) come as coded
// parts, not English inside the line.
func TestAuditCoded(t *testing.T) {
	ctx := context.Background()
	s := newStore(t, testPair)
	id, _ := newEvent(t, s, Swiss, 3, 4)
	must(t, s.EditDetails(ctx, id, Details{Name: "Oslo Open", Site: "Bergen"}))
	must(t, s.PairRound(ctx, id, 1, nil))
	must(t, s.Publish(ctx, id, 1))
	_, err := s.Record(ctx, id, 1, 1, [2]tally.Result{tally.Win, tally.Loss}, "director")
	must(t, err)
	_, err = s.Record(ctx, id, 1, 1, [2]tally.Result{tally.ForfeitLoss, tally.ForfeitWin}, "director")
	must(t, err)
	log, err := s.AuditLog(ctx, id)
	must(t, err)
	byCode := map[string]Audit{}
	for _, a := range log {
		if _, ok := auditText[a.Code]; !ok {
			t.Fatalf("line %+v has no code of the catalog", a)
		}
		if got := (note{a.Code, a.Args, a.Parts}).text(); got != a.Detail {
			t.Errorf("%s: read back it says %q, written %q", a.Code, got, a.Detail)
		}
		byCode[a.Code] = a
	}
	c := byCode["audit.create"]
	if c.Args["name"] != "Test open" || c.Args["rounds"] != "3" || c.Args["variant"] != "international" ||
		partCodes(c.Parts["system"]) != "audit.system.swiss" || c.Detail != `event "Test open", Swiss, 3 rounds, international` {
		t.Errorf("create: %+v", c)
	}
	e := byCode["audit.edit"]
	if partCodes(e.Parts["changes"]) != "audit.change.name audit.change.site" || e.Parts["changes"][1].Args["is"] != "Bergen" ||
		e.Detail != `name "Test open" -> "Oslo Open"; site "Oslo" -> "Bergen"` {
		t.Errorf("edit: %+v", e)
	}
	p := byCode["audit.pair"]
	if p.Args["round"] != "1" || !strings.HasPrefix(p.Args["boards"], "1: #1 Player A-#2 Player B") || partCodes(p.Parts["how"]) != "audit.pairing.dutch" {
		t.Errorf("pair: %+v", p)
	}
	r := byCode["audit.result"]
	if r.Args["board"] != "1" || r.Parts["result"][0].Text != "2-0" || r.Parts["result"][0].Code != "" || partCodes(r.Parts["source"]) != "audit.source.director" ||
		r.Detail != "round 1 board 1: 2-0 (director)" {
		t.Errorf("result: %+v", r)
	}
	ch := byCode["audit.result-changed"]
	if f := ch.Parts["result"][0]; f.Code != "sheet.label.forfeit" || f.Args["score"] != "0-2" || f.Text != "0-2 by forfeit" || ch.Parts["was"][0].Text != "2-0" {
		t.Errorf("result changed: %+v", ch)
	}
}

func partCodes(ps []message.Message) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Code)
	}
	return strings.Join(out, " ")
}

// TestAuditRefusesUnknown: a line of a code, part or action outside the
// catalog is a bug the store refuses, so that a test meets it before a
// director reads a raw code.
func TestAuditRefusesUnknown(t *testing.T) {
	s := newStore(t, testPair)
	for _, c := range []struct {
		action string
		n      note
	}{
		{"create", say("audit.no-such")},
		{"no-such", say("audit.create")},
		{"check-in", say("audit.check-in").with("how", part("audit.how.pigeon"))},
	} {
		err := s.tx(context.Background(), func(tx *sql.Tx) error { return s.audit(tx, "e", c.action, c.n) })
		if err == nil {
			t.Errorf("%s %+v was written", c.action, c.n)
		}
	}
}

// TestMigrateAudit: a file of schema version 4 (audit lines of English
// text only) opens; its old lines read as they were, without a code, and
// the lines written after have theirs.
func TestMigrateAudit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v4.db")
	db, err := sql.Open("sqlite", "file:"+path)
	must(t, err)
	_, err = db.Exec(schema + boardsSchema + titleSchema + kSchema + "PRAGMA application_id = 1145655877; PRAGMA user_version = 4;" +
		`INSERT INTO events VALUES ('e1', x'00', 0, '{"name":"Old","system":"swiss","rounds":3,"variant":"international"}');
		INSERT INTO audit (event, at, action, detail) VALUES ('e1', 1, 'create', 'event "Old", swiss, 3 rounds, international');`)
	must(t, err)
	db.Close()
	s, err := Open(Config{Path: path})
	must(t, err)
	defer s.Close()
	ctx := context.Background()
	_, err = s.AddPlayers(ctx, "e1", []Player{{Name: "Ann", Rating: 1500}})
	must(t, err)
	log, err := s.AuditLog(ctx, "e1")
	must(t, err)
	if len(log) != 2 {
		t.Fatalf("log: %+v", log)
	}
	if old := log[0]; old.Action != "create" || old.Detail != `event "Old", swiss, 3 rounds, international` || old.Code != "" || old.Args != nil || old.Parts != nil {
		t.Errorf("the old line: %+v", old)
	}
	if l := log[1]; l.Code != "audit.add-player.bare" || l.Args["name"] != "Ann" || l.Detail != "1 Ann, rating 1500" {
		t.Errorf("the new line: %+v", l)
	}
}

// A player's entry in the log names the club and the federation given,
// without the empty places ("1 Ann,  , rating 1500" before); the codes of
// entries written before still read.
func TestAuditAddPlayerLine(t *testing.T) {
	for _, tt := range []struct {
		p    Player
		want string
	}{
		{Player{ID: 1, Name: "Ann", Rating: 1500}, "1 Ann, rating 1500"},
		{Player{ID: 2, Name: "Bo", Club: "Bergen SK", Rating: 1600}, "2 Bo, Bergen SK, rating 1600"},
		{Player{ID: 3, Name: "Cas", Federation: "NOR", Rating: 1700}, "3 Cas, NOR, rating 1700"},
		{Player{ID: 4, Name: "Dina", Club: "Bergen SK", Federation: "NOR", Rating: 1800}, "4 Dina, Bergen SK NOR, rating 1800"},
		{Player{ID: 5, Name: "Eva", Club: " ", Rating: 1900}, "5 Eva, rating 1900"},
	} {
		n := addPlayerLine(tt.p)
		if got := auditText.Text(n.code, n.args); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.p, got, tt.want)
		}
	}
	old := auditText.Text("audit.add-player", message.Args("id", "1", "name", "Ann", "club", "C", "federation", "F", "rating", "1500"))
	if old != "1 Ann, C F, rating 1500" {
		t.Errorf("an entry written before reads %q", old)
	}
}

// TestAuditRareLines: the lines the other tests do not write (a seeding
// by hand that changes nothing, players kept apart for some rounds, a
// check-in taken back, the undoing of a pairing with a bye) are in the
// catalog, with their parts.
func TestAuditRareLines(t *testing.T) {
	ctx := context.Background()
	s := newStore(t, testPair)
	id, _ := newEvent(t, s, Swiss, 3, 5)
	must(t, s.SetSeeding(ctx, id, []int{1, 2, 3, 4, 5}))
	must(t, s.SetForbidden(ctx, id, []Group{{Players: []int{1, 2}, From: 1, To: 2}}))
	must(t, s.SetPresent(ctx, id, 3, true))
	must(t, s.SetPresent(ctx, id, 3, false))
	must(t, s.PairRound(ctx, id, 1, nil))
	must(t, s.Undo(ctx, id, 1))
	log, err := s.AuditLog(ctx, id)
	must(t, err)
	var got []string
	for _, a := range log[len(log)-6:] {
		got = append(got, a.Code+" "+partCodes(a.Parts["groups"])+partCodes(a.Parts["how"])+": "+a.Detail)
	}
	want := []string{
		"audit.seeding-same : starting numbers set by hand: no number changed",
		"audit.forbidden audit.group-rounds: kept apart: Player A (1), Player B (2) in rounds 1-2",
		"audit.check-in audit.how.director: #3 Player C present for round 1 (director)",
		"audit.check-out audit.how.director: #3 Player C no longer checked in for round 1 (director)",
	}
	if strings.Join(got[:4], "\n") != strings.Join(want, "\n") {
		t.Errorf("lines\n%s\nwant\n%s", strings.Join(got[:4], "\n"), strings.Join(want, "\n"))
	}
	if u := log[len(log)-1]; u.Code != "audit.undo-bye" || u.Args["bye"] != "#5 Player E" || !strings.HasSuffix(u.Detail, ", bye #5 Player E)") {
		t.Errorf("undo: %+v", u)
	}
}
