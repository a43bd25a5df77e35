package reports

import (
	"strings"

	"github.com/draughts-arbiter/arbiter/rules"
)

// Scoring is how a federation prints a player's points: FMJD events
// (international, Frisian, Canadian, ...) give 2 points for a win and 1 for
// a draw, the way their games are written (2-0, 1-1); English draughts
// (WCDF) and the others 1, ½, 0. The statistics stay on the 0..1 scale
// (Elo needs it); only the points shown change.
type Scoring struct {
	Win  float64 `json:"win"`
	Draw float64 `json:"draw"`
	// Name says whose convention it is, for the page.
	Name string `json:"name"`
}

// ScoringFor returns the scoring of a variant: out of 2 per game for the
// variants whose results are written in the wide form (the FMJD ones, see
// rules.Variant.WideResults), 1-½-0 otherwise, and for an unknown or custom
// variant name.
func ScoringFor(variant string) Scoring {
	v, err := rules.Lookup(strings.ToLower(strings.TrimSpace(variant)))
	if err == nil && v.WideResults() {
		return Scoring{Win: 2, Draw: 1, Name: "FMJD: 2 points a win, 1 a draw"}
	}
	return Scoring{Win: 1, Draw: 0.5, Name: "1 point a win, ½ a draw"}
}

// PerGame is the points one game is worth.
func (s Scoring) PerGame() float64 { return s.Win }

// Points converts points on the 0..1 scale (a win 1, a draw ½) into the
// federation's.
func (s Scoring) Points(p float64) float64 { return p * s.Win }

// Format prints federation points: whole numbers for a 2-point scale, with
// a ½ sign on the 1-point one.
func (s Scoring) Format(p float64) string { return fmtPoints(s.Points(p)) }
