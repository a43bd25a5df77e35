package web

import (
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/draughts-arbiter/arbiter/match/engines/hub"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/match/people/online"
	"github.com/draughts-arbiter/arbiter/reports"
	"github.com/draughts-arbiter/arbiter/rules"
)

// Live is an engine event as its live view shows it: every game in
// progress move by move, the standings and crosstable, the last finished
// games. It is a tournament.Observer (the runner of this process tells it
// of every move) and what WatchStore fills from the store of an event that
// another process runs; the live page's event streams read it (see
// liveEvents). It knows nothing of HTTP.
//
// Changes are not pushed one by one: each marks the state changed, and a
// tick at most every liveTick wakes the streams, which send what changed
// since they last looked. A game of fast engines makes hundreds of moves a
// second; a viewer gets ten updates a second of it.
type Live struct {
	mu      sync.Mutex
	v       int64 // bumped by every change; the versions below are its values
	epoch   int   // bumped by EventStarted: a stream of an older one starts again
	event   LiveEvent
	eventV  int64
	variant *rules.Variant
	geo     online.Geometry
	names   []string
	running map[int]*liveGame
	done    map[int]bool // finished games' IDs
	results []reports.Game
	recent  []LiveResult // newest first, at most liveRecent
	recentV int64

	table      *LiveStandings
	tableV     int64
	tableDirty bool
	tableNext  time.Time // no new computation before
	computing  bool

	changed chan struct{} // closed at a tick after a change
	timer   bool          // a tick is due
	now     func() time.Time
}

// liveTick is the most often the streams are woken; liveRecent the
// finished games shown.
const (
	liveTick   = 100 * time.Millisecond
	liveRecent = 12
	// liveMovesKept bounds the moves of a game the page is sent (the move
	// list shows the last ones); the count says how many were played.
	liveMovesKept = 400
)

// NewLive returns an empty live view (the event comes with EventStarted).
func NewLive() *Live {
	return &Live{running: map[int]*liveGame{}, done: map[int]bool{}, changed: make(chan struct{}), now: time.Now}
}

// LiveEvent is what the page says of the event.
type LiveEvent struct {
	Name        string   `json:"name"`
	Variant     string   `json:"variant"`
	TimeControl string   `json:"time_control"`
	Planned     int      `json:"planned"`
	Finished    int      `json:"finished"`
	Running     int      `json:"running"`
	Engines     []string `json:"engines"`
	Stopped     string   `json:"stopped,omitempty"`
	Started     bool     `json:"started"` // the event row is known
}

// LiveGame is one game in progress as the page draws it.
type LiveGame struct {
	ID      int            `json:"id"` // 1-based game number
	Round   int            `json:"round"`
	Board   int            `json:"board"`
	White   string         `json:"white"`
	Black   string         `json:"black"`
	Opening string         `json:"opening,omitempty"`
	Turn    string         `json:"turn"` // "white" or "black"
	Pieces  []online.Piece `json:"pieces"`
	Last    *online.Last   `json:"last,omitempty"`
	Plies   int            `json:"plies"`
	// Moves are the last moves played (all but the first From of them).
	Moves []string `json:"moves"`
	From  int      `json:"from"` // ply number of Moves[0], 1-based
	// Clocks are the time left after the last move, in ms, and how long
	// ago that was when the state was sent (the page runs the clock of
	// the side to move from there).
	Clocks LiveClocks `json:"clocks"`
	// Info is what each side's engine said of its last move.
	Info map[string]LiveInfo `json:"info"`
	// Unreadable is set when a move could not be read in the position
	// (the board stops there; the moves go on).
	Unreadable string `json:"unreadable,omitempty"`
}

// LiveClocks are a game's clocks; zero untimed.
type LiveClocks struct {
	White   int64 `json:"white"`
	Black   int64 `json:"black"`
	SinceMS int64 `json:"since_ms"`
	Timed   bool  `json:"timed"`
}

// LiveInfo is an engine's last score, depth and principal variation.
type LiveInfo struct {
	Score    float64 `json:"score"`
	HasScore bool    `json:"has_score"`
	Depth    int     `json:"depth,omitempty"`
	PV       string  `json:"pv,omitempty"`
	Ply      int     `json:"ply"`
}

// LiveResult is a finished game in the list of the last ones.
type LiveResult struct {
	ID          int    `json:"id"`
	Round       int    `json:"round"`
	Board       int    `json:"board"`
	White       string `json:"white"`
	Black       string `json:"black"`
	Result      string `json:"result"`
	Termination string `json:"termination,omitempty"`
	Reason      string `json:"reason,omitempty"`
	Plies       int    `json:"plies"`
	Opening     string `json:"opening,omitempty"`
	finished    time.Time
}

// LiveStandings are the standings and crosstable of the finished games.
type LiveStandings struct {
	Scoring reports.Scoring `json:"scoring"`
	Rows    []LiveStanding  `json:"rows"`
	// Cross[i][j] is Rows[i]'s points against Rows[j] (federation scale)
	// and the games they played; the diagonal is empty.
	Cross [][]LiveCell `json:"cross"`
	Games int          `json:"games"` // finished games counted
	Error string       `json:"error,omitempty"`
}

// LiveStanding is one engine's line.
type LiveStanding struct {
	Rank   int     `json:"rank"`
	Name   string  `json:"name"`
	Points float64 `json:"points"` // on the federation's scale
	Games  int     `json:"games"`
	W      int     `json:"w"`
	D      int     `json:"d"`
	L      int     `json:"l"`
	Score  float64 `json:"score"` // 0..1
}

// LiveCell is one crosstable cell.
type LiveCell struct {
	Points float64 `json:"points"`
	Games  int     `json:"games"`
}

// liveGame is a running game's state.
type liveGame struct {
	v          int64
	row        store.Game
	pos        rules.Position
	readable   bool // pos follows the moves
	unreadable string
	last       *rules.Move
	moves      []string
	info       [2]LiveInfo
	clocks     [2]time.Duration
	at         time.Time // of the last move (or the start)
}

// LiveSnapshot is the whole state, as GET /api/live answers and a stream
// starts with.
type LiveSnapshot struct {
	Event     LiveEvent       `json:"event"`
	Geometry  online.Geometry `json:"geometry"`
	Games     []LiveGame      `json:"games"`
	Standings *LiveStandings  `json:"standings"`
	Recent    []LiveResult    `json:"recent"`
}

// touch records a change (mu held) and makes sure a tick will tell it.
func (h *Live) touch() int64 {
	h.v++
	if !h.timer {
		h.timer = true
		time.AfterFunc(liveTick, h.fire)
	}
	return h.v
}

// fire is the tick: the standings are computed again when due, then the
// streams are woken.
func (h *Live) fire() {
	h.mu.Lock()
	if h.tableDirty && !h.computing && !h.now().Before(h.tableNext) {
		h.tableDirty, h.computing = false, true
		ev := reports.Event{Name: h.event.Name, Variant: h.event.Variant, TimeControl: h.event.TimeControl,
			Engines: slices.Clone(h.names), Games: slices.Clone(h.results)}
		h.mu.Unlock()
		t0 := time.Now()
		table := computeStandings(ev)
		took := time.Since(t0)
		h.mu.Lock()
		h.computing = false
		h.table = table
		h.v++
		h.tableV = h.v
		// An event of a hundred thousand games takes a while to count:
		// then it is not counted at every game's end.
		h.tableNext = h.now().Add(max(250*time.Millisecond, 4*took))
	}
	close(h.changed)
	h.changed = make(chan struct{})
	h.timer = false
	if h.tableDirty {
		h.timer = true
		time.AfterFunc(max(liveTick, h.tableNext.Sub(h.now())), h.fire)
	}
	h.mu.Unlock()
}

// computeStandings ranks the finished games as the report does.
func computeStandings(ev reports.Event) *LiveStandings {
	out := &LiveStandings{Scoring: reports.ScoringFor(ev.Variant), Games: len(ev.Games)}
	st, err := reports.Compute(ev)
	if err != nil {
		out.Error = err.Error()
		return out
	}
	out.Scoring = st.Scoring
	order := map[string]int{}
	for i, e := range st.Engines {
		order[e.Name] = i
		out.Rows = append(out.Rows, LiveStanding{Rank: e.Rank, Name: e.Name, Points: e.FederationPoints, Games: e.WDL.Games(),
			W: e.WDL.W, D: e.WDL.D, L: e.WDL.L, Score: e.Score})
	}
	out.Cross = make([][]LiveCell, len(out.Rows))
	for i := range out.Cross {
		out.Cross[i] = make([]LiveCell, len(out.Rows))
	}
	ct := st.Crosstable
	for i, a := range ct.Engines {
		for j, b := range ct.Engines {
			ri, okA := order[a]
			rj, okB := order[b]
			if i == j || !okA || !okB {
				continue
			}
			w := ct.Cells[i][j]
			out.Cross[ri][rj] = LiveCell{Points: st.Scoring.Points(float64(w.W) + float64(w.D)/2), Games: w.Games()}
		}
	}
	return out
}

// changes is the channel closed at the next tick after a change.
func (h *Live) changes() <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.changed
}

// EventStarted sets the event: its engines, and the games finished before
// (tournament.Observer).
func (h *Live) EventStarted(ev store.Event, finished []store.Game) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.names = make([]string, 0, len(ev.Engines))
	for _, e := range ev.Engines {
		for len(h.names) < e.ID {
			h.names = append(h.names, "")
		}
		if e.ID == len(h.names) {
			h.names = append(h.names, e.Name)
		}
	}
	h.variant, _ = rules.Lookup(ev.Variant)
	h.geo = online.Geometry{}
	if h.variant != nil {
		h.geo = geometry(h.variant)
	}
	h.event = LiveEvent{Name: ev.Name, Variant: ev.Variant, TimeControl: ev.TimeControl, Planned: ev.Planned,
		Engines: slices.Clone(h.names), Stopped: ev.Stopped, Started: true}
	h.epoch++
	h.running = map[int]*liveGame{}
	h.done = map[int]bool{}
	h.results = h.results[:0]
	h.recent = nil
	for _, g := range finished {
		h.finish(g)
	}
	h.counts()
	v := h.touch()
	h.eventV, h.recentV = v, v
	h.tableDirty = true
	h.tableNext = time.Time{}
}

// SetStopped records why the event ended early ("" = it did not).
func (h *Live) SetStopped(why string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.event.Stopped != why {
		h.event.Stopped = why
		h.eventV = h.touch()
	}
}

func (h *Live) name(i int) string {
	if i >= 0 && i < len(h.names) {
		return h.names[i]
	}
	return "?"
}

// counts refreshes the event's game counts (mu held).
func (h *Live) counts() {
	h.event.Finished, h.event.Running = len(h.done), len(h.running)
}

// GameStarted adds a running game (tournament.Observer); a game started
// again (replayed) starts from its opening.
func (h *Live) GameStarted(g store.Game) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.done[g.ID] {
		return
	}
	lg := &liveGame{row: g, at: h.now()}
	if h.variant != nil {
		pos, err := startPosition(h.variant, g.OpeningFEN)
		if err == nil {
			lg.pos, lg.readable = pos, true
		} else {
			lg.unreadable = "opening: " + err.Error()
		}
	}
	h.running[g.ID] = lg
	h.counts()
	lg.v = h.touch()
	h.eventV = lg.v
}

func startPosition(v *rules.Variant, fen string) (rules.Position, error) {
	if fen == "" {
		return rules.NewPosition(v), nil
	}
	return rules.ParseFEN(v, fen)
}

// GameMoved adds a move to a running game (tournament.Observer). A ply
// already known is ignored; a ply beyond the next one is too (the store
// will give the moves in between).
func (h *Live) GameMoved(id, ply int, m store.Move, clocks [2]time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	g := h.running[id]
	if g == nil || ply != len(g.moves)+1 {
		return
	}
	g.move(m, clocks, h.now())
	g.v = h.touch()
}

// move plays m on g's board.
func (g *liveGame) move(m store.Move, clocks [2]time.Duration, at time.Time) {
	// One move a ply, the sides taking turns from the opening's.
	mover := rules.White
	if (g.row.FirstMover == "black") == (len(g.moves)%2 == 0) {
		mover = rules.Black
	}
	pv := m.PV
	if g.readable {
		mv, err := g.pos.ParseMove(m.Text)
		if err != nil {
			g.readable = false
			g.unreadable = "move " + m.Text + ": " + err.Error()
		} else {
			// The engine's line in the variant's notation, from the
			// position it searched (a stored game's is already).
			pv = hub.PDNLine(g.pos, pv)
			g.pos = g.pos.Play(mv)
			g.last = &mv
		}
	}
	g.moves = append(g.moves, m.Text)
	g.info[mover] = LiveInfo{Score: m.Score, HasScore: m.HasScore, Depth: m.Depth, PV: pv, Ply: len(g.moves)}
	g.clocks = clocks
	g.at = at
}

// GameEnded moves a game from the running ones to the finished ones
// (tournament.Observer).
func (h *Live) GameEnded(g store.Game) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.done[g.ID] {
		return
	}
	delete(h.running, g.ID)
	h.finish(g)
	h.counts()
	v := h.touch()
	h.eventV, h.recentV = v, v
	h.tableDirty = true
}

// finish counts a finished game (mu held).
func (h *Live) finish(g store.Game) {
	h.done[g.ID] = true
	h.results = append(h.results, reports.Game{Round: g.Round, Board: g.Board, Pair: g.Pair + 1, White: h.name(g.White), Black: h.name(g.Black),
		Result: g.Result, Termination: g.Termination, Plies: g.Plies, Opening: g.Opening, FirstMover: g.FirstMover})
	r := LiveResult{ID: g.ID + 1, Round: g.Round, Board: g.Board, White: h.name(g.White), Black: h.name(g.Black), Result: g.Result,
		Termination: g.Termination, Reason: g.Reason, Plies: g.Plies, Opening: g.Opening, finished: g.Finished}
	// Newest first; games told in ID order (a resumed event's) sort by
	// their end.
	i := sort.Search(len(h.recent), func(i int) bool { return !h.recent[i].finished.After(r.finished) })
	if i >= liveRecent {
		return
	}
	h.recent = slices.Insert(h.recent, i, r)
	if len(h.recent) > liveRecent {
		h.recent = h.recent[:liveRecent]
	}
}

// GameAbandoned drops a running game that will be played again
// (tournament.Observer).
func (h *Live) GameAbandoned(id int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.running[id]; !ok {
		return
	}
	delete(h.running, id)
	h.counts()
	h.eventV = h.touch()
}

// view is g as the page draws it (mu held).
func (h *Live) view(id int, g *liveGame) LiveGame {
	out := LiveGame{ID: id + 1, Round: g.row.Round, Board: g.row.Board, White: h.name(g.row.White), Black: h.name(g.row.Black),
		Opening: g.row.Opening, Plies: len(g.moves), Unreadable: g.unreadable, Info: map[string]LiveInfo{}}
	from := max(0, len(g.moves)-liveMovesKept)
	out.Moves, out.From = append([]string{}, g.moves[from:]...), from+1
	if h.variant != nil {
		p := g.pos
		if !g.readable && g.pos.Variant() == nil {
			p = rules.NewPosition(h.variant)
		}
		out.Turn = colorName(p.Turn())
		v := h.variant
		for _, c := range []rules.Color{rules.White, rules.Black} {
			for sq := range p.Pieces(c).All() {
				out.Pieces = append(out.Pieces, online.Piece{Sq: v.SquareName(sq), Color: colorName(c), King: p.Kings().Has(sq)})
			}
		}
		if g.last != nil {
			out.Last = &online.Last{From: v.SquareName(g.last.From), To: v.SquareName(g.last.To)}
			for sq := range g.last.Captured.All() {
				out.Last.Captured = append(out.Last.Captured, v.SquareName(sq))
			}
		}
	}
	for c, in := range g.info {
		if in.Ply > 0 {
			out.Info[colorName(rules.Color(c))] = in
		}
	}
	out.Clocks = LiveClocks{White: g.clocks[0].Milliseconds(), Black: g.clocks[1].Milliseconds(),
		SinceMS: h.now().Sub(g.at).Milliseconds(), Timed: g.clocks[0] > 0 || g.clocks[1] > 0}
	return out
}

func colorName(c rules.Color) string {
	if c == rules.Black {
		return "black"
	}
	return "white"
}

// geometry is a variant's board layout for board.js.
func geometry(v *rules.Variant) online.Geometry {
	b := v.Board()
	g := online.Geometry{Width: b.Width, Height: b.Height}
	for i := 1; i <= v.Squares(); i++ {
		sq := rules.Square(i)
		r, c := v.RowCol(sq)
		g.Squares = append(g.Squares, online.Square{Name: v.SquareName(sq), Row: r, Col: c})
	}
	return g
}

// Snapshot is the whole state.
func (h *Live) Snapshot() LiveSnapshot {
	h.mu.Lock()
	defer h.mu.Unlock()
	s, _ := h.snapshot()
	return s
}

// liveSeen is what one stream has sent: the version of each part.
type liveSeen struct {
	epoch  int
	v      int64
	games  map[int]int64
	eventV int64
	tableV int64
	recent int64
}

// snapshot is the whole state and the versions it holds (mu held).
func (h *Live) snapshot() (LiveSnapshot, liveSeen) {
	s := LiveSnapshot{Event: h.event, Geometry: h.geo, Standings: h.table, Recent: slices.Clone(h.recent), Games: []LiveGame{}}
	seen := liveSeen{epoch: h.epoch, v: h.v, games: map[int]int64{}, eventV: h.eventV, tableV: h.tableV, recent: h.recentV}
	for _, id := range h.runningIDs() {
		g := h.running[id]
		s.Games = append(s.Games, h.view(id, g))
		seen.games[id] = g.v
	}
	if s.Recent == nil {
		s.Recent = []LiveResult{}
	}
	return s, seen
}

func (h *Live) runningIDs() []int {
	ids := make([]int, 0, len(h.running))
	for id := range h.running {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	return ids
}

// LiveUpdate is what changed since a stream last looked.
type LiveUpdate struct {
	Event     *LiveEvent     `json:"event,omitempty"`
	Games     []LiveGame     `json:"games,omitempty"`
	Gone      []int          `json:"gone,omitempty"` // game numbers no longer running
	Standings *LiveStandings `json:"standings,omitempty"`
	Recent    []LiveResult   `json:"recent,omitempty"`
	// Reload: the event was set anew (its board, engines, everything);
	// the page starts again from a snapshot.
	Reload bool `json:"reload,omitempty"`
}

// since returns what changed after seen, and updates seen; ok false when
// nothing did.
func (h *Live) since(seen *liveSeen) (LiveUpdate, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var u LiveUpdate
	if h.v == seen.v {
		return u, false
	}
	if h.epoch != seen.epoch {
		*seen = liveSeen{epoch: h.epoch, v: h.v, games: map[int]int64{}}
		return LiveUpdate{Reload: true}, true
	}
	for _, id := range h.runningIDs() {
		g := h.running[id]
		if g.v > seen.games[id] {
			u.Games = append(u.Games, h.view(id, g))
			seen.games[id] = g.v
		}
	}
	for id := range seen.games {
		if _, ok := h.running[id]; !ok {
			u.Gone = append(u.Gone, id+1)
			delete(seen.games, id)
		}
	}
	sort.Ints(u.Gone)
	if h.eventV > seen.eventV {
		ev := h.event
		u.Event = &ev
		seen.eventV = h.eventV
	}
	if h.tableV > seen.tableV && h.table != nil {
		u.Standings = h.table
		seen.tableV = h.tableV
	}
	if h.recentV > seen.recent {
		u.Recent = slices.Clone(h.recent)
		if u.Recent == nil {
			u.Recent = []LiveResult{}
		}
		seen.recent = h.recentV
	}
	seen.v = h.v
	return u, u.Event != nil || u.Games != nil || u.Gone != nil || u.Standings != nil || u.Recent != nil || u.Reload
}
