package online

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/pdn"
)

// writePDN writes the record as PDN. TEMPORARY: the arbiter's Record ->
// PDN builder (arbiter/pdn.go, issue 9) replaces it once it lands.
func writePDN(rec arbiter.Record, s Setup, created time.Time) (string, error) {
	v := rec.Variant
	res := rec.Result
	pg := &pdn.Game{Result: res.PDN(v)}
	set := pg.SetTag
	name := func(n string) string {
		if n == "" {
			return "?"
		}
		return n
	}
	set("Event", "Online game")
	set("Site", "?")
	set("Date", created.UTC().Format("2006.01.02"))
	set("Round", "-")
	set("White", name(s.White))
	set("Black", name(s.Black))
	set("Result", res.PDN(v))
	if gt := v.GameTypeTag(); gt != "" {
		set("GameType", gt)
	} else {
		set("Variant", v.Name())
	}
	if rec.Start != rules.NewPosition(v) {
		set("FEN", rec.Start.FEN())
	}
	set("TimeControl", rec.TimeControl[0].String())
	if res.Outcome != rules.Ongoing {
		set("Termination", string(res.Termination))
	}
	set("PlyCount", strconv.Itoa(len(rec.Moves)))
	for i, m := range rec.Moves {
		pm := pdn.Move{Text: m.Text, Num: i/2 + 1, Second: i%2 == 1}
		if rec.Start.Turn() != v.FirstPlayer() {
			pm.Num, pm.Second = (i+1)/2+1, i%2 == 0
		}
		pg.Moves = append(pg.Moves, pm)
	}
	note := func(ply int, text string) {
		i := min(ply, len(pg.Moves)) - 1
		if i < 0 {
			pg.Comment = join(pg.Comment, text)
			return
		}
		pg.Moves[i].Comment = join(pg.Moves[i].Comment, text)
	}
	for _, w := range rec.Warnings {
		note(w.Ply, fmt.Sprintf("%s played %s, illegal (%s) %s", w.Color, w.Text, w.Why, w.Decision))
	}
	for _, c := range rec.Claims {
		verdict := "refused"
		if c.Accepted {
			verdict = "valid"
		}
		note(c.Ply, fmt.Sprintf("%s claims %s: %s, %s", c.Color, c.Kind, verdict, c.Reason))
	}
	for _, d := range rec.Decisions {
		note(d.Ply, "arbiter: "+d.String())
	}
	if res.Reason != "" {
		note(len(pg.Moves), res.Reason)
	}
	var b strings.Builder
	if err := pdn.Write(&b, pg); err != nil {
		return "", fmt.Errorf("online: writing PDN: %w", err)
	}
	return b.String(), nil
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
