package online

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/internal/message"
	"github.com/draughts-arbiter/arbiter/internal/poll"
	"github.com/rs/zerolog"
)

func TestRestartAfterClose(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	ft := newFakeTime()
	open := func() *Hall {
		h, err := Open(context.Background(), Config{Path: path, Now: ft.Now, Log: zerolog.Nop()})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	h := open()
	c, err := h.Create(context.Background(), Setup{Variant: "english", TimeControl: "300+5", Policy: "wcdf", White: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	over, _ := h.Create(context.Background(), Setup{})
	act(t, h, over.ID, RoleBlack, Intent{Kind: "resign"})
	play(t, h, c.ID, "9-13")
	ft.advance(7 * time.Second)
	play(t, h, c.ID, "22-18")
	act(t, h, c.ID, RoleBlack, mv("13-9")) // a warning
	act(t, h, c.ID, RoleWhite, Intent{Kind: "offer"})
	h.Presence(c.ID, RoleWhite, true) // White has the game open when the server stops
	ft.advance(4 * time.Second)
	before, err := h.Snapshot(c.ID, RoleArbiter)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	ft.advance(time.Hour) // the server is down
	h = open()
	defer h.Close()
	if b := h.Broken(); len(b) != 0 {
		t.Fatalf("broken games: %v", b)
	}
	after, err := h.Snapshot(c.ID, RoleArbiter)
	if err != nil {
		t.Fatal(err)
	}
	if after.State.FEN != before.State.FEN || after.State.Clocks != before.State.Clocks || after.State.Warnings["black"] != 1 ||
		after.State.Offer != "white" || len(after.Moves) != 2 {
		t.Fatalf("after the restart:\n%+v\nbefore:\n%+v", after.State, before.State)
	}
	if after.V != before.V+1 {
		t.Errorf("version %d, want %d (one resume-after-restart event)", after.V, before.V+1)
	}
	last := after.Messages[len(after.Messages)-1]
	if last.Type != EvResumeAfter || last.Msg.Args["seconds"] != "3600.0" {
		t.Errorf("last message %+v", last)
	}
	// White's page comes back: White is back, not opening the game for
	// the first time; Black, who never opened it, opens it now.
	for _, tc := range []struct {
		role Role
		code string
	}{{RoleWhite, "presence.back"}, {RoleBlack, "presence.joined"}} {
		h.Presence(c.ID, tc.role, true)
		missed, _, err := h.Watch(context.Background(), c.ID, after.V)
		if err != nil || len(missed) == 0 {
			t.Fatalf("%s connects after the restart: no event (%v)", tc.role, err)
		}
		if last := missed[len(missed)-1]; last.Type != EvPresence || last.Msg.Code != tc.code {
			t.Errorf("%s connects after the restart: the log says %q (%s), want %s", tc.role, last.Msg.Text, last.Msg.Code, tc.code)
		}
	}
	// The game goes on, and the time before the stop was charged.
	rep := act(t, h, c.ID, RoleBlack, mv("10-14"))
	if rep.State.Clocks.Black != 305000-4000+5000 {
		t.Errorf("black's clock %d after 4 s", rep.State.Clocks.Black)
	}
	// The finished game is found too, from the store.
	s, err := h.Snapshot(over.ID, RoleSpectator)
	if err != nil || s.State.Result != "1-0" {
		t.Errorf("finished game: %+v %v", s.State, err)
	}
	pdn, err := h.PDN(c.ID)
	if err != nil || !strings.Contains(pdn, "server-down: 3600 seconds charged to neither clock") {
		t.Errorf("PDN: %v\n%s", err, pdn)
	}
}

// TestRestartAfterKill runs a hall in a child process (this test binary),
// kills it with SIGKILL in the middle of a timed game, and opens the
// database again.
func TestRestartAfterKill(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "games.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestChildHall$")
	cmd.Env = append(os.Environ(), "ONLINE_CHILD_DB="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var ready struct {
		ID    string
		Moved time.Time
	}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if line, ok := strings.CutPrefix(sc.Text(), "READY "); ok {
			if err := json.Unmarshal([]byte(line), &ready); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	if ready.ID == "" {
		t.Fatal("the child never got ready")
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	killed := time.Now()

	h, err := Open(context.Background(), Config{Path: path, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	s, err := h.Snapshot(ready.ID, RoleArbiter)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Moves) != 3 || s.State.Status != "running" || s.State.Warnings["white"] != 1 {
		t.Fatalf("after the kill: %d moves, %+v", len(s.Moves), s.State)
	}
	// White's clock ran from its last move until at most the kill (less
	// the down time); never more, never a negative time.
	used := time.Duration(60000-s.State.Clocks.White) * time.Millisecond
	if used < 0 || used > killed.Sub(ready.Moved)+time.Second {
		t.Errorf("white used %v of its clock; the child was killed %v after its last move", used, killed.Sub(ready.Moved))
	}
	if last := s.Messages[len(s.Messages)-1]; last.Type != EvResumeAfter {
		t.Errorf("last message %+v", last)
	}
	rep := act(t, h, ready.ID, RoleWhite, mv("18x9"))
	if rep.State.Turn != "black" {
		t.Errorf("the game does not go on: %+v", rep.State)
	}
}

// TestChildHall is the child of TestRestartAfterKill.
func TestChildHall(t *testing.T) {
	path := os.Getenv("ONLINE_CHILD_DB")
	if path == "" {
		t.Skip("only run as TestRestartAfterKill's child")
	}
	h, err := Open(context.Background(), Config{Path: path, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	c := create(t, h, Setup{Variant: "english", TimeControl: "60", Policy: "wcdf"})
	play(t, h, c.ID, "9-13", "22-18", "10-14")
	act(t, h, c.ID, RoleWhite, mv("18-22")) // a warning, backwards
	moved := time.Now()
	b, _ := json.Marshal(map[string]any{"ID": c.ID, "Moved": moved})
	// Wait until a heartbeat after the last move is written, as a real
	// server would have one (a condition, not a time).
	beat := func() bool {
		var at int64
		err := h.st.db.QueryRow("SELECT at FROM heartbeat WHERE id = 1").Scan(&at)
		return err == nil && at > moved.UnixNano()
	}
	if !poll.Until(time.Minute, 50*time.Millisecond, beat) {
		t.Fatal("no heartbeat written within a minute")
	}
	fmt.Printf("READY %s\n", b)
	time.Sleep(time.Minute) // killed here
}

func TestOpenRefusesForeignAndDamagedFiles(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, []byte("these are my notes, not a database\n"), 0o644)
	half := filepath.Join(dir, "half.db")
	os.WriteFile(half, []byte("SQLite form"), 0o644)
	foreign := filepath.Join(dir, "other.db")
	if _, err := Open(context.Background(), Config{Path: filepath.Join(dir, "good.db"), Log: zerolog.Nop()}); err != nil {
		t.Fatal(err)
	}
	// A SQLite database of another program.
	st, err := openStore(foreign)
	if err != nil {
		t.Fatal(err)
	}
	st.db.Exec("PRAGMA application_id = 7")
	st.close()
	truncated := filepath.Join(dir, "truncated.db")
	h, _ := Open(context.Background(), Config{Path: truncated, Log: zerolog.Nop()})
	for i := 0; i < 50; i++ {
		h.Create(context.Background(), Setup{White: strings.Repeat("n", 60)})
	}
	h.Close()
	b, _ := os.ReadFile(truncated)
	os.WriteFile(truncated, b[:len(b)/2], 0o644)
	for _, tt := range []struct{ path, want string }{
		{text, "not an SQLite database"},
		{half, "not an SQLite database"},
		{foreign, "another program"},
		{truncated, "damaged"},
		{"", "no database file"},
	} {
		_, err := Open(context.Background(), Config{Path: tt.path, Log: zerolog.Nop()})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error saying %q", filepath.Base(tt.path), err, tt.want)
		}
	}
}

func TestBrokenGameIsReportedOthersLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	ft := newFakeTime()
	h, _ := Open(context.Background(), Config{Path: path, Now: ft.Now, Log: zerolog.Nop()})
	good := create(t, h, Setup{})
	bad := create(t, h, Setup{})
	play(t, h, good.ID, "9-13")
	play(t, h, bad.ID, "9-13", "22-18")
	h.Close()
	st, err := openStore(path)
	if err != nil {
		t.Fatal(err)
	}
	// The stored second move no longer makes sense.
	if _, err := st.db.Exec(`UPDATE events SET input = '{"role":0,"intent":{"kind":"move","move":"31-27"}}' WHERE game = ? AND v = 2`, bad.ID); err != nil {
		t.Fatal(err)
	}
	st.close()
	h, err = Open(context.Background(), Config{Path: path, Now: ft.Now, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	b := h.Broken()
	if len(b) != 1 || !strings.Contains(b[bad.ID], "event 2") {
		t.Fatalf("broken: %v", b)
	}
	refused(t, h, bad.ID, RoleWhite, mv("22-18"), message.Conflict)
	act(t, h, good.ID, RoleWhite, mv("22-18"))
}

func TestRestartKeepsPauseAndPendingDecision(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	ft := newFakeTime()
	open := func() *Hall {
		h, err := Open(context.Background(), Config{Path: path, Now: ft.Now, Log: zerolog.Nop()})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	h := open()
	paused := create(t, h, Setup{TimeControl: "60"})
	pending := create(t, h, Setup{TimeControl: "60", Policy: "opponent-decides"})
	play(t, h, paused.ID, "9-13")
	ft.advance(10 * time.Second)
	act(t, h, paused.ID, RoleArbiter, Intent{Kind: "pause", Text: "a phone rang"})
	play(t, h, pending.ID, "9-13", "22-18")
	act(t, h, pending.ID, RoleBlack, mv("13-9"))
	h.Close()
	ft.advance(10 * time.Minute)
	h = open()
	defer h.Close()
	s, _ := h.Snapshot(paused.ID, RoleWhite)
	if s.State.Status != "paused" || s.State.Clocks.White != 50000 {
		t.Fatalf("paused game after the restart: %+v", s.State)
	}
	rep := act(t, h, paused.ID, RoleArbiter, Intent{Kind: "resume"})
	if rep.State.Clocks.White != 50000 || rep.State.Clocks.Running != "white" {
		t.Fatalf("resumed: %+v", rep.State.Clocks)
	}
	s, _ = h.Snapshot(pending.ID, RoleWhite)
	if s.State.Pending == nil || s.State.Pending.Decider != "white" {
		t.Fatalf("pending decision after the restart: %+v", s.State)
	}
	no := false
	rep = act(t, h, pending.ID, RoleWhite, Intent{Kind: "decide", Correct: &no})
	if hasCode(rep.Events, "decision.stands") == nil || rep.State.Ply != 3 {
		t.Fatalf("decision after the restart: %+v %s", rep.State, describe(rep.Events))
	}
}
