package pairfile

import (
	"bufio"
	"fmt"
	"io"

	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss/trf"
	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// Checklist writes, for every round the file records and for the next
// one when the event has rounds left, the table a director audits: each
// player in pairing order (C.04.3 1.2) with the pairing score, colour
// difference and preference, the floats of the two previous rounds, the
// PAB eligibility (C.04.1 art. 4), and what they got in that round.
//
// Columns: No (pairing number), Pts (pairing score), Diff (whites minus
// blacks), Pref (w/b; upper case strong, "W!"/"B!" absolute), F1 F2
// (float one and two rounds back: D down, U up; in a Burstein round after
// the seeding rounds BH and SB instead, the Buchholz and Sonneborn-Berger
// of the Index, C.04.4.2 1.7, players in the order of 1.8), PAB (Y eligible, N not),
// then the round: the opponent and colour ("12 w"), PAB, a requested bye
// (H, F, Z) or "-" absent.
func Checklist(w io.Writer, ev *trf.Event) error {
	all, err := ev.PairingState()
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInput, err)
	}
	bw := bufio.NewWriter(w)
	played := 0
	if len(all) > 0 {
		played = len(all[0].History)
	}
	last := played
	if ev.Rounds > played {
		last = played + 1
	}
	for r := 1; r <= last; r++ {
		opt, unit, err := Options(ev, r)
		if err != nil {
			return err
		}
		var state []tally.Player
		if r <= played {
			state = stateBefore(all, r)
		} else {
			state = all
		}
		ds, err := swiss.Describe(state, opt)
		if err != nil {
			return err
		}
		fmt.Fprintf(bw, "Round %d\n", r)
		burstein := len(ds) > 0 && ds[0].Index != nil
		if burstein {
			// C.04.4.2: the Index ranks the brackets; floats play no part.
			fmt.Fprintf(bw, "%5s %5s %4s %4s %6s %7s %3s  %s\n", "No", "Pts", "Diff", "Pref", "BH", "SB", "PAB", "Round")
		} else {
			fmt.Fprintf(bw, "%5s %5s %4s %4s %2s %2s %3s  %s\n", "No", "Pts", "Diff", "Pref", "F1", "F2", "PAB", "Round")
		}
		byNum := map[int]tally.Player{}
		for _, p := range all {
			byNum[p.Number] = p
		}
		for _, d := range ds {
			got := "next"
			if r <= played {
				got = entryText(byNum[d.Number].History[r-1])
			} else if d.Absent {
				got = "-"
			}
			yn := "N"
			if d.ByeEligible {
				yn = "Y"
			}
			if burstein {
				pts := float64(unit) / 10 // points of one unit of the scoring
				fmt.Fprintf(bw, "%5d %5s %+4d %4s %6.1f %7.2f %3s  %s\n", d.Number, tenths(d.Score*unit), d.ColourDiff,
					prefText(d), float64(d.Index.Buchholz)*pts, float64(d.Index.SonnebornBerger)*pts*pts, yn, got)
				continue
			}
			fmt.Fprintf(bw, "%5d %5s %+4d %4s %2s %2s %3s  %s\n", d.Number, tenths(d.Score*unit), d.ColourDiff,
				prefText(d), dash(d.Float1), dash(d.Float2), yn, got)
		}
		fmt.Fprintln(bw)
	}
	return bw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func prefText(d swiss.PlayerState) string {
	c := map[tally.Color]string{tally.White: "w", tally.Black: "b"}[d.Preference]
	switch d.Strength {
	case "":
		return "-"
	case "strong":
		return map[string]string{"w": "W", "b": "B"}[c]
	case "absolute":
		return map[string]string{"w": "W!", "b": "B!"}[c]
	}
	return c
}

func entryText(e tally.Entry) string {
	switch {
	case isPAB(e):
		return "PAB"
	case e.Opponent == 0:
		return string(e.Result)
	}
	c := map[tally.Color]string{tally.White: "w", tally.Black: "b"}[e.Color]
	if c == "" {
		c = "-"
	}
	return fmt.Sprintf("%d %s %c", e.Opponent, c, e.Result)
}
