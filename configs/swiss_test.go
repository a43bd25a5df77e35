package configs

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/match/schedule"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
)

func TestSwissConfig(t *testing.T) {
	engines := "engines:\n"
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		engines += "  - {name: " + n + ", command: self engine}\n"
	}
	for _, tc := range []struct {
		name      string
		text      string
		over      []Override
		rounds    int
		baku      bool
		system    swiss.System
		tieBreaks []string
	}{
		{name: "defaults", text: "tournament: swiss\nrounds: 3\n", rounds: 3, tieBreaks: DefaultTieBreaks},
		{name: "odd field, as many rounds as engines", text: "tournament: Swiss\nrounds: 7\n", rounds: 7, tieBreaks: DefaultTieBreaks},
		{name: "baku and tie-breaks", text: "tournament: swiss\nrounds: 5\nswiss: {acceleration: Baku, tie_breaks: [Sonneborn-Berger, wins]}\n",
			rounds: 5, baku: true, tieBreaks: []string{"sonneborn-berger", "wins"}},
		{name: "burstein", text: "tournament: swiss\nrounds: 4\nswiss: {system: Burstein}\n",
			rounds: 4, system: swiss.Burstein, tieBreaks: DefaultTieBreaks},
		{name: "dutch by name", text: "tournament: swiss\nrounds: 4\nswiss: {system: dutch}\n",
			rounds: 4, system: swiss.Dutch, tieBreaks: DefaultTieBreaks},
		{name: "draughts names", text: "tournament: swiss\nrounds: 2\nswiss: {tie_breaks: [truncated-solkoff, SB]}\n",
			rounds: 2, tieBreaks: []string{"buchholz-cut1", "sonneborn-berger"}},
		{name: "flags", text: "tournament: swiss\n", over: []Override{{Key: "rounds", Value: "4", Source: "--rounds"},
			{Key: "swiss.tie_breaks", Value: "progressive, median-buchholz", Source: "--swiss-tie-breaks"}},
			rounds: 4, tieBreaks: []string{"progressive", "median-buchholz"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev, err := Parse([]byte("variant: english\n"+engines+tc.text), "s.yaml", "", Options{Self: "/x", Overrides: tc.over})
			if err != nil {
				t.Fatal(err)
			}
			if ev.Schedule.Kind != schedule.Swiss || ev.Schedule.Rounds != tc.rounds || ev.Schedule.Players != 7 {
				t.Errorf("schedule %+v; want a Swiss of 7 players, %d rounds", ev.Schedule, tc.rounds)
			}
			if ev.Swiss == nil || ev.Swiss.Baku != tc.baku || ev.Swiss.System != tc.system || !slices.Equal(ev.Swiss.TieBreaks, tc.tieBreaks) {
				t.Errorf("swiss settings %+v; want system %v, baku %v, tie-breaks %v", ev.Swiss, tc.system, tc.baku, tc.tieBreaks)
			}
		})
	}
	// A round-robin has no Swiss settings, and its hash does not change
	// with the key's existence: events made before it resume.
	ev, err := Parse([]byte("variant: english\n"+engines), "r.yaml", "", Options{Self: "/x"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(ev.Config)
	if ev.Swiss != nil || strings.Contains(string(b), "swiss") {
		t.Errorf("a round-robin has Swiss settings %+v, or hashes them: %s", ev.Swiss, b)
	}
	var flag *FlagKey
	for _, k := range FlagKeys() {
		if k.Key == "swiss.tie_breaks" {
			flag = &k
		}
	}
	if flag == nil || flag.Flag != "swiss-tie-breaks" || flag.Kind != reflect.String {
		t.Errorf("flag of swiss.tie_breaks: %+v; want --swiss-tie-breaks, a string", flag)
	}
}
