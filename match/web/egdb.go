package web

import (
	"net/http"
	"sync"

	"github.com/draughts-arbiter/arbiter/match/people/online"
	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/egdb"
)

// endgames opens the endgame databases of a directory (serve --egdb DIR),
// one per variant on first use, for the arbiters' links.
type endgames struct {
	dir string
	mu  sync.Mutex
	dbs map[string]*egdb.DB // by variant name; nil: not built
}

// of is the database of v, nil when the directory has none.
func (e *endgames) of(v *rules.Variant) *egdb.DB {
	e.mu.Lock()
	defer e.mu.Unlock()
	if db, seen := e.dbs[v.Name()]; seen {
		return db
	}
	db, err := egdb.Open(v, e.dir, 0)
	if err != nil {
		db = nil
	}
	e.dbs[v.Name()] = db
	return db
}

// egdbAnswer is what the arbiter's link learns of the current position:
// its value with perfect play and each legal move's, as the database holds
// them (value "unknown" when it does not: too many pieces, or no database
// of the variant). The players' and spectators' links never get it.
type egdbAnswer struct {
	FEN    string `json:"fen"`
	Pieces int    `json:"pieces"`
	Value  string `json:"value"`  // win, loss, draw (for the side to move) or unknown
	Result string `json:"result"` // the game's result with perfect play: "1-0", "0-1", "1/2-1/2"; "" when unknown
	Held   int    `json:"held"`   // the most pieces the database holds (0: none for this variant)
	// Possible is false for a variant no database can hold (egdb.Supported):
	// the page then does not tell the operator to build one.
	Possible bool       `json:"possible"`
	Moves    []egdbMove `json:"moves"` // [] when unknown
}

type egdbMove struct {
	Move  string `json:"move"`
	Value string `json:"value"` // what the move gives its player: win, loss, draw
}

// endgame answers the arbiter's question: the value of the game's current
// position in the server's endgame databases. Any other role's link gets
// the same 404 as an unknown link, so a player cannot learn that the
// question exists.
func (s *Server) endgame(w http.ResponseWriter, r *http.Request) {
	id, role, ok := s.resolve(w, r)
	if !ok {
		return
	}
	if role != online.RoleArbiter {
		writeCode(w, http.StatusNotFound, codeNotFound, nil)
		return
	}
	pos, err := s.hall.Position(id)
	if err != nil {
		s.hallError(w, r, err)
		return
	}
	a := egdbAnswer{FEN: pos.FEN(), Pieces: egdb.MaterialOf(pos).Pieces(), Value: egdb.Unknown.String(), Moves: []egdbMove{},
		Possible: egdb.Supported(pos.Variant()) == nil}
	var db *egdb.DB
	if s.egdb != nil {
		db = s.egdb.of(pos.Variant())
	}
	if db != nil {
		a.Held = db.Pieces()
		if v, err := db.Probe(pos); err == nil && v != egdb.Unknown {
			a.Value = v.String()
			a.Result = v.Outcome(pos.Turn()).PDN(pos.Variant().WideResults())
			for _, m := range pos.LegalMoves() {
				after, err := db.Probe(pos.Play(m))
				if err != nil {
					break
				}
				a.Moves = append(a.Moves, egdbMove{Move: pos.MoveText(m), Value: moveValue(after)})
			}
		}
	}
	writeJSON(w, http.StatusOK, a)
}

// moveValue is what a move gives its player, from the value of the
// position it leads to (the opponent's).
func moveValue(after egdb.Value) string {
	switch after {
	case egdb.Loss:
		return egdb.Win.String()
	case egdb.Win:
		return egdb.Loss.String()
	}
	return after.String()
}
