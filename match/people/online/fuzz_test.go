package online

import (
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/internal/message"
	"github.com/draughts-arbiter/arbiter/rules"
)

// FuzzIntent feeds arbitrary JSON to ParseIntent and whatever it accepts,
// with the move texts, to a game of every role: nothing may panic, a
// refusal must change nothing, and whatever was accepted must replay.
func FuzzIntent(f *testing.F) {
	for _, s := range []string{
		`{"kind":"move","move":"9-13"}`, `{"kind":"move","move":"13-9"}`, `{"kind":"move","path":["9","13"]}`,
		`{"kind":"move","move":"9x18x27"}`, `{"kind":"claim","claim":"threefold","with_move":"9-14"}`,
		`{"kind":"offer"}`, `{"kind":"claim","claim":"threefold","with_move":"hello"}`, `{"kind":"claim","claim":"40-move","with_move":"32-99"}`,
		`{"kind":"claim","claim":"threefold","with_move":"1-32"}`, `{"kind":"move","path":["1","32","5","12"]}`, `{"kind":"decide","correct":false}`, `{"kind":"add-time","color":"white","seconds":60}`,
		`{"kind":"declare","outcome":"1-0","text":"x"}`, `{"kind":"reissue","role":"black"}`, `{"kind":"move","move":"a3-b4"}`,
		`{"kind":"move","move":"99-100"}`, `{"kind":"move","move":"--"}`, `{"kind":"pause"}`, `{}`, `[]`, `{"kind":"move","move":"9-13","x":1}`,
	} {
		f.Add([]byte(s), uint8(1), uint8(0))
	}
	v := rules.MustLookup("english")
	f.Fuzz(func(t *testing.T, data []byte, role uint8, policy uint8) {
		in, err := ParseIntent(data)
		p := rules.NewPosition(v)
		readMove(p, string(data), nil) // raw text as a move
		if err != nil {
			return
		}
		readMove(p, in.Move, in.Path)
		pol := []string{"wcdf", "opponent-decides", "strict"}[int(policy)%3]
		sp, err := check(Setup{Variant: "english", Policy: pol, TimeControl: "60"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		g, err := newGame("fuzz", sp, time.Unix(0, 0))
		if err != nil {
			t.Fatal(err)
		}
		// Two moves first, so that there is a position to go wrong in.
		for _, m := range []string{"9-13", "22-18"} {
			if _, _, r := g.apply(time.Unix(1, 0), input{Role: Role(g.ref.Turn()), Intent: mv(m)}, nil); r != nil {
				t.Fatal(r)
			}
			g.collect()
		}
		g.clk.t = time.Unix(2, 0) // the state is compared at the refused input's time
		before := g.state()
		g.pending = g.pending[:0]
		r := Role(role % 5)
		_, _, ref := g.apply(time.Unix(2, 0), input{Role: r, Intent: in}, nil)
		g.collect()
		if ref != nil {
			after := g.state()
			if after.FEN != before.FEN || after.Ply != before.Ply || after.Status != before.Status || after.Clocks != before.Clocks || len(g.pending) > 0 {
				t.Fatalf("refused %+v changed the game: %+v -> %+v", in, before, after)
			}
			if ref.Kind != message.Invalid && ref.Kind != message.Forbidden && ref.Kind != message.Conflict {
				t.Fatalf("refusal kind %s", ref.Kind)
			}
		}
	})
}
