package pdn

import (
	"errors"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

func TestVariantOf(t *testing.T) {
	tests := []struct {
		name     string
		tags     []Tag
		moves    []string
		fallback string
		want     string
		err      error
	}{
		{"GameType number", []Tag{{"GameType", "20"}}, []string{"11-15"}, "", "international", nil},
		{"GameType full form", []Tag{{"GameType", "21,B,8,8,N1,0"}}, nil, "", "english", nil},
		{"GameType full form, italian", []Tag{{"GameType", " 22,W,8,8,N2,1 "}}, nil, "", "italian", nil},
		{"GameType board mismatch", []Tag{{"GameType", "20,W,8,8,N2,0"}}, nil, "", "", rules.ErrUnknownVariant},
		{"GameType bad board", []Tag{{"GameType", "20,W,ten,10"}}, nil, "", "", rules.ErrSyntax},
		{"GameType without preset", []Tag{{"GameType", "33"}}, nil, "", "", rules.ErrUnknownVariant},
		{"GameType of Turkish", []Tag{{"GameType", "30"}}, nil, "", "turkish", nil},
		{"GameType of Frisian", []Tag{{"GameType", "40"}}, nil, "", "frisian", nil},
		{"GameType not a number", []Tag{{"GameType", "draughts"}}, nil, "", "", rules.ErrSyntax},
		{"fallback does not override GameType", []Tag{{"GameType", "20"}}, nil, "pool", "international", nil},
		{"fallback does not hide a bad GameType", []Tag{{"GameType", "x"}}, nil, "czech", "", rules.ErrSyntax},
		{"fallback for a game without GameType", nil, []string{"11-15"}, "pool", "pool", nil},
		{"algebraic moves", nil, []string{"c3-d4", "f6-e5"}, "", "russian", nil},
		{"algebraic FEN", []Tag{{"FEN", "W:Wa1,c3:Bh8"}}, nil, "", "russian", nil},
		{"numeric FEN with a big square", []Tag{{"FEN", "W:W31-50:B1-20."}}, nil, "", "international", nil},
		{"FEN with kings only", []Tag{{"FEN", "B:WK46:BK5"}}, nil, "", "international", nil},
		{"moves above 32", nil, []string{"32-28", "19-23", "33x35"}, "", "international", nil},
		{"moves above 50", nil, []string{"62-57"}, "", "canadian", nil},
		{"small numbers", nil, []string{"11-15", "23x14x7"}, "", "english", nil},
		{"nothing at all: the PDN 3.0 default", nil, nil, "", "international", nil},
		{"Variant tag for a variant without GameType", []Tag{{"Variant", "antidraughts"}}, []string{"32-28"}, "", "antidraughts", nil},
		{"Variant tag wins over GameType", []Tag{{"GameType", "21"}, {"Variant", "giveaway"}}, nil, "", "giveaway", nil},
		{"unknown Variant tag falls back to GameType", []Tag{{"GameType", "21"}, {"Variant", "house rules"}}, nil, "", "english", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := &Game{Tags: tc.tags}
			for _, m := range tc.moves {
				g.Moves = append(g.Moves, Move{Text: m})
			}
			var fallback *rules.Variant
			if tc.fallback != "" {
				fallback = rules.MustLookup(tc.fallback)
			}
			v, err := VariantOf(g, fallback)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("got %v, %v; want error %v", v, err, tc.err)
				}
				return
			}
			if err != nil || v.Name() != tc.want {
				t.Fatalf("got %v, %v; want %s", v, err, tc.want)
			}
		})
	}
}

// TestVariantDetectionInVariations: squares in variations count too.
func TestVariantDetectionInVariations(t *testing.T) {
	g := &Game{Moves: []Move{{Text: "11-15", Variations: [][]Move{{{Text: "33-29"}}}}}}
	if v, _ := VariantOf(g, nil); v.Name() != "international" {
		t.Errorf("got %s", v.Name())
	}
}
