package egdb

import (
	"context"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

// count tallies the values of every position of a material in db.
func count(t *testing.T, db *DB, m Material) (win, loss, draw int) {
	t.Helper()
	s, err := db.table(m)
	if err != nil {
		t.Fatal(err)
	}
	for i := uint64(0); i < 2*s.t.size; i++ {
		switch Value(s.bits[i/4] >> (2 * (i % 4)) & 3) {
		case Win:
			win++
		case Loss:
			loss++
		case Draw:
			draw++
		}
	}
	return
}

func TestBuildSmall(t *testing.T) {
	dir := t.TempDir()
	v := rules.MustLookup("english")
	db, err := Build(context.Background(), v, dir, BuildOptions{Pieces: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range Materials(3) {
		w, l, d := count(t, db, m)
		t.Logf("%s: %d wins %d losses %d draws", m, w, l, d)
	}
}
