package web

import (
	"fmt"
	"testing"
)

// A player opens their game on a 1366x900 laptop screen, White to move:
// the "Type a move" box is within the window, with the whole board, as
// the phone's is below the board a scroll away. On the desktop the board
// filled its column's width (some 950 px) and pushed the box 300 px below
// the fold. The phone's layout is unchanged: the board as wide as the
// screen, the box under it.
func TestBrowserTypedMoveInView(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant": "international", "time_control": "300+3", "white": "Ann", "black": "Bob"}`)
	white := newPage(t, "white")
	white.open(g.links["white"])
	type box struct {
		Form, Board   struct{ Left, Top, Right, Bottom float64 }
		Width, Height float64
	}
	for _, size := range [][2]int64{{1366, 900}, {1366, 768}, {1024, 768}, {390, 844}} {
		name := fmt.Sprintf("typed-move-%dx%d", size[0], size[1])
		white.checkLayout(name, size[0], size[1])
		b := eval[box](white, `(() => {
			const r = (id) => { const q = document.getElementById(id).getBoundingClientRect(); return {Left: q.left, Top: q.top, Right: q.right, Bottom: q.bottom}; };
			return {Form: r('pdn-form'), Board: r('board'), Width: innerWidth, Height: innerHeight}; })()`)
		if eval[bool](white, `document.getElementById('pdn-form').hidden`) {
			t.Fatalf("%s: White, to move, has no box to type a move in", name)
		}
		if size[0] >= 1024 && (b.Form.Top < 0 || b.Form.Bottom > b.Height) {
			t.Errorf("%s: the Type a move box %+v is outside the %vx%v window", name, b.Form, b.Width, b.Height)
		}
		if size[0] < 1024 && b.Board.Right-b.Board.Left < b.Width-40 {
			t.Errorf("%s: the phone's board is %v px wide in a %v px window: it should fill the screen's width", name, b.Board.Right-b.Board.Left, b.Width)
		}
	}
}
