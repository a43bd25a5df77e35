package egdb

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/draughts-arbiter/arbiter/rules"
)

// DB is an endgame database of one variant in a directory: one file per
// material (Material.String() + ".wdl"). Tables are read on first use and
// kept; a DB is safe for concurrent use.
type DB struct {
	v      *rules.Variant
	dir    string
	pieces int

	mu     sync.Mutex
	tables map[Material]*stored
}

// stored is a solved table: its index and the values, two bits each.
type stored struct {
	t    *table
	bits []byte
}

// ErrNotBuilt is Open's error for a directory without the variant's
// database, or without a table it was asked for; the error wrapping it
// names the directory and the command that builds what is missing.
var ErrNotBuilt = errors.New("egdb: no database")

// ErrNoDatabase is wrapped by Supported's error: a variant whose endings
// cannot be held in a database of this kind, built or not.
var ErrNoDatabase = errors.New("no endgame database can be built for it")

// Supported says why v can have no database (nil: it can). Its positions
// must be on the dark squares of a draughts board, and a position's value
// must depend on the board alone.
func Supported(v *rules.Variant) error {
	if v.Layout() != rules.DarkSquares {
		return fmt.Errorf("%s is not played on the dark squares of a draughts board: %w", v.Name(), ErrNoDatabase)
	}
	if pr := v.Params(); pr.KingMoveLimit > 0 || pr.NoReturn || pr.Parachutists {
		// The value of a position would depend on more than the board.
		return fmt.Errorf("%s keeps state beyond the board (its kings' moves or pieces' origins): %w", v.Name(), ErrNoDatabase)
	}
	return nil
}

// Held is what a directory holds of a variant's database: every table of
// 2 to Pieces pieces, and Partial of the Of tables of Pieces+1 pieces (an
// interrupted build's; 0 of Of when none).
type Held struct {
	Pieces, Partial, Of int
}

// Survey counts the tables of v's database in dir (the directory given to
// Build, not its per-variant subdirectory), without reading them.
func Survey(v *rules.Variant, dir string) Held {
	db := &DB{v: v, dir: filepath.Join(dir, v.Name())}
	var h Held
	for n := 2; n <= maxPieces; n++ {
		of, found := 0, 0
		for _, m := range Materials(n) {
			if m.Pieces() != n {
				continue
			}
			of++
			if _, err := os.Stat(db.file(m)); err == nil {
				found++
			}
		}
		if found < of {
			h.Partial, h.Of = found, of
			return h
		}
		h.Pieces = n
	}
	return h
}

// Unfinished says what an interrupted build left and how to finish it;
// "" when nothing is half built.
func (h Held) Unfinished(v *rules.Variant, dir string) string {
	if h.Partial == 0 {
		return ""
	}
	return fmt.Sprintf("%d of the %d tables of %d pieces built (an interrupted build): `%s` finishes them",
		h.Partial, h.Of, h.Pieces+1, BuildCommand(v, dir, h.Pieces+1))
}

// BuildCommand is the command line that builds v's database up to pieces
// pieces in dir, for the errors that tell a user to build one (pieces 0:
// "--pieces N", for the user to choose).
func BuildCommand(v *rules.Variant, dir string, pieces int) string {
	n := "N"
	if pieces > 0 {
		n = strconv.Itoa(pieces)
	}
	return fmt.Sprintf("arbiter egdb build --variant %s --pieces %s --dir %s", v.Name(), n, dir)
}

// Open opens the database of v in dir, built up to pieces pieces (0: as
// many as the directory holds whole). A directory without every table of
// pieces pieces is an error wrapping ErrNotBuilt that says what it holds
// and the command that builds the rest.
func Open(v *rules.Variant, dir string, pieces int) (*DB, error) {
	if err := Supported(v); err != nil {
		return nil, fmt.Errorf("egdb: %w", err)
	}
	db := &DB{v: v, dir: filepath.Join(dir, v.Name()), pieces: pieces, tables: map[Material]*stored{}}
	h := Survey(v, dir)
	switch {
	case h.Pieces == 0:
		how := ""
		if pieces <= 0 {
			how = fmt.Sprintf(" (N: the most pieces, 2 to %d)", MaxPieces)
		}
		return nil, fmt.Errorf("%w: %s has no %s tables: `%s` builds them%s", ErrNotBuilt, db.dir, v.Name(), BuildCommand(v, dir, pieces), how)
	case pieces > h.Pieces:
		next := fmt.Sprintf("`%s` builds the rest", BuildCommand(v, dir, pieces))
		if u := h.Unfinished(v, dir); u != "" && pieces == h.Pieces+1 {
			next = u
		}
		return nil, fmt.Errorf("%w: %s holds every table up to %d pieces, not %d: %s", ErrNotBuilt, db.dir, h.Pieces, pieces, next)
	case pieces <= 0:
		db.pieces = h.Pieces
	}
	return db, nil
}

// Load reads every table of the database now: a missing or damaged table
// is found here, with its file named, rather than in the middle of a game.
func (db *DB) Load() error {
	for _, m := range Materials(db.pieces) {
		if _, err := db.table(m); err != nil {
			return err
		}
	}
	return nil
}

// Pieces is the most pieces a position may have to be in the database.
func (db *DB) Pieces() int { return db.pieces }

// Variant is the database's variant.
func (db *DB) Variant() *rules.Variant { return db.v }

func (db *DB) file(m Material) string { return filepath.Join(db.dir, m.String()+".wdl") }

// Probe is the value of p for the side to move; Unknown when p has more
// pieces than the database holds.
func (db *DB) Probe(p rules.Position) (Value, error) {
	m := MaterialOf(p)
	if m.WhiteMen+m.WhiteKings == 0 || m.BlackMen+m.BlackKings == 0 {
		return valueOf(overOutcome(p), p.Turn()), nil
	}
	if m.Pieces() > db.pieces {
		return Unknown, nil
	}
	s, err := db.table(m)
	if err != nil {
		return Unknown, err
	}
	return s.probe(p)
}

// overOutcome is the result of p, a position where a side has no pieces:
// the game ended when that side lost its last one, even in a position
// given with the other side to move (a FEN typed by hand).
func overOutcome(p rules.Position) rules.Outcome {
	if p.OutOfPieces() {
		return p.Outcome()
	}
	return p.WithTurn(p.Turn().Opponent()).Outcome()
}

// probe is p's value in s, the table of p's material.
func (s *stored) probe(p rules.Position) (Value, error) {
	i, ok := s.t.index(p)
	if !ok {
		return Unknown, fmt.Errorf("egdb: %s is not a position of the database (a man on its crowning row?)", p.FEN())
	}
	return s.value(i), nil
}

// value is the value at index i.
func (s *stored) value(i uint64) Value { return Value(s.bits[i/4] >> (2 * (i % 4)) & 3) }

func (db *DB) table(m Material) (*stored, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if s, ok := db.tables[m]; ok {
		return s, nil
	}
	s, err := db.read(m)
	if err != nil {
		return nil, err
	}
	db.tables[m] = s
	return s, nil
}

// The file format: a header (magic, format version, the variant's name,
// the material, the positions per side to move, a CRC-32 of the values),
// then the values, four to a byte, White to move first.
const (
	magic   = "ARBEGDB\x00"
	version = 1
)

type header struct {
	Version    uint32
	Material   [4]uint8
	Size       uint64
	CRC        uint32
	VariantLen uint32
}

func (db *DB) read(m Material) (*stored, error) {
	t, err := newTable(db.v, m)
	if err != nil {
		return nil, err
	}
	name := db.file(m)
	b, err := os.ReadFile(name)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w: %s is missing: `%s` builds it", ErrNotBuilt, name, BuildCommand(db.v, filepath.Dir(db.dir), db.pieces))
		}
		return nil, fmt.Errorf("egdb: %w", err)
	}
	r := bytes.NewReader(b)
	var mg [8]byte
	var h header
	if _, err := io.ReadFull(r, mg[:]); err != nil || string(mg[:]) != magic {
		return nil, fmt.Errorf("egdb: %s is not a table of this program's databases", name)
	}
	if err := binary.Read(r, binary.LittleEndian, &h); err != nil || h.Version != version || h.VariantLen > 256 {
		return nil, fmt.Errorf("egdb: %s: bad header (a half-written file?): %s", name, db.rebuild())
	}
	vn := make([]byte, h.VariantLen)
	if _, err := io.ReadFull(r, vn); err != nil || string(vn) != db.v.Name() {
		return nil, fmt.Errorf("egdb: %s is a table of %q, not %q", name, vn, db.v.Name())
	}
	if h.Material != [4]uint8{uint8(m.WhiteMen), uint8(m.WhiteKings), uint8(m.BlackMen), uint8(m.BlackKings)} || h.Size != t.size {
		return nil, fmt.Errorf("egdb: %s holds another material or size than its name says", name)
	}
	data := b[len(b)-r.Len():]
	if uint64(len(data)) != (2*t.size+3)/4 || crc32.ChecksumIEEE(data) != h.CRC {
		return nil, fmt.Errorf("egdb: %s is damaged (size or checksum): %s", name, db.rebuild())
	}
	return &stored{t: t, bits: data}, nil
}

// rebuild says how to replace a damaged table: the build solves again
// every table it cannot read, and keeps the others.
func (db *DB) rebuild() string {
	return fmt.Sprintf("`%s` solves it again", BuildCommand(db.v, filepath.Dir(db.dir), db.pieces))
}

// write stores a solved table atomically: a build interrupted while
// writing leaves no table behind, only a temporary file it overwrites.
func (db *DB) write(t *table, val []uint8) (*stored, error) {
	data := make([]byte, (len(val)+3)/4)
	for i, s := range val {
		data[i/4] |= uint8(stateValue(s)) << (2 * (i % 4))
	}
	return db.writeBits(t, data)
}

// solveTable solves m and writes its table.
func (db *DB) solveTable(ctx context.Context, m Material, known *loaded, progress func(uint64)) (*stored, error) {
	t, err := newTable(db.v, m)
	if err != nil {
		return nil, err
	}
	val, err := solve(ctx, t, known.probe, progress)
	if err != nil {
		return nil, fmt.Errorf("egdb: %s: %w", m, err)
	}
	st, err := db.write(t, val)
	// val (a byte an index: a quarter of a gigabyte for the largest
	// five-piece tables) is garbage now: collected before the next table
	// allocates its own, the peak is the tables being solved, not those
	// plus the last ones.
	runtime.GC()
	return st, err
}

// mirrorTable reads m's table off its solved twin and writes it.
func (db *DB) mirrorTable(ctx context.Context, rot []rules.Square, m Material, twin *stored, progress func(uint64)) (*stored, error) {
	t, data, err := mirror(ctx, db.v, rot, m, twin, progress)
	if err != nil {
		return nil, err
	}
	return db.writeBits(t, data)
}

// writeBits is write with the values already two bits each.
func (db *DB) writeBits(t *table, data []byte) (*stored, error) {
	var buf bytes.Buffer
	buf.WriteString(magic)
	h := header{Version: version, Size: t.size, CRC: crc32.ChecksumIEEE(data), VariantLen: uint32(len(db.v.Name())),
		Material: [4]uint8{uint8(t.m.WhiteMen), uint8(t.m.WhiteKings), uint8(t.m.BlackMen), uint8(t.m.BlackKings)}}
	binary.Write(&buf, binary.LittleEndian, h)
	buf.WriteString(db.v.Name())
	buf.Write(data)
	name := db.file(t.m)
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return nil, fmt.Errorf("egdb: writing %s: %w", name, err)
	}
	if err := os.Rename(tmp, name); err != nil {
		return nil, fmt.Errorf("egdb: %w", err)
	}
	return &stored{t: t, bits: data}, nil
}

// BuildOptions are a build's settings.
type BuildOptions struct {
	Pieces int // build every material of 2..Pieces pieces
	// Workers solve the tables of one level at once (0: GOMAXPROCS).
	Workers int
	// Progress, if not nil, is told the total number of indices to read
	// once, then how many more have been read, from several goroutines.
	Total    func(uint64)
	Progress func(uint64)
	// Table, if not nil, is told each table as it is solved or found
	// already built, one call at a time (the workers take turns).
	Table func(m Material, built bool)

	solveTwins bool // solve every table, none read off its twin (tests)
}

// Build computes the database of v up to opt.Pieces pieces in dir and
// opens it. Tables already in dir are read, not solved again.
func Build(ctx context.Context, v *rules.Variant, dir string, opt BuildOptions) (*DB, error) {
	if opt.Pieces < 2 || opt.Pieces > maxPieces {
		return nil, fmt.Errorf("egdb: pieces must be 2 to %d, not %d", maxPieces, opt.Pieces)
	}
	if err := Supported(v); err != nil {
		return nil, fmt.Errorf("egdb: %w", err)
	}
	db := &DB{v: v, dir: filepath.Join(dir, v.Name()), pieces: opt.Pieces, tables: map[Material]*stored{}}
	if err := os.MkdirAll(db.dir, 0o755); err != nil {
		return nil, fmt.Errorf("egdb: %w", err)
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ms := Materials(opt.Pieces)
	if opt.Total != nil {
		var total uint64
		for _, m := range ms {
			t, err := newTable(v, m)
			if err != nil {
				return nil, err
			}
			total += 2 * t.size
		}
		opt.Total(total)
	}
	for start := 0; start < len(ms); {
		end := start
		for end < len(ms) && level(ms[end]) == level(ms[start]) {
			end++
		}
		known, err := db.keepOnly(ms[start:end])
		if err != nil {
			return nil, err
		}
		if err := db.buildLevel(ctx, ms[start:end], known, workers, opt); err != nil {
			return nil, err
		}
		start = end
	}
	return db, nil
}

// loaded is the tables a level's solving may probe, by material, read
// without a lock: the solving workers only read it.
type loaded [9 * 9 * 9 * 9]*stored

func materialKey(m Material) int {
	return ((m.WhiteMen*9+m.WhiteKings)*9+m.BlackMen)*9 + m.BlackKings
}

// probe is the value of p, whose table must be among l's.
func (l *loaded) probe(p rules.Position) (Value, error) {
	m := MaterialOf(p)
	if m.WhiteMen+m.WhiteKings == 0 || m.BlackMen+m.BlackKings == 0 {
		return valueOf(p.Outcome(), p.Turn()), nil
	}
	if m.Pieces() > maxPieces {
		return Unknown, nil
	}
	s := l[materialKey(m)]
	if s == nil {
		return Unknown, fmt.Errorf("egdb: %s: table %s not loaded (a move this build did not foresee)", p.FEN(), m)
	}
	return s.probe(p)
}

// keepOnly keeps in memory the tables that the moves of ms lead into, and
// only those: the others are dropped (the database reads them again from
// disk if a probe needs them), so that a build holds the tables of one
// level's neighbourhood, not the whole database.
func (db *DB) keepOnly(ms []Material) (*loaded, error) {
	need := map[Material]bool{}
	for _, m := range ms {
		for _, r := range reach(m) {
			need[r] = true
		}
	}
	db.mu.Lock()
	for m := range db.tables {
		if !need[m] {
			delete(db.tables, m)
		}
	}
	db.mu.Unlock()
	l := new(loaded)
	for r := range need {
		s, err := db.table(r)
		if err != nil {
			return nil, err
		}
		l[materialKey(r)] = s
	}
	return l, nil
}

// buildLevel solves (or reads) tables that do not lead into each other.
func (db *DB) buildLevel(ctx context.Context, ms []Material, known *loaded, workers int, opt BuildOptions) error {
	results := make([]*stored, len(ms))
	var tableMu sync.Mutex // opt.Table's calls, one at a time
	// First the tables to solve, then their twins read off them (mirror).
	rot := halfTurn(db.v)
	if opt.solveTwins {
		rot = nil
	}
	twin := func(k int) int {
		if rot == nil {
			return -1
		}
		for j := range k {
			if ms[j] == ms[k].Swap() {
				return j
			}
		}
		return -1
	}
	for _, second := range []bool{false, true} {
		g, ctx := errgroup.WithContext(ctx)
		g.SetLimit(workers)
		for k, m := range ms {
			j := twin(k)
			if second != (j >= 0) {
				continue
			}
			g.Go(func() error {
				if s, err := db.read(m); err == nil {
					results[k] = s
					if opt.Progress != nil {
						opt.Progress(2 * s.t.size)
					}
					if opt.Table != nil {
						tableMu.Lock()
						opt.Table(m, false)
						tableMu.Unlock()
					}
					return nil
				}
				var err error
				if j >= 0 {
					results[k], err = db.mirrorTable(ctx, rot, m, results[j], opt.Progress)
				} else {
					results[k], err = db.solveTable(ctx, m, known, opt.Progress)
				}
				if err == nil && opt.Table != nil {
					tableMu.Lock()
					opt.Table(m, true)
					tableMu.Unlock()
				}
				return err
			})
		}
		if err := g.Wait(); err != nil {
			return err
		}
	}
	db.mu.Lock()
	for k, m := range ms {
		db.tables[m] = results[k]
	}
	db.mu.Unlock()
	return nil
}
