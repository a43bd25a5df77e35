package director

import (
	"fmt"
	"strings"
)

// SwissRulesSource is where the FMJD's Swiss-system regulations were read:
// "Official regulations of the Swiss system, approved by the FMJD General
// Assembly of 29-30 November 1986" (its text being updated after the
// proposals the General Assembly accepted in 1999-2003), in the Estonian
// federation's translation. The English or French original was not found.
const SwissRulesSource = "https://www.kabeliit.ee/index.php/Kabekoodeks/Osa5"

// Check is a warning about an event's settings: what the director may want
// to change before pairing, with the article it rests on. A check never
// blocks anything.
type Check struct {
	// Code names the check: rounds_few, rounds_many (FMJD Swiss art. 2.4),
	// seeding_order (art. 2.1), unrated (art. 3.1.1, 3.1.2).
	Code    string `json:"code"`
	Article string `json:"article"`
	// Args fill the message's {names} (the page's catalogs have one text a
	// code: "chk."+Code); Text is the message in English.
	Args map[string]string `json:"args"`
	Text string            `json:"text"`
}

// Checks are the warnings on a Swiss event's settings under the FMJD's
// Swiss-system regulations (SwissRulesSource), [] when there are none or
// the event is a round-robin:
//
//   - art. 2.4: the number of rounds should be not less than a third and
//     not more than half of the number of participants (the players still
//     in the event);
//   - art. 2.1: before round 1 the participants are ranked by rating, then
//     title, then presumed strength or the alphabet; a hand-made seeding
//     (SetSeeding) that puts a lower-rated player above a higher-rated one
//     is named, while round 1 is not paired yet;
//   - art. 3.1.1: each participant's rating from the latest list; one not
//     on it gets an estimated rating (3.1.2: or is placed below the
//     field's average, or in its last fifth). Shown when some players are
//     rated and some are not.
func (sn *Snapshot) Checks() []Check {
	out := []Check{}
	if sn.Event.System != Swiss {
		return out
	}
	var active []Player
	for _, p := range sn.Seeded() {
		if p.Withdrawn == 0 {
			active = append(active, p)
		}
	}
	n, r := len(active), sn.Event.Rounds
	if n >= 2 && r > 0 {
		lo, hi := (n+2)/3, n/2
		switch {
		case r < lo:
			out = append(out, check("rounds_few", "FMJD Swiss art. 2.4",
				fmt.Sprintf("%d rounds for %d players: the FMJD's Swiss rules ask for at least a third of the players (%d rounds).", r, n, lo),
				"rounds", r, "players", n, "min", lo))
		case r > hi:
			out = append(out, check("rounds_many", "FMJD Swiss art. 2.4",
				fmt.Sprintf("%d rounds for %d players: the FMJD's Swiss rules ask for at most half the players (%d rounds).", r, n, hi),
				"rounds", r, "players", n, "max", hi))
		}
	}
	if sn.Event.Seeding == SeedManual && len(sn.Rounds) == 0 {
		for i := 1; i < len(active); i++ {
			a, b := active[i-1], active[i]
			if a.Number != 0 && b.Number != 0 && b.Rating > a.Rating {
				out = append(out, check("seeding_order", "FMJD Swiss art. 2.1",
					fmt.Sprintf("The starting numbers are set by hand: %s (%d) is above %s (%d); the FMJD's Swiss rules rank by rating, then title, then name.", a.Name, a.Rating, b.Name, b.Rating),
					"above", a.Name, "above_rating", a.Rating, "below", b.Name, "below_rating", b.Rating))
				break
			}
		}
	}
	var unrated []string
	for _, p := range active {
		if p.Rating <= 0 {
			unrated = append(unrated, p.Name)
		}
	}
	if len(unrated) > 0 && len(unrated) < n {
		names := strings.Join(unrated[:min(len(unrated), 5)], ", ")
		if len(unrated) > 5 {
			names += ", …"
		}
		out = append(out, check("unrated", "FMJD Swiss art. 3.1.1, 3.1.2",
			// The count after a colon reads right for one player too.
			fmt.Sprintf("Players without a rating: %d (%s). The FMJD's Swiss rules give each an estimated rating, or place them below the field's average.", len(unrated), names),
			"count", len(unrated), "names", names))
	}
	return out
}

// check makes a Check; kv are the message's arguments, name then value.
func check(code, article, text string, kv ...any) Check {
	c := Check{Code: code, Article: article, Text: text, Args: map[string]string{}}
	for i := 0; i+1 < len(kv); i += 2 {
		c.Args[fmt.Sprint(kv[i])] = fmt.Sprint(kv[i+1])
	}
	return c
}
