package hub

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/rules"
)

func TestForeignProtocol(t *testing.T) {
	for _, tt := range []struct {
		line    string
		version int
		want    string // a word of the protocol named, "" = none
	}{
		{"id name Stockfish 17", 2, "UCI"},
		{"uciok", 2, "UCI"},
		{"option name Hash type spin default 16 min 1 max 33554432", 2, "UCI"},
		{"feature myname=\"Crafty\" done=0", 2, "xboard"},
		{"Error (unknown command): hub", 2, "xboard"},
		{"R01Kingsrow                        W0300050", 2, "DXP"},
		{"Unknown command: 'hub'. Type help for more information.", 2, `"hub"`},
		{"hub: command not found", 2, `"hub"`},
		{"name Scan", 2, "Hub version 1"},
		// A Hub engine's own lines, and banners: never refused.
		{"id name=Scan version=3.1", 2, ""},
		{"param name=variant value=normal type=enum values=\"normal killer\"", 2, ""},
		{"wait", 2, ""},
		{"Kingsrow 1.18f by Ed Gilbert", 2, ""},
		{"Scan 3.1 Copyright (C) 2015-2019 Fabien Letouzey.", 2, ""},
		{"name Scan", 1, ""},
		{"info hub ready", 2, ""},
	} {
		got := ForeignProtocol(tt.line, tt.version)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("ForeignProtocol(%q, %d) = %q, want %q", tt.line, tt.version, got, tt.want)
		}
	}
}

// A real program that is not a Hub engine, as an engine author might start
// by mistake: the arbiter fails at its first line, quoting it, naming Hub
// as what it expected and suggesting proto= and engine-check. The start-up
// timeout is long: the fast failure is the only way the test ends soon, and
// the message (not the clock) tells which path was taken.
func TestStartNotAHubEngine(t *testing.T) {
	v, err := rules.Lookup("english")
	if err != nil {
		t.Fatal(err)
	}
	uci := `while read l; do case "$l" in quit) exit 0;; *) echo "id name Fake 1.0"; echo "id author Nobody"; echo uciok;; esac; done`
	dxp := `printf 'R01%-32sW0300050\n' Sloth; while read l; do :; done`
	unknown := `while read l; do echo "Unknown command: '$l'. Type help for more information."; done`
	for _, tt := range []struct {
		name, body, quote, looks string
	}{
		{"uci", uci, `"id name Fake 1.0"`, "UCI"},
		{"dxp", dxp, `"R01Sloth`, "DXP"},
		{"unknown command", unknown, `"Unknown command: 'hub'.`, `does not know the command "hub"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := New(Options{Name: "x", Command: []string{"/bin/sh", "-c", tt.body}, InitTimeout: 10 * time.Minute, QuitGrace: 100 * time.Millisecond})
			defer p.Close()
			err := p.Start(t.Context(), v)
			var nh *NotHubError
			if !errors.As(err, &nh) {
				t.Fatalf("Start: %v, want a NotHubError", err)
			}
			msg := err.Error()
			for _, want := range []string{tt.quote, tt.looks, "Hub version 2", "proto=", "engine-check"} {
				if !strings.Contains(msg, want) {
					t.Errorf("the message lacks %s:\n%s", want, msg)
				}
			}
			if f, ok := match.AsFault(err); !ok || f.Kind != match.Crash {
				t.Errorf("in a game it must count as the engine's failure to start (a Crash fault): %v", f)
			}
		})
	}
}

// A program that prints something unknown and then nothing more stalls at
// the start-up timeout, as before, but the message now quotes what it
// printed and says what was expected; a silent one says it printed nothing.
// A Hub engine with a banner before its answer starts as before.
func TestStartStallQuotesOutput(t *testing.T) {
	v, err := rules.Lookup("english")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ body, want string }{
		{`echo "MyEngine 0.1 (debug build)"; while read l; do :; done`, `it printed "MyEngine 0.1 (debug build)". The arbiter expected Hub version 2`},
		{`while read l; do :; done`, `it printed nothing. The arbiter expected Hub version 2`},
	} {
		p := New(Options{Name: "x", Command: []string{"/bin/sh", "-c", tt.body}, InitTimeout: 300 * time.Millisecond, QuitGrace: 100 * time.Millisecond})
		err := p.Start(t.Context(), v)
		p.Close()
		f, ok := match.AsFault(err)
		if !ok || f.Kind != match.Stall {
			t.Fatalf("Start: %v, want a stall", err)
		}
		for _, want := range []string{tt.want, "engine-check", "proto="} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("the message lacks %q:\n%s", want, err)
			}
		}
	}
	banner := `echo "MyEngine 0.1 by me"; while read l; do case "$l" in hub) echo "id name=MyEngine"; echo wait;; init) echo ready;; quit) exit 0;; esac; done`
	p := New(Options{Name: "x", Command: []string{"/bin/sh", "-c", banner}, InitTimeout: time.Minute, QuitGrace: 100 * time.Millisecond})
	defer p.Close()
	if err := p.Start(t.Context(), v); err != nil {
		t.Fatalf("a Hub engine with a banner: %v", err)
	}
	if p.ID()["name"] != "MyEngine" {
		t.Errorf("id %v", p.ID())
	}
}
