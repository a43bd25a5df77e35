package hub

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/rules"
)

// pieceString is PosString written the plain way, square by square through
// Position.Piece: the reference the fast writer is checked against.
func pieceString(p rules.Position) string {
	b := []byte{p.Turn().Letter()}
	for sq := rules.Square(1); int(sq) <= p.Variant().Squares(); sq++ {
		c, k, ok := p.Piece(sq)
		switch {
		case !ok:
			b = append(b, 'e')
		case c == rules.White && k == rules.King:
			b = append(b, 'W')
		case c == rules.White:
			b = append(b, 'w')
		case k == rules.King:
			b = append(b, 'B')
		default:
			b = append(b, 'b')
		}
	}
	return string(b)
}

// TestRequestBytesMatchLines plays random games and checks that the request
// the Player writes before every move (built straight into a byte buffer,
// with the scan of the game kept between moves) is exactly what the Line
// codec writes: PosCommand and LevelCommand.
func TestRequestBytesMatchLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range []string{"international", "english", "russian", "canadian", "italian"} {
		v := rules.MustLookup(name)
		for game := range 20 {
			e := New(Options{})
			start := rules.NewPosition(v)
			p := start
			var moves []rules.Move
			for ply := 0; ply < 300; ply++ {
				req := match.Request{Start: start, Moves: moves, Position: p}
				got := string(e.appendPos(nil, req))
				if want := PosCommand(start, moves).String(); got != want {
					t.Fatalf("%s game %d ply %d: pos line\n%q, want\n%q", name, game, ply, got, want)
				}
				if got, want := PosString(p), pieceString(p); got != want {
					t.Fatalf("%s: PosString = %q, want %q", name, got, want)
				}
				legal := p.LegalMoves()
				if len(legal) == 0 {
					break
				}
				m := legal[rng.IntN(len(legal))]
				if got, want := string(appendHubMove(nil, m)), rules.HubMove(m); got != want {
					t.Fatalf("appendHubMove = %q, want %q", got, want)
				}
				moves = append(moves, m)
				p = p.Play(m)
			}
		}
	}
}

func TestAppendLevelMatchesLevelCommand(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	durs := func() time.Duration {
		switch rng.IntN(4) {
		case 0:
			return 0
		case 1:
			return -time.Duration(rng.IntN(1e9))
		}
		return time.Duration(rng.Int64N(int64(2 * time.Hour)))
	}
	for range 5000 {
		lv := match.Level{Time: durs(), Inc: durs(), MoveTime: durs()}
		if rng.IntN(2) == 0 {
			lv.MovesToGo = rng.IntN(50)
		}
		if rng.IntN(3) == 0 {
			lv.Depth = rng.IntN(30)
		}
		if rng.IntN(3) == 0 {
			lv.Nodes = rng.Int64N(1e12)
		}
		if got, want := string(appendLevel(nil, lv)), LevelCommand(lv).String(); got != want {
			t.Fatalf("appendLevel(%+v) = %q, want %q", lv, got, want)
		}
	}
}
