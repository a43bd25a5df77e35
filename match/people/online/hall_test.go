package online

import (
	"context"
	"testing"
	"time"
)

func TestSmoke(t *testing.T) {
	h, ft := testHall(t, Config{})
	c := create(t, h, Setup{Variant: "english", TimeControl: "300+5", White: "Ann", Black: "Bo"})
	if len(c.Tokens) != 4 {
		t.Fatalf("tokens %v", c.Tokens)
	}
	id, role, ok := h.Resolve(c.Tokens[RoleBlack])
	if !ok || id != c.ID || role != RoleBlack {
		t.Fatalf("resolve: %v %v %v", id, role, ok)
	}
	rep := play(t, h, c.ID, "9-13")
	ft.advance(3 * time.Second)
	rep = play(t, h, c.ID, "22-18")
	if rep.State.Clocks.White != 302000 {
		t.Errorf("white's clock %d", rep.State.Clocks.White)
	}
	missed, live, err := h.Watch(context.Background(), c.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(missed) != 2 {
		t.Fatalf("missed %s", describe(missed))
	}
	play(t, h, c.ID, "10-14")
	select {
	case e := <-live:
		if e.Type != EvMove || e.V != 3 {
			t.Errorf("live %+v", e)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no live event")
	}
	pdn, err := h.PDN(c.ID)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(pdn)
}
