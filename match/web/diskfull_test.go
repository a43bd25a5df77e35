//go:build linux

package web

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"net/http/httptest"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/match/people/director"
	"github.com/draughts-arbiter/arbiter/match/people/online"
)

// smallDisk mounts a tmpfs of size bytes for the test; it skips (but
// fails under CI=true) where it cannot mount one.
func smallDisk(t *testing.T, size int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "disk")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+strconv.Itoa(size))
	if err != nil {
		msg := "a full disk is tested on a small tmpfs, which only root can mount: " + err.Error()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// fill writes a file on dir's disk until it is full; removing the file
// frees the space.
func fill(t *testing.T, dir string) string {
	t.Helper()
	name := filepath.Join(dir, "filler")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 4096)
	for {
		if _, err := f.Write(block); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return name
		}
	}
}

// Finding 2: a short full disk pauses a game with its clocks stopped and
// says why; the server answers 503 with that reason (not 500, not 409
// refused.broken); nothing acknowledged is lost; the player to move is not
// charged for the outage; the game resumes by itself when writing works.
func TestHoldDiskFull(t *testing.T) {
	disk := smallDisk(t, 4<<20)
	clock := &fakeClock{t: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
	logs := &syncBuffer{}
	log := zerolog.New(logs)
	hall, err := online.Open(context.Background(), online.Config{Path: filepath.Join(disk, "games.db"), Log: log,
		Now: clock.now, RetryEvery: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	st, err := director.Open(director.Config{Path: filepath.Join(disk, "events.db")})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, hall: hall, log: logs}
	srv, err := New(Config{Hall: hall, Log: log, Limits: unlimited, Director: st})
	if err != nil {
		t.Fatal(err)
	}
	e.srv = srv
	e.hs = httptestServer(srv)
	t.Cleanup(func() { srv.Stop(); e.hs.Close(); hall.Close(); st.Close() })
	d := &dirEnv{env: e, store: st}
	tok, _ := d.createEvent(`{"name":"Full Disk Open","variant":"international","system":"swiss","rounds":3}`)

	g := e.create(`{"variant":"international","time_control":"600","beginner":true}`)
	e.playLegal(g) // white
	e.playLegal(g) // black: white's clock runs
	clock.add(5 * time.Second)
	before := e.snap(g.tokens["white"])
	white := before.State.Clocks.White // 600 s less the 5 s white thought

	filler := fill(t, disk)
	legal := before.Legal[0]
	// White moves after 5 s: the store does not take it.
	status, b := e.act(g.tokens["white"], `{"kind":"move","move":"`+legal+`"}`)
	if status != 503 || errorCode(b) != "refused.cannot-save" || !strings.Contains(string(b), "disk full") {
		t.Fatalf("a move on a full disk: %d %s, want 503 refused.cannot-save saying disk full", status, b)
	}
	clock.add(time.Minute) // the outage
	s := e.snap(g.tokens["white"])
	reason := snapReason(t, e, g.tokens["white"])
	if s.State.Status != "paused" || !strings.Contains(reason, "the server cannot save: disk full") || s.State.Clocks.Running != "" {
		t.Fatalf("during the outage the game is %s (%q), clock running %q; want paused, saying why, clocks stopped",
			s.State.Status, reason, s.State.Clocks.Running)
	}
	if s.State.Ply != before.State.Ply || len(s.Moves) != len(before.Moves) {
		t.Fatalf("the move not stored shows: ply %d, want %d", s.State.Ply, before.State.Ply)
	}
	if status, b := e.act(g.tokens["white"], `{"kind":"move","move":"`+legal+`"}`); status != 503 || errorCode(b) != "refused.cannot-save" {
		t.Fatalf("a second try during the outage: %d %s", status, b)
	}
	// Creating a game, or a director's action, is 503 with the reason too.
	resp, b := e.do("POST", "/api/games", `{"variant":"international"}`)
	if resp.StatusCode != 503 || !strings.Contains(string(b), "disk full") {
		t.Fatalf("creating a game on a full disk: %d %s, want 503 saying disk full", resp.StatusCode, b)
	}
	resp, b = e.do("POST", "/api/d/"+tok+"/add-players", `{"players":[{"name":"Anna Berg"},{"name":"Bo Dahl"}]}`)
	if resp.StatusCode != 503 || !strings.Contains(string(b), "disk full") {
		t.Fatalf("a director's action on a full disk: %d %s, want 503 saying disk full", resp.StatusCode, b)
	}

	// Space again: the game goes on by itself.
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the game to resume", func() bool { return e.snap(g.tokens["white"]).State.Status == "running" })
	s = e.snap(g.tokens["white"])
	if s.State.Clocks.White != white {
		t.Errorf("white's clock %d ms after the outage, want %d (the outage is not charged)", s.State.Clocks.White, white)
	}
	if status, b := e.act(g.tokens["white"], `{"kind":"move","move":"`+legal+`"}`); status != 200 {
		t.Fatalf("the move after the outage: %d %s (not 409 refused.broken)", status, b)
	}
	if s := e.snap(g.tokens["white"]); s.State.Ply != before.State.Ply+1 || s.State.Status != "running" {
		t.Fatalf("after the outage: ply %d %s", s.State.Ply, s.State.Status)
	}
	if resp, b := e.do("POST", "/api/d/"+tok+"/add-players", `{"players":[{"name":"Anna Berg"},{"name":"Bo Dahl"}]}`); resp.StatusCode != 200 {
		t.Fatalf("the director after the outage: %d %s", resp.StatusCode, b)
	}
}

// httptestServer serves srv as newEnv does.
func httptestServer(srv *Server) *httptest.Server {
	hs := httptest.NewUnstartedServer(srv.Handler())
	hs.Config = srv.HTTPServer()
	hs.Start()
	return hs
}

// snapReason is the reason the game's state gives.
func snapReason(t *testing.T, e *env, token string) string {
	t.Helper()
	_, b := e.do("GET", "/api/g/"+token, "")
	var v struct {
		State struct {
			Reason string `json:"reason"`
		} `json:"state"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v.State.Reason
}
