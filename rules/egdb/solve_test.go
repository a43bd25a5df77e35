package egdb

import (
	"context"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

func TestBuildSmall(t *testing.T) {
	dir := t.TempDir()
	v := rules.MustLookup("english")
	db, err := Build(context.Background(), v, dir, BuildOptions{Pieces: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range Materials(3) {
		if err := db.Verify(context.Background(), m); err != nil {
			t.Error(err)
		}
	}
}
