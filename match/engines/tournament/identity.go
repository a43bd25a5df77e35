package tournament

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/cb"
	"github.com/draughts-arbiter/arbiter/match/engines/dxp"
	"github.com/draughts-arbiter/arbiter/match/engines/hub"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/match/internal/progsum"
)

// identities keeps each engine's identity with the event and says when an
// engine is not what it was in the event's earlier runs: the configuration
// hash covers the command, not the program it runs, so a rebuilt engine
// would otherwise mix two builds into one event without a word. The
// program is checked when the run starts, the engine's own name and
// version after its first game of the run.
type identities struct {
	st    *store.Store
	names []string
	log   zerolog.Logger

	mu      sync.Mutex
	known   map[int]store.Identity // as recorded, updated as the run learns
	named   []bool                 // the engine's own name has been checked in this run
	changes []string
}

func newIdentities(ctx context.Context, st *store.Store, names []string, log zerolog.Logger) (*identities, error) {
	known, err := st.Identities(ctx)
	if err != nil {
		return nil, err
	}
	return &identities{st: st, names: names, log: log, known: known, named: make([]bool, len(names))}, nil
}

// program returns the identity of a spec's program file: its path (the
// command's first word, resolved as the engine's start resolves it) and the
// SHA-256 of its contents. For a CheckerBoard engine the program is its
// library, not the arbiter binary that hosts it (`self cb-host LIB`): the
// library is the engine, and a new library under the same command is what
// a resume must notice. Other "self" engines (the sparring engine) are the
// arbiter binary itself, which is right for them. An engine without a
// command (a DXP engine run by someone else) or whose program cannot be
// read has none: it fails at its start, with a better message than this
// one could give.
func program(spec configs.EngineSpec) store.Identity {
	if len(spec.Argv) == 0 {
		return store.Identity{}
	}
	if lib, ok := cbLibrary(spec); ok {
		return checksum(lib)
	}
	path := spec.Argv[0]
	switch {
	case !strings.Contains(path, "/"):
		p, err := exec.LookPath(path)
		if err != nil {
			return store.Identity{}
		}
		path = p
	case !filepath.IsAbs(path) && spec.Dir != "":
		// exec.Cmd takes a relative program from its Dir.
		path = filepath.Join(spec.Dir, path)
	}
	return checksum(path)
}

// cbLibrary returns the library file a CheckerBoard engine's host loads:
// the word after "cb-host" (configs makes a cb engine's command
// "self cb-host LIB"), found as the host finds it from the engine's
// directory (cb.LibraryFile). A bare name with no file of that name there is
// one the dynamic loader looks up in its own paths: its file is not known
// here, and the identity is left unknown (ok is still true: the arbiter
// binary is not the engine either way).
func cbLibrary(spec configs.EngineSpec) (string, bool) {
	if spec.Protocol != configs.CB || len(spec.Argv) < 3 || spec.Argv[1] != "cb-host" {
		return "", false
	}
	lib, known := cb.LibraryFile(spec.Dir, spec.Argv[2])
	if !known {
		return "", true
	}
	return lib, true
}

// checksum is the identity of the file at path ("" fields when it cannot
// be read). Many engines of an event run one program (64 sparring engines
// are the arbiter binary): progsum hashes each file once per process, and
// a large one not again while it is unchanged.
func checksum(path string) store.Identity {
	if path == "" {
		return store.Identity{}
	}
	sum := progsum.Sum(path)
	if sum == "" {
		return store.Identity{}
	}
	return store.Identity{Program: path, Checksum: sum}
}

// selfName is what a started engine says it is: its Hub "id" name and
// version, or its DXP GAMEACC name.
func selfName(p match.Player) store.Identity {
	switch e := p.(type) {
	case *hub.Player:
		id := e.ID()
		return store.Identity{Name: id["name"], Version: id["version"]}
	case *dxp.Player:
		return store.Identity{Name: e.PeerName()}
	}
	return store.Identity{}
}

// note compares what is now known of engine i with what the event
// recorded, warns about every field that changed, and records cur (its
// empty fields are unknown and compared with nothing).
func (ids *identities) note(ctx context.Context, i int, cur store.Identity) error {
	ids.mu.Lock()
	defer ids.mu.Unlock()
	was := ids.known[i]
	now := was // what is recorded after this call
	var diffs []string
	for _, f := range []struct {
		what     string
		was, cur string
		dst      *string
	}{
		{"program", was.Program, cur.Program, &now.Program},
		{"program checksum (SHA-256)", was.Checksum, cur.Checksum, &now.Checksum},
		{"name", was.Name, cur.Name, &now.Name},
		{"version", was.Version, cur.Version, &now.Version},
	} {
		if f.cur == "" {
			continue // unknown now: nothing to compare or record
		}
		if f.was != "" && f.was != f.cur {
			diffs = append(diffs, fmt.Sprintf("%s was %q, now %q", f.what, short(f.was), short(f.cur)))
		}
		*f.dst = f.cur
	}
	if len(diffs) > 0 {
		msg := fmt.Sprintf("engine %s is not what it was in this event's earlier games (%s): the event mixes two builds", ids.names[i], strings.Join(diffs, "; "))
		ids.log.Warn().Str("engine", ids.names[i]).Strs("changed", diffs).Msg(msg)
		ids.changes = append(ids.changes, msg)
	}
	if now == was {
		return nil
	}
	ids.known[i] = now
	return ids.st.SetIdentity(ctx, i, cur)
}

// started checks engine i's own name after a game in which it started, once
// per run.
func (ids *identities) started(ctx context.Context, i int, w *match.Watch, p match.Player) error {
	if !w.Ready {
		return nil
	}
	ids.mu.Lock()
	done := ids.named[i]
	ids.named[i] = true
	ids.mu.Unlock()
	if done {
		return nil
	}
	return ids.note(ctx, i, selfName(p))
}

// list returns the warnings given so far.
func (ids *identities) list() []string {
	ids.mu.Lock()
	defer ids.mu.Unlock()
	return append([]string(nil), ids.changes...)
}

// short cuts a checksum (64 hex digits) for messages; names and versions
// are shorter and kept whole.
func short(s string) string {
	if len(s) == 64 {
		return s[:16]
	}
	return s
}
