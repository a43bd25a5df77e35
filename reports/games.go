package reports

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/draughts-arbiter/arbiter/rules"
)

// The board viewer of report.html replays games from a compact record made
// here, with the rules package, so that the page needs no rules of its own:
// every ply is its from and to squares, the squares it captured and a "+"
// when the piece was crowned, each square one character of recordAlphabet;
// plies are separated by ",". A record is
//
//	start "|" plies "|" evaluations
//
// start is "" for the variant's start position, else one character per
// square ('.' empty, 'w' 'W' white man and king, 'b' 'B' black); the
// evaluations are per ply "score" in hundredths of a man from the mover's
// side, ":depth" when known, empty when the engine gave none.
const recordAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%()*-./;=?@[]^_{}~"

// RecordFormat numbers the format of the records (the description above):
// it changes when a record made by an older arbiter would no longer replay,
// so that a caller keeping records (the store's games) knows to make them
// again.
const RecordFormat = 1

// RecordsFile was the one file of records an earlier report wrote beside
// report.html; it is removed when a report is written. The records too
// large to embed (see maxEmbeddedRecords) are now in files of
// recordsPerFile games each (RecordsChunkFile), so that opening a game of
// a 100,000-game event loads one small file, not all the records.
const RecordsFile = "games.js"

// recordsPerFile is the number of games whose records one file beside the
// page holds (a variable for the tests).
var recordsPerFile = 5000

// RecordsChunkFile names the file of the records of games n*recordsPerFile
// to (n+1)*recordsPerFile-1 (0-based, in the list's order).
func RecordsChunkFile(n int) string { return fmt.Sprintf("games-%d.js", n) }

// isRecordsChunk reports whether name is a RecordsChunkFile name, and its
// number.
func isRecordsChunk(name string) (int, bool) {
	digits, ok := strings.CutPrefix(name, "games-")
	if digits, ok = strings.CutSuffix(digits, ".js"); !ok || digits == "" {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	return n, err == nil && n >= 0 && RecordsChunkFile(n) == name
}

// maxEmbeddedRecords bounds the records inlined into report.html, so that
// the page stays a few MB whatever the number of games.
var maxEmbeddedRecords = 3 << 20 // a variable for the tests of the sidecar

// positionString is a position as the viewer holds it: one character per
// square, square 1 first (the viewer's squares are numbered from 0).
func positionString(p rules.Position) string {
	return string(p.AppendSquares(nil, viewerLetters))
}

// viewerLetters are the report's game viewer's square letters.
var viewerLetters = rules.SquareLetters{Empty: '.', WhiteMan: 'w', BlackMan: 'b', WhiteKing: 'W', BlackKing: 'B'}

// recordEncoder encodes the records of one event (one variant); it caches
// the start positions, which repeat with the openings.
type recordEncoder struct {
	v      *rules.Variant
	starts map[string]rules.Position
	// plain: a quiet move changes nothing but its piece's square (no
	// state beyond the board, as in the variants the generic generator
	// plays: parachutists, one-way men, opening removals).
	plain bool
}

func newRecordEncoder(variant string) *recordEncoder {
	v, err := rules.Lookup(strings.ToLower(strings.TrimSpace(variant)))
	if err != nil || v.Squares() > len(recordAlphabet) {
		return nil // a custom or very large board: no viewer
	}
	p := v.Params()
	plain := !rules.NewPosition(v).HasHiddenState() && !p.OpeningRemovals && !p.Parachutists && p.Layout == rules.Layout(0)
	return &recordEncoder{v: v, starts: map[string]rules.Position{}, plain: plain}
}

// start is the position a game began from.
func (e *recordEncoder) start(fen string) (rules.Position, error) {
	if p, ok := e.starts[fen]; ok {
		return p, nil
	}
	p := rules.NewPosition(e.v)
	if fen != "" {
		var err error
		if p, err = rules.ParseFEN(e.v, fen); err != nil {
			return p, err
		}
	}
	e.starts[fen] = p
	return p, nil
}

// quickMove reads the usual move text cheaply. The stored moves were
// checked by the arbiter when they were played, so a quiet move "from-to"
// (the side to move's piece onto an empty square) is taken as written,
// crowned when a man reaches a square that crowns it, without generating
// the legal moves; a capture "fromxto" (the first and last squares of the
// PDN form) is found by its ends among the legal moves, far cheaper than
// ParseMove, which builds every capture's path. Anything else (several
// captures with the same ends, another notation, a variant the generic
// generator plays) is left to ParseMove.
func (e *recordEncoder) quickMove(pos rules.Position, text string) (rules.Move, bool) {
	cut := strings.IndexAny(text, "-x:")
	last := strings.LastIndexAny(text, "-x:")
	if cut <= 0 || last >= len(text)-1 {
		return rules.Move{}, false
	}
	from, err1 := e.v.ParseSquare(text[:cut])
	to, err2 := e.v.ParseSquare(text[last+1:])
	if err1 != nil || err2 != nil {
		return rules.Move{}, false
	}
	if text[cut] == '-' && cut == last && e.plain {
		c, k, ok := pos.Piece(from)
		if _, _, busy := pos.Piece(to); ok && !busy && c == pos.Turn() {
			return rules.Move{From: from, To: to, Promotes: k == rules.Man && e.v.Crowns(c, to)}, true
		}
		return rules.Move{}, false
	}
	var found rules.Move
	n := 0
	for _, m := range pos.LegalMoves() {
		if m.From == from && m.To == to {
			found = m
			n++
		}
	}
	// Through intermediate squares (11x18x25), only a unique match is
	// safe without checking the path.
	return found, n == 1
}

// encode makes a game's record; a move that does not parse ends it there
// (the viewer shows the plies before it). It returns "" for a game with no
// moves.
func (e *recordEncoder) encode(startFEN string, moves []Move) (string, error) {
	if e == nil || len(moves) == 0 {
		return "", nil
	}
	pos, err := e.start(startFEN)
	if err != nil {
		return "", fmt.Errorf("start position %q: %w", startFEN, err)
	}
	var b strings.Builder
	if startFEN != "" {
		b.WriteString(positionString(pos))
	}
	b.WriteByte('|')
	n := 0
	for i, mv := range moves {
		m, ok := e.quickMove(pos, mv.Text)
		if !ok {
			var err error
			if m, err = pos.ParseMove(mv.Text); err != nil {
				break
			}
		}
		pos = writePly(&b, pos, m, i)
		n++
	}
	b.WriteByte('|')
	writeEvals(&b, moves[:n])
	return b.String(), nil
}

// writePly writes ply i (0-based), m played in pos, and returns the
// position after it.
func writePly(b *strings.Builder, pos rules.Position, m rules.Move, i int) rules.Position {
	if i > 0 {
		b.WriteByte(',')
	}
	b.WriteByte(recordAlphabet[m.From-1])
	b.WriteByte(recordAlphabet[m.To-1])
	for sq := range m.Captured.All() {
		b.WriteByte(recordAlphabet[sq-1])
	}
	_, before, _ := pos.Piece(m.From)
	pos = pos.Play(m)
	if _, after, ok := pos.Piece(m.To); ok && after == rules.King && before != rules.King {
		b.WriteByte('+')
	}
	return pos
}

// writeEvals writes the evaluations part of a record, one per move.
func writeEvals(b *strings.Builder, moves []Move) {
	for i := range moves {
		if i > 0 {
			b.WriteByte(',')
		}
		mv := moves[i]
		if mv.HasScore && finite(mv.Score) && math.Abs(mv.Score) < 1e6 {
			b.WriteString(strconv.Itoa(int(math.Round(mv.Score * 100))))
			if mv.Depth > 0 {
				b.WriteByte(':')
				b.WriteString(strconv.Itoa(mv.Depth))
			}
		}
	}
}

// RecordOf is EncodeRecord for a game whose moves are known as the rules
// played them (the referee's record at the game's finish): plies played
// from start, with evals[i] what the engine said of ply i (its Text is
// not read). It reads no move text and generates no legal moves, so that
// the runner can keep every finished game's record for a cheap report.
// startFEN is the opening's FEN as the game's row keeps it ("" for the
// variant's start position): the record then has the same start as
// EncodeRecord's. A variant the viewer cannot draw gives "".
func RecordOf(start rules.Position, startFEN string, plies []rules.Move, evals []Move) string {
	v := start.Variant()
	if v == nil || v.Squares() > len(recordAlphabet) || len(plies) == 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(len(plies) * 4)
	if startFEN != "" {
		b.WriteString(positionString(start))
	}
	b.WriteByte('|')
	pos := start
	for i, m := range plies {
		pos = writePly(&b, pos, m, i)
	}
	b.WriteByte('|')
	if len(evals) != len(plies) {
		// Plies without evaluations have empty ones.
		evals = append(make([]Move, 0, len(plies)), evals[:min(len(evals), len(plies))]...)
		evals = evals[:len(plies)]
	}
	writeEvals(&b, evals)
	return b.String()
}

// EncodeRecord makes the compact record of a game the report's viewer
// replays (see recordAlphabet), for callers that read games one at a time
// and would rather not keep every move in memory: set Game.Record to it
// and leave Game.Moves empty.
func EncodeRecord(variant, startFEN string, moves []Move) (string, error) {
	return newRecordEncoder(variant).encode(startFEN, moves)
}

// incident is one line of the incident log.
type incident struct {
	Game   int    `json:"g"` // index in the games list
	Engine int    `json:"e"` // engine index, -1 for none
	Kind   string `json:"k"`
	Text   string `json:"t"`
}

// warningNote finds the arbiter's warnings in a PDN text: "{warning: Black
// played "10-15", illegal: ...}" (stored games before the side was named
// as the referee names it say "black").
var warningNote = regexp.MustCompile(`\{\s*warning: ([Ww]hite|[Bb]lack) ([^}]*)\}`)

// incidentKinds are the terminations the log lists, with who is at fault:
// the loser (true) or nobody in particular (false).
var incidentKinds = map[string]bool{
	"time forfeit": true, "illegal move": true, "engine crashed": true, "engine stalled": true,
	"engine fault": true, "adjudication": false,
}

// gamesView is the data of the games list, the viewer and the incident
// log, as embedded in the page.
type gamesView struct {
	Engines  []string `json:"engines"`
	Openings []string `json:"openings"`
	Terms    []string `json:"terms"`
	Results  []string `json:"results"`
	// Games: round, board, white, black, opening, result, termination,
	// plies, has record, worker (-1 = played locally), the most latency of
	// one move in µs (-1 = unknown), latency flags (1 white's high, 2
	// black's).
	Games gameRows `json:"games"`
	// Latency is set when some game's latency is known (the list then has
	// a latency column).
	Latency bool `json:"latency"`
	// Workers are the cluster workers that played games (empty for a local
	// event: the list then has no worker column).
	Workers  []string   `json:"workers"`
	Board    *boardView `json:"board,omitempty"`
	Incident []incident `json:"incidents"`
	// Sidecar is set when the records are in files beside the page
	// (RecordsChunkFile), Chunk games to a file, not in the page.
	Sidecar bool `json:"sidecar"`
	Chunk   int  `json:"chunk,omitempty"`
}

// boardView is the geometry the viewer draws: each square's row and column.
type boardView struct {
	Width   int      `json:"w"`
	Height  int      `json:"h"`
	Squares [][2]int `json:"sq"`
	Names   []string `json:"names"`
	Start   string   `json:"start"`
	// Flip: the side listed first in a record moves first... the viewer
	// needs only who moves first to name the plies.
	FirstWhite bool `json:"firstWhite"`
}

// buildGamesView assembles the list, the records (in list order) and the
// incidents.
func buildGamesView(ev Event, names []string) (*gamesView, []string, error) {
	// Every list is [] when empty, never null: the page iterates them.
	gv := &gamesView{Engines: names, Results: []string{"1-0", "0-1", "½-½", "*"},
		Openings: []string{}, Terms: []string{}, Workers: []string{}, Incident: []incident{}, Games: gameRows{}}
	if gv.Engines == nil {
		gv.Engines = []string{}
	}
	idx := make(map[string]int, len(names))
	for i, n := range names {
		idx[n] = i
	}
	openIdx, termIdx, workerIdx := map[string]int{}, map[string]int{}, map[string]int{}
	intern := func(m map[string]int, list *[]string, s string) int {
		if i, ok := m[s]; ok {
			return i
		}
		m[s] = len(*list)
		*list = append(*list, s)
		return m[s]
	}
	enc := newRecordEncoder(ev.Variant)
	if enc != nil {
		bv := &boardView{Width: enc.v.Board().Width, Height: enc.v.Board().Height, Start: positionString(rules.NewPosition(enc.v)),
			FirstWhite: enc.v.FirstPlayer() == rules.White}
		for sq := range enc.v.Squares() {
			r, c := enc.v.RowCol(rules.Square(sq + 1))
			bv.Squares = append(bv.Squares, [2]int{r, c})
			bv.Names = append(bv.Names, enc.v.SquareName(rules.Square(sq+1)))
		}
		gv.Board = bv
	}
	var records []string
	order := ordered(ev.Games)
	budget := moveBudget(ev.TimeControl)
	// Games given with their moves are encoded on every core first.
	var made map[int]string
	if enc != nil {
		var pool *RecordPool
		for k, gi := range order {
			g := &ev.Games[gi]
			if g.Record == "" && len(g.Moves) > 0 {
				if pool == nil {
					pool = NewRecordPool(ev.Variant)
				}
				pool.Add(k, g.StartFEN, g.Moves)
			}
		}
		if pool != nil {
			made = pool.Wait()
		}
	}
	for k, gi := range order {
		g := &ev.Games[gi]
		res := 3
		o, err := parseResult(g.Result)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", g.describe(gi), err)
		}
		switch o {
		case rules.WhiteWins:
			res = 0
		case rules.BlackWins:
			res = 1
		case rules.Draw:
			res = 2
		}
		rec := g.Record
		if rec == "" {
			rec = made[k]
		}
		has := 0
		if rec != "" && enc != nil {
			has = 1
		}
		records = append(records, rec)
		term := strings.TrimSpace(g.Termination)
		opening := g.Opening
		if opening == "" {
			opening = "start position"
		}
		worker := -1
		if g.Worker != "" {
			worker = intern(workerIdx, &gv.Workers, g.Worker)
		}
		wl, bl, wok, bok := sideLatency(g, budget)
		most, flags := -1, 0
		if wok {
			gv.Latency = true
			most = max(most, int(wl.MaxUS))
			if wl.High {
				flags |= 1
			}
		}
		if bok {
			gv.Latency = true
			most = max(most, int(bl.MaxUS))
			if bl.High {
				flags |= 2
			}
		}
		gv.Games = append(gv.Games, []int{g.Round, g.Board, idx[g.White], idx[g.Black],
			intern(openIdx, &gv.Openings, opening), res, intern(termIdx, &gv.Terms, term), g.Plies, has, worker, most, flags})
		// The incident log.
		if atFault, ok := incidentKinds[term]; ok {
			e := -1
			if atFault {
				switch o {
				case rules.WhiteWins:
					e = idx[g.Black]
				case rules.BlackWins:
					e = idx[g.White]
				}
			}
			text := term
			if g.Reason != "" {
				text += ": " + g.Reason
			}
			gv.Incident = append(gv.Incident, incident{Game: k, Engine: e, Kind: term, Text: text})
			// A flag that fell while the machine held the engine's replies
			// back is the machine's doing as much as the engine's.
			if term == "time forfeit" && e >= 0 {
				l := wl // the loser's
				if o == rules.WhiteWins {
					l = bl
				}
				if l.High {
					gv.Incident = append(gv.Incident, incident{Game: k, Engine: e, Kind: "high latency",
						Text: fmt.Sprintf("lost on time with high latency: %s at most on one move, %s on average, %s in all over %d moves (%s)",
							fmtMicros(l.MaxUS), fmtMicros(l.MeanUS), fmtMicros(l.TotalUS), l.Moves, budgetText(budget))})
				}
			}
		}
		if strings.Contains(g.PDN, "warning:") {
			for _, m := range warningNote.FindAllStringSubmatch(g.PDN, -1) {
				e, side := idx[g.White], rules.White
				if strings.EqualFold(m[1], "black") {
					e, side = idx[g.Black], rules.Black
				}
				gv.Incident = append(gv.Incident, incident{Game: k, Engine: e, Kind: "warning", Text: side.Name() + " " + strings.TrimSpace(m[2])})
			}
		}
	}
	return gv, records, nil
}

// gameRows are the games list's rows, written as JSON by hand: the
// reflection of encoding/json is most of the cost of the list of 100,000
// games.
type gameRows [][]int

// MarshalJSON writes the rows as arrays of numbers.
func (r gameRows) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, len(r)*32+2)
	b = append(b, '[')
	for i, row := range r {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for k, v := range row {
			if k > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(v), 10)
		}
		b = append(b, ']')
	}
	return append(b, ']'), nil
}

// recordsJSON is the records as a JSON array, safe inside a <script>. A
// record as EncodeRecord makes it needs no escaping and is copied as it
// is; any other string (a record from elsewhere: Game.Record) goes through
// encoding/json, which escapes what a string or a script cannot hold.
func recordsJSON(records []string) ([]byte, error) {
	n := 2
	for _, r := range records {
		n += len(r) + 3
	}
	b := make([]byte, 0, n)
	b = append(b, '[')
	for i, r := range records {
		if i > 0 {
			b = append(b, ',')
		}
		if plainRecord(r) {
			b = append(b, '"')
			b = append(b, r...)
			b = append(b, '"')
			continue
		}
		q, err := json.Marshal(r)
		if err != nil {
			return nil, err
		}
		b = append(b, q...)
	}
	return append(b, ']'), nil
}

// recordSafe marks the bytes a record may hold that need no escaping in a
// JSON string inside a <script>: the alphabet and the separators.
var recordSafe = func() (t [256]bool) {
	for _, c := range []byte(recordAlphabet + "|,:+-.wWbB") {
		t[c] = true
	}
	return t
}()

func plainRecord(r string) bool {
	for i := 0; i < len(r); i++ {
		if !recordSafe[r[i]] {
			return false
		}
	}
	return true
}

// RecordPool makes the viewer's records on every core while its caller
// reads games one at a time (a store of 100,000 games): Add hands a game's
// moves over, Wait returns the records by the index given to Add. A
// RecordPool is used from one goroutine.
type RecordPool struct {
	jobs chan recordJob
	wg   sync.WaitGroup
	mu   sync.Mutex
	out  map[int]string
}

type recordJob struct {
	i     int
	fen   string
	moves []Move
}

// NewRecordPool starts the workers of a variant's pool.
func NewRecordPool(variant string) *RecordPool {
	p := &RecordPool{jobs: make(chan recordJob, 256), out: map[int]string{}}
	n := max(1, runtime.GOMAXPROCS(0))
	for range n {
		enc := newRecordEncoder(variant) // each worker its own cache
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for j := range p.jobs {
				// A record that cannot be made (a start position the rules
				// do not read) leaves the game without a replay, not the
				// event without a report.
				rec, _ := enc.encode(j.fen, j.moves)
				if rec == "" {
					continue
				}
				p.mu.Lock()
				p.out[j.i] = rec
				p.mu.Unlock()
			}
		}()
	}
	return p
}

// Add queues game i's record; the pool owns moves from here on.
func (p *RecordPool) Add(i int, startFEN string, moves []Move) {
	if len(moves) > 0 {
		p.jobs <- recordJob{i, startFEN, moves}
	}
}

// Wait stops the pool and returns the records made, by index.
func (p *RecordPool) Wait() map[int]string {
	close(p.jobs)
	p.wg.Wait()
	return p.out
}
