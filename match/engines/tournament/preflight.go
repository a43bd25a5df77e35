package tournament

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/match/engines/hub"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
)

// PreflightError is an engine that cannot play: it could not be started,
// crashed or timed out at start-up, or does not speak its protocol. It is
// a configuration error, found before anything is written.
type PreflightError struct {
	Index int    // the engine's index in the event
	Name  string // its name
	Err   error
}

func (e *PreflightError) Error() string {
	return fmt.Sprintf("engine %s (engines.%d) cannot play: %v", e.Name, e.Index, e.Err)
}

func (e *PreflightError) Unwrap() error { return e.Err }

// Preflight starts every engine of the event once, all at once, and stops
// it again, before the event writes anything: a missing program, a crash
// at start-up (with its last words), a start-up timeout or an engine that
// does not speak its protocol is an error naming the engine (one
// *PreflightError per engine, joined). It returns what each engine is: its
// program file and checksum, and the Hub engines' own name and version
// (their "id"), for the identity check of a resumed event.
//
// A Hub engine goes through its whole handshake for the event's variant.
// A DXP engine is not sent a GAMEREQ (an engine serving one game at a time
// would take it for a game): its program, when the arbiter starts it, is
// looked up only.
func Preflight(ctx context.Context, ev *configs.Event, log zerolog.Logger) ([]store.Identity, error) {
	if err := ctx.Err(); err != nil {
		return nil, err // interrupted already: no engine is started to be killed at once
	}
	ids := make([]store.Identity, len(ev.Engines))
	errs := make([]error, len(ev.Engines))
	started := make([]match.Player, len(ev.Engines))
	var wg sync.WaitGroup
	for i, spec := range ev.Engines {
		wg.Go(func() {
			id, pl, err := preflight(ctx, ev, spec, log)
			ids[i], started[i] = id, pl
			if err != nil {
				errs[i] = &PreflightError{Index: i, Name: spec.Name, Err: err}
			}
		})
	}
	wg.Wait()
	engines.CloseAll(slices.DeleteFunc(started, func(pl match.Player) bool { return pl == nil }))
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return ids, errors.Join(errs...)
}

// preflight checks one engine. The player it returns (nil: none was
// made) is the caller's to close: Preflight closes them all at once.
func preflight(ctx context.Context, ev *configs.Event, spec configs.EngineSpec, log zerolog.Logger) (store.Identity, match.Player, error) {
	id := program(spec)
	if len(spec.Argv) > 0 {
		if err := findProgram(spec); err != nil {
			return id, nil, err
		}
	}
	if spec.Protocol == configs.DXP {
		return id, nil, nil
	}
	pl := engines.Player(spec, log, nil)
	p, ok := pl.(*hub.Player)
	if !ok {
		return id, pl, nil
	}
	if err := p.Start(ctx, ev.Variant); err != nil {
		return id, pl, err
	}
	self := selfName(p)
	id.Name, id.Version = self.Name, self.Version
	return id, pl, nil
}

// findProgram says why a command's program cannot be run, and what to do:
// a relative path is looked up from the engine's directory (the arbiter's
// working directory when it has none), which the message names; a file
// that is there but not executable is told to be made so.
func findProgram(spec configs.EngineSpec) error {
	path := spec.Argv[0]
	if !strings.Contains(path, "/") {
		if _, err := exec.LookPath(path); err != nil {
			return fmt.Errorf("program %q: not found in $PATH", path)
		}
		return nil
	}
	if !filepath.IsAbs(path) && spec.Dir != "" {
		path = filepath.Join(spec.Dir, path)
	}
	if _, err := exec.LookPath(path); err != nil {
		var hint string
		if fi, serr := os.Stat(path); serr == nil && !fi.IsDir() && fi.Mode()&0o111 == 0 {
			hint = fmt.Sprintf(": the file is not executable (chmod +x %s)", path)
		} else if !filepath.IsAbs(path) {
			wd, _ := os.Getwd()
			hint = fmt.Sprintf(" (a relative path is looked up from the working directory, %s, or from the engine's dir: give the path from there, an absolute path, or the engine's dir)", wd)
		}
		return fmt.Errorf("program %q cannot be run: %w%s", path, err, hint)
	}
	return nil
}

// Reconcile lets a resumed event go on when its configuration changed only
// in engines' commands (a program moved to another path) and each such
// engine is still the same engine: the name and version it gives (ids, from
// Preflight) are those recorded in the event's earlier games. With force
// the engines are not compared. The event on record then takes the new
// commands and configuration hash; the notes say what changed. Any other
// difference is left for Store.Init to refuse (ErrConfigMismatch); an
// engine that is not the same is an error wrapping ErrConfigMismatch that
// names it, the two identities, and --force.
func Reconcile(ctx context.Context, st *store.Store, ev *configs.Event, ids []store.Identity, force bool) ([]string, error) {
	prev, err := st.Event(ctx)
	if errors.Is(err, store.ErrNoEvent) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if prev.ConfigHash == ev.Hash || len(prev.Engines) != len(ev.Engines) {
		return nil, nil
	}
	cmds := make([]string, len(prev.Engines))
	for i, e := range prev.Engines {
		cmds[i] = e.Command
	}
	if ev.HashWithCommands(cmds) != prev.ConfigHash {
		return nil, nil // more than commands changed: Init refuses it
	}
	known, err := st.Identities(ctx)
	if err != nil {
		return nil, err
	}
	var notes, refused []string
	for i, e := range ev.Engines {
		if cmds[i] == e.Command {
			continue
		}
		was, now := known[i], store.Identity{}
		if i < len(ids) {
			now = ids[i]
		}
		same := was.Name != "" && was.Name == now.Name && was.Version == now.Version
		note := fmt.Sprintf("engine %s: command was %q, now %q", e.Name, cmds[i], e.Command)
		switch {
		case same:
			note += fmt.Sprintf(" (the same engine: %s)", idText(now))
		case force:
			note += fmt.Sprintf(" (--force: was %s, now %s)", idText(was), idText(now))
		default:
			refused = append(refused, fmt.Sprintf("%s (was %s, now %s)", note, idText(was), idText(now)))
			continue
		}
		notes = append(notes, note)
	}
	if len(refused) > 0 {
		return nil, fmt.Errorf("%s: %w: only engine commands changed, but not to the same engine: %s; give --force to resume anyway",
			st.Path(), store.ErrConfigMismatch, strings.Join(refused, "; "))
	}
	planned := prev.Planned
	if err := st.Rebase(ctx, EventRecord(ev, planned)); err != nil {
		return nil, err
	}
	return notes, nil
}

// idText is an engine's own name and version for messages.
func idText(id store.Identity) string {
	if id.Name == "" {
		return "no Hub id known"
	}
	if id.Version == "" {
		return fmt.Sprintf("%q", id.Name)
	}
	return fmt.Sprintf("%q version %q", id.Name, id.Version)
}

// CPUs is how many processors an event needs so that no engine waits for
// one while its clock runs: its concurrency times the most threads any of
// its engines is given (a "threads" option, 1 without one). A search is
// one engine's at a time in a game, so a game needs one engine's threads.
// The reason names the engine whose threads count.
func CPUs(ev *configs.Event) (int, string) {
	threads, who := 1, ""
	for _, e := range ev.Engines {
		for _, o := range e.Options {
			if !strings.EqualFold(o.Name, "threads") {
				continue
			}
			if n, err := strconv.Atoi(strings.TrimSpace(o.Value)); err == nil && n > threads {
				threads, who = n, e.Name
			}
		}
	}
	why := fmt.Sprintf("concurrency %d", ev.Concurrency)
	if who != "" {
		why += fmt.Sprintf(" x %d threads (engine %s)", threads, who)
	}
	return ev.Concurrency * threads, why
}
