package configs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

// openings.plies takes the position after the first N plies of each game
// of a PDN book; openings.start the first opening to use.
func TestOpeningsPliesAndStart(t *testing.T) {
	dir := t.TempDir()
	book := "[GameType \"21\"]\n\n1. 11-15 23-19 2. 8-11 22-17 *\n\n[GameType \"21\"]\n\n1. 9-13 22-18 2. 6-9 25-22 *\n"
	if err := os.WriteFile(filepath.Join(dir, "book.pdn"), []byte(book), 0o644); err != nil {
		t.Fatal(err)
	}
	v, _ := rules.Lookup("english")
	ops, err := LoadOpeningsPlies("book.pdn", "", dir, v, 2)
	if err != nil {
		t.Fatal(err)
	}
	p := rules.NewPosition(v)
	for _, mv := range []string{"9-13", "22-18"} {
		m, err := p.ParseMove(mv)
		if err != nil {
			t.Fatal(err)
		}
		p = p.Play(m)
	}
	if len(ops) != 2 || ops[1].Position != p || ops[1].Name != "game 2: 9-13 22-18" {
		t.Errorf("plies 2: %+v; want the second game after 9-13 22-18", ops)
	}
	cfg := `
variant: english
engines: [{name: a, command: a}, {name: b, command: b}]
openings: {file: book.pdn, plies: 2, start: 2}
`
	ev, err := Parse([]byte(cfg), "e.yaml", dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ev.Schedule.Start != 1 || ev.Openings[1].Position != p {
		t.Errorf("start %d, openings %+v", ev.Schedule.Start, ev.Openings)
	}
	for _, bad := range []string{"openings: {file: book.pdn, start: 3}", "openings: {policy: sometimes}", "openings: {plies: -1}"} {
		if _, err := Parse([]byte("variant: english\nengines: [{name: a, command: a}, {name: b, command: b}]\n"+bad+"\n"), "e.yaml", dir, Options{}); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
