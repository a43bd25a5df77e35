package rules

import "math/bits"

// QuietMoveCount is the number of legal moves of the side to move when
// every one of them is a plain move that does not crown: ok is false when
// the position may have a capture or a crowning move (or the board has no
// bitboard layout, or the game is over), and LegalMoves must tell. n is 0
// (ok true) when the side to move has no move at all. It
// generates nothing: for the loops over millions of positions (an endgame
// database's build), most of which have no capture.
func (p Position) QuietMoveCount() (n int, ok bool) {
	if fastMovesHook == nil || p.finished() {
		return 0, false
	}
	geo := geoOf(p.v)
	if geo == nil {
		return 0, false
	}
	g := p.quietGen(geo)
	own, opp, kings := geo.sides(&p)
	white := p.turn == White
	c := g.capturers(own, opp, kings, white)
	if g.flying {
		// capturers lists every flying king; keep those that can jump
		k := c & kings
		c &^= kings
		occ := own | opp
		for ; k != 0 && c == 0; k &= k - 1 {
			if g.flyingKingJumps(bits.TrailingZeros64(k), opp, occ) {
				c = 1
			}
		}
	}
	if c != 0 {
		return 0, false
	}
	h, h1 := g.h&63, g.h1&63
	empty := g.mask &^ (own | opp)
	men := own &^ kings
	steps := men<<h | men<<h1
	pr := g.promo[Black]
	if white {
		steps, pr = men>>h|men>>h1, g.promo[White]
	}
	if steps&empty&pr != 0 {
		return 0, false
	}
	return int(g.countQuiet(own, opp, kings, white)), true
}

// flyingKingJumps reports whether the flying king on s can start a
// capture: in some direction the first piece it meets is the opponent's
// and the square beyond it is empty.
func (g *bbGen) flyingKingJumps(s int, opp, occ uint64) bool {
	for d := UpLeft; d < numDirs; d++ {
		bl := g.ray[s][d] & occ
		if bl == 0 {
			continue
		}
		b := firstBit(bl, d)
		if opp>>uint(b)&1 == 0 {
			continue
		}
		if beyond := g.ray[b][d]; beyond != 0 && occ>>uint(firstBit(beyond, d))&1 == 0 {
			return true
		}
	}
	return false
}
