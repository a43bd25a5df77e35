package egdb

import (
	"fmt"
	"sort"

	"github.com/draughts-arbiter/arbiter/rules"
)

// Material is what stands on the board: the men and kings of each colour.
// Every position of one Material is in one table of the database.
type Material struct {
	WhiteMen, WhiteKings, BlackMen, BlackKings int
}

// Pieces is the number of pieces on the board.
func (m Material) Pieces() int { return m.WhiteMen + m.WhiteKings + m.BlackMen + m.BlackKings }

// men is the number of men on the board: a promotion lowers it, so the
// tables with fewer men are built first.
func (m Material) men() int { return m.WhiteMen + m.BlackMen }

// String names the material as in the endgame literature, men and kings of
// White against Black: "2m1k-1m0k" is two men and a king against a man.
func (m Material) String() string {
	return fmt.Sprintf("%dm%dk-%dm%dk", m.WhiteMen, m.WhiteKings, m.BlackMen, m.BlackKings)
}

// MaterialOf is the material of p.
func MaterialOf(p rules.Position) Material {
	kings := p.Kings()
	w, b := p.Pieces(rules.White), p.Pieces(rules.Black)
	return Material{
		WhiteMen: w.Minus(kings).Len(), WhiteKings: w.Intersect(kings).Len(),
		BlackMen: b.Minus(kings).Len(), BlackKings: b.Intersect(kings).Len(),
	}
}

// Materials lists every material of 2 to n pieces with at least one piece a
// side, in the order a build solves them: a table's captures lead to fewer
// pieces and its promotions to fewer men, so both are solved before it.
func Materials(n int) []Material {
	var ms []Material
	for total := 2; total <= n; total++ {
		for wm := 0; wm <= total; wm++ {
			for wk := 0; wm+wk <= total; wk++ {
				for bm := 0; wm+wk+bm <= total; bm++ {
					bk := total - wm - wk - bm
					if wm+wk == 0 || bm+bk == 0 {
						continue
					}
					ms = append(ms, Material{wm, wk, bm, bk})
				}
			}
		}
	}
	sort.SliceStable(ms, func(i, j int) bool {
		a, b := ms[i], ms[j]
		if a.Pieces() != b.Pieces() {
			return a.Pieces() < b.Pieces()
		}
		return a.men() < b.men()
	})
	return ms
}

// level groups the materials a build can solve at once: none of them leads
// to another of the same level.
func level(m Material) [2]int { return [2]int{m.Pieces(), m.men()} }

// reach lists the materials (with pieces on both sides) that one move from
// a position of m can lead to, other than m itself: a promotion turns one
// of the mover's men into a king; a capture removes one or more of the
// opponent's pieces and may crown the capturing man. It may list a few
// materials no move reaches; it misses none.
func reach(m Material) []Material {
	var out []Material
	for _, side := range [2]bool{true, false} { // White moves, Black moves
		ownMen, ownKings, oppMen, oppKings := m.WhiteMen, m.WhiteKings, m.BlackMen, m.BlackKings
		if !side {
			ownMen, ownKings, oppMen, oppKings = m.BlackMen, m.BlackKings, m.WhiteMen, m.WhiteKings
		}
		for crown := 0; crown <= 1 && crown <= ownMen; crown++ {
			for om := 0; om <= oppMen; om++ {
				for ok := 0; ok <= oppKings; ok++ {
					captured := om+ok < oppMen+oppKings
					if om+ok == 0 || (!captured && crown == 0) {
						continue
					}
					r := Material{ownMen - crown, ownKings + crown, om, ok}
					if !side {
						r = Material{om, ok, ownMen - crown, ownKings + crown}
					}
					if !captured && (om != oppMen || ok != oppKings) {
						continue
					}
					out = append(out, r)
				}
			}
		}
	}
	return out
}
