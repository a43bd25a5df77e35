package director

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// field is n players numbered 1..n, rated 2000 down by 10 (rated false:
// all unrated).
func field(n int, rated bool) []Player {
	ps := make([]Player, n)
	for i := range ps {
		ps[i] = Player{ID: i + 1, Number: i + 1, Name: fmt.Sprintf("P%d", i+1), Entered: 1}
		if rated {
			ps[i].Rating = 2000 - 10*i
		}
	}
	return ps
}

// TestChecks: each FMJD Swiss check (art. 2.4 rounds for the field, 2.1
// seeding, 3.1.1 ratings) fires where the article says and stays silent
// otherwise.
func TestChecks(t *testing.T) {
	withdrawn := field(16, true)
	withdrawn[3].Withdrawn, withdrawn[9].Withdrawn = 2, 2
	swapped := field(6, true)
	swapped[1].Number, swapped[2].Number = 3, 2 // P3 (1980) seeded above P2 (1990)
	someUnrated := field(8, true)
	someUnrated[5].Rating, someUnrated[7].Rating = 0, 0
	tests := []struct {
		name    string
		system  System
		rounds  int
		seeding string
		paired  bool
		players []Player
		want    []string // code: args, sorted by key
	}{
		{"round-robin", RoundRobin, 3, "", false, field(14, true), nil},
		{"14 players, 5 to 7 rounds", Swiss, 5, "", false, field(14, true), nil},
		{"14 players, 7 rounds", Swiss, 7, "", false, field(14, true), nil},
		{"14 players, 4 rounds", Swiss, 4, "", false, field(14, true), []string{"rounds_few: min=5 players=14 rounds=4"}},
		{"14 players, 8 rounds", Swiss, 8, "", false, field(14, true), []string{"rounds_many: max=7 players=14 rounds=8"}},
		{"withdrawn players do not count", Swiss, 8, "", false, withdrawn, []string{"rounds_many: max=7 players=14 rounds=8"}},
		{"manual seeding out of rating order", Swiss, 3, SeedManual, false, swapped, []string{"seeding_order: above=P3 above_rating=1980 below=P2 below_rating=1990"}},
		{"manual seeding, round 1 paired", Swiss, 3, SeedManual, true, swapped, nil},
		{"manual seeding in order", Swiss, 3, SeedManual, false, field(6, true), nil},
		{"two unrated", Swiss, 4, "", false, someUnrated, []string{"unrated: count=2 names=P6, P8"}},
		{"nobody rated", Swiss, 4, "", false, field(8, false), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sn := &Snapshot{Event: Event{System: tc.system, Rounds: tc.rounds, Seeding: tc.seeding}, Players: tc.players}
			if tc.paired {
				sn.Rounds = []Round{{N: 1}}
			}
			cs := sn.Checks()
			if cs == nil {
				t.Fatal("Checks is nil, want []")
			}
			var got []string
			for _, c := range cs {
				var args []string
				for _, k := range slices.Sorted(maps.Keys(c.Args)) {
					args = append(args, k+"="+c.Args[k])
				}
				got = append(got, c.Code+": "+strings.Join(args, " "))
				if !strings.HasPrefix(c.Article, "FMJD Swiss art. ") || c.Text == "" {
					t.Errorf("%s: article %q, text %q", c.Code, c.Article, c.Text)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("checks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
