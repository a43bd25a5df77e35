package tournament

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
)

// An engine rebuilt between two runs of an event (here a script engine whose
// file changes, and with it the name it gives) is named in a warning when
// the event resumes; an engine that did not change is not.
func TestRebuiltEngineWarnsOnResume(t *testing.T) {
	bin := arbiterBinary(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "engine.sh")
	writeScript := func(name string) {
		text := fmt.Sprintf("#!/bin/sh\nexec %s engine --name %s --level random \"$@\"\n", bin, name)
		if err := os.WriteFile(script, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	text := fmt.Sprintf(`
name: rebuilt
variant: english
time_control: "10+0.1"
engines:
  - {name: s, command: %s}
  - {name: r, command: self engine --level random --seed 2}
games_per_encounter: 4
concurrency: 1
adjudication: {max_moves: 30}
`, script)
	ev, err := configs.Parse([]byte(text), "rebuilt.yaml", "", configs.Options{Self: bin})
	if err != nil {
		t.Fatal(err)
	}
	st := openStore(t, filepath.Join(dir, "out"))

	writeScript("Alpha")
	ctx, cancel := context.WithCancel(context.Background())
	sum, err := Run(ctx, Options{Event: ev, Store: st, OnResult: func(Result) { cancel() }})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: %v, want it cancelled after a game", err)
	}
	if len(sum.EngineChanges) != 0 {
		t.Errorf("first run: changes %q, want none", sum.EngineChanges)
	}
	ids, err := st.Identities(context.Background())
	if err != nil || ids[0].Checksum == "" || ids[0].Name != "Alpha" || ids[0].Version != "1.0" || ids[0].Program != script {
		t.Fatalf("recorded identities %+v, %v", ids, err)
	}

	writeScript("Beta")
	var log strings.Builder
	sum, err = Run(context.Background(), Options{Event: ev, Store: st, Log: zerolog.New(&log)})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.EngineChanges) != 2 {
		t.Fatalf("resumed run: changes %q, want two for engine s (program, then name)", sum.EngineChanges)
	}
	for i, want := range []string{"program checksum (SHA-256)", `name was "Alpha", now "Beta"`} {
		if c := sum.EngineChanges[i]; !strings.HasPrefix(c, "engine s ") || !strings.Contains(c, want) {
			t.Errorf("change %d = %q, want engine s and %q", i, c, want)
		}
	}
	if !strings.Contains(log.String(), `"level":"warn"`) || !strings.Contains(log.String(), "mixes two builds") {
		t.Errorf("no warning in the log:\n%s", log.String())
	}
	// The new identity is recorded: a third run has nothing to say.
	sum, err = Run(context.Background(), Options{Event: ev, Store: st})
	if err != nil || len(sum.EngineChanges) != 0 {
		t.Errorf("third run: %v, changes %q", err, sum.EngineChanges)
	}
}

// note warns about each recorded field that has a different known value
// now, never about a field unknown on either side, and records what it
// learnt.
func TestIdentityNote(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, t.TempDir())
	if err := st.Init(ctx, EventRecord(testEvent(t, ""), 1)); err != nil {
		t.Fatal(err)
	}
	sum := strings.Repeat("a", 64)
	if err := st.SetIdentity(ctx, 0, store.Identity{Program: "/e", Checksum: sum, Name: "E", Version: "1.0"}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		cur  store.Identity
		want []string // substrings of the one warning; none = no warning
	}{
		{store.Identity{Program: "/e", Checksum: sum}, nil},
		{store.Identity{Name: "E"}, nil}, // version unknown now
		{store.Identity{}, nil},          // nothing known
		{store.Identity{Version: "1.1"}, []string{`version was "1.0", now "1.1"`}},
		{store.Identity{Version: "1.1"}, nil}, // recorded by the step before
		{store.Identity{Program: "/f", Checksum: strings.Repeat("b", 64)}, []string{`program was "/e", now "/f"`, `checksum (SHA-256) was "aaaaaaaaaaaaaaaa", now "bbbbbbbbbbbbbbbb"`}},
	}
	ids, err := newIdentities(ctx, st, []string{"a", "b", "c", "d"}, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	for i, tt := range tests {
		before := len(ids.list())
		if err := ids.note(ctx, 0, tt.cur); err != nil {
			t.Fatal(err)
		}
		got := ids.list()[before:]
		switch {
		case len(tt.want) == 0 && len(got) != 0:
			t.Errorf("step %d (%+v): warned %q", i, tt.cur, got)
		case len(tt.want) > 0 && len(got) != 1:
			t.Errorf("step %d (%+v): %d warnings %q, want one", i, tt.cur, len(got), got)
		case len(tt.want) > 0:
			for _, w := range tt.want {
				if !strings.Contains(got[0], w) {
					t.Errorf("step %d: warning %q lacks %q", i, got[0], w)
				}
			}
		}
	}
	rec, err := st.Identities(ctx)
	if want := (store.Identity{Program: "/f", Checksum: strings.Repeat("b", 64), Name: "E", Version: "1.1"}); err != nil || rec[0] != want {
		t.Errorf("recorded %+v, %v; want %+v", rec[0], err, want)
	}
}

// A CheckerBoard engine is its library, not the arbiter binary that hosts
// it: a library rebuilt between two runs (here with debug information, so
// that the name it gives stays the same and only the file tells) is named
// in a warning when the event resumes.
func TestChangedCBLibraryWarnsOnResume(t *testing.T) {
	bin := arbiterBinary(t)
	cc, err := exec.LookPath("gcc")
	if err != nil {
		if cc, err = exec.LookPath("cc"); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatal("no C compiler (gcc) under CI=true: .ci/run should have installed it")
			}
			t.Skip("skipped: no C compiler (gcc) to build the CheckerBoard test library (apt-get install gcc)")
		}
	}
	dir := t.TempDir()
	lib := filepath.Join(dir, "cbtest.so")
	build := func(extra ...string) {
		t.Helper()
		args := append([]string{"-shared", "-fPIC", "-O1", "-o", lib, "../cb/testdata/cbtest.c", `-DNAME_SUFFIX="lib"`}, extra...)
		if msg, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", cc, strings.Join(args, " "), err, msg)
		}
	}
	text := `
name: cblib
variant: english
time_control: "10+0.1"
engines:
  - {name: c, protocol: cb, command: ./cbtest.so, dir: .}
  - {name: r, command: self engine --level random --seed 2}
games_per_encounter: 4
concurrency: 1
adjudication: {max_moves: 30}
`
	ev, err := configs.Parse([]byte(text), filepath.Join(dir, "cblib.yaml"), dir, configs.Options{Self: bin})
	if err != nil {
		t.Fatal(err)
	}
	st := openStore(t, filepath.Join(dir, "out"))

	build()
	ctx, cancel := context.WithCancel(context.Background())
	sum, err := Run(ctx, Options{Event: ev, Store: st, OnResult: func(Result) { cancel() }})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: %v, want it cancelled after a game", err)
	}
	if len(sum.EngineChanges) != 0 {
		t.Errorf("first run: changes %q, want none", sum.EngineChanges)
	}
	ids, err := st.Identities(context.Background())
	if g := rows(t, st); len(g) != 1 || g[0].Termination == "engine crashed" {
		t.Fatalf("first run: games %+v, want one played", g)
	}
	if err != nil || ids[0].Program != lib || ids[0].Checksum == "" || ids[0].Name != "cbtest lib" {
		t.Fatalf("recorded identity of the cb engine %+v, %v; want the library %s", ids[0], err, lib)
	}
	if ids[1].Program != bin {
		t.Errorf("recorded identity of the sparring engine %+v; want the arbiter binary %s", ids[1], bin)
	}

	build("-g")
	sum, err = Run(context.Background(), Options{Event: ev, Store: st})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.EngineChanges) != 1 || !strings.HasPrefix(sum.EngineChanges[0], "engine c ") ||
		!strings.Contains(sum.EngineChanges[0], "program checksum (SHA-256)") {
		t.Fatalf("resumed run: changes %q, want one naming engine c's program checksum", sum.EngineChanges)
	}
}

// TestChecksumOfABigProgram: a large program's sum is computed once per
// process and again when the file changes (size or time).
func TestChecksumOfABigProgram(t *testing.T) {
	path := filepath.Join(t.TempDir(), "engine")
	data := make([]byte, 2<<20)
	write := func(b byte, mtime time.Time) {
		data[0] = b
		if err := os.WriteFile(path, data, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	write(1, t0)
	a := checksum(path)
	if a.Checksum == "" || checksum(path) != a {
		t.Fatalf("checksum %+v, then %+v", a, checksum(path))
	}
	write(2, t0.Add(time.Second))
	if b := checksum(path); b.Checksum == "" || b.Checksum == a.Checksum {
		t.Errorf("a changed program keeps its sum: %+v, %+v", a, b)
	}
	data = data[:len(data)-1]
	write(1, t0)
	if c := checksum(path); c.Checksum == "" || c.Checksum == a.Checksum {
		t.Errorf("a program of another size keeps its sum: %+v, %+v", a, c)
	}
}
