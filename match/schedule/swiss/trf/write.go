package trf

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// Write writes ev as a TRF16 file with fixed columns, lines ending in CR LF
// (TRF16 asks for CR; readers that split on LF read it too). The header
// lines come first, then XXR, XXC, XXS, the 001 lines in ev's order, the
// XXA lines and ev.Extra. A field too wide for its columns, a line break in
// a field or an inconsistent history (see Read) is an error naming the
// player and field; nothing is written then.
func Write(w io.Writer, ev *Event) error {
	var b strings.Builder
	if err := format(&b, ev); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	if _, err := bw.WriteString(b.String()); err != nil {
		return fmt.Errorf("trf: writing: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("trf: writing: %w", err)
	}
	return nil
}

const eol = "\r\n"

func format(b *strings.Builder, ev *Event) error {
	header := func(code, field, v string) error {
		if v == "" {
			return nil
		}
		if strings.ContainsAny(v, "\r\n") {
			return fmt.Errorf("trf: %s (%s) has a line break", field, code)
		}
		b.WriteString(code + " " + strings.TrimSpace(v) + eol)
		return nil
	}
	for _, h := range []struct{ code, field, v string }{
		{"012", "event name", ev.Name},
		{"022", "city", ev.City},
		{"032", "federation", ev.Federation},
		{"042", "start date", ev.StartDate},
		{"052", "end date", ev.EndDate},
	} {
		if err := header(h.code, h.field, h.v); err != nil {
			return err
		}
	}
	if ev.NumPlayers < 0 || ev.RatedPlayers < 0 {
		return fmt.Errorf("trf: negative number of players")
	}
	if ev.NumPlayers > 0 {
		fmt.Fprintf(b, "062 %d%s", ev.NumPlayers, eol)
	}
	if ev.RatedPlayers > 0 {
		fmt.Fprintf(b, "072 %d%s", ev.RatedPlayers, eol)
	}
	if err := header("092", "type", ev.Type); err != nil {
		return err
	}
	if err := header("102", "arbiter", ev.Arbiter); err != nil {
		return err
	}
	for _, d := range ev.Deputies {
		if strings.ContainsAny(d, "\r\n") {
			return fmt.Errorf("trf: deputy arbiter (112) has a line break")
		}
		b.WriteString(strings.TrimRight("112 "+strings.TrimSpace(d), " ") + eol)
	}
	if err := header("122", "time control", ev.TimeControl); err != nil {
		return err
	}
	if len(ev.RoundDates) > 0 {
		if len(ev.RoundDates) > maxRounds {
			return fmt.Errorf("trf: more than %d round dates", maxRounds)
		}
		l := []rune("132" + strings.Repeat(" ", 88))
		for r, d := range ev.RoundDates {
			d = strings.TrimSpace(d)
			if err := fits(d, 8); err != nil {
				return fmt.Errorf("trf: date of round %d (132): %w", r+1, err)
			}
			l = append(l, []rune(fmt.Sprintf("%-10s", d))...)
		}
		b.WriteString(strings.TrimRight(string(l), " ") + eol)
	}
	if ev.Rounds < 0 || ev.Rounds > maxRounds {
		return fmt.Errorf("trf: number of rounds %d is not from 1 to %d", ev.Rounds, maxRounds)
	}
	if ev.Rounds > 0 {
		fmt.Fprintf(b, "XXR %d%s", ev.Rounds, eol)
	}
	switch ev.FirstColor {
	case tally.White:
		b.WriteString("XXC white1" + eol)
	case tally.Black:
		b.WriteString("XXC black1" + eol)
	}
	if ps := ev.PointSystem; ps != nil {
		var parts []string
		for _, f := range []struct {
			code string
			v    int
		}{
			{"WW", ps.Win}, {"BW", ps.Win}, {"WD", ps.Draw}, {"BD", ps.Draw}, {"WL", ps.Loss}, {"BL", ps.Loss},
			{"ZPB", ps.ZeroBye}, {"HPB", ps.HalfBye}, {"FPB", ps.FullBye}, {"PAB", ps.PairingBye},
			{"FW", ps.ForfeitWin}, {"FL", ps.ForfeitLoss},
		} {
			if f.v < 0 || f.v > 9999 {
				return fmt.Errorf("trf: points %s of the point system (XXS) are not from 0 to 999.9", f.code)
			}
			parts = append(parts, f.code+"="+formatTenths(f.v))
		}
		b.WriteString("XXS " + strings.Join(parts, " ") + eol)
	}

	index := map[int]int{}
	for i, p := range ev.Players {
		if p.Number < 1 || p.Number > 9999 {
			return fmt.Errorf("trf: player %q: start rank %d is not from 1 to 9999", p.Name, p.Number)
		}
		if _, dup := index[p.Number]; dup {
			return fmt.Errorf("trf: start rank %d is repeated", p.Number)
		}
		index[p.Number] = i
	}
	if err := check(ev, index, func(number, round int, msg string) error {
		return fmt.Errorf("trf: player %d: %s", number, msg)
	}); err != nil {
		return err
	}
	for _, p := range ev.Players {
		l, err := playerLine(p)
		if err != nil {
			return fmt.Errorf("trf: player %d: %w", p.Number, err)
		}
		b.WriteString(l + eol)
	}
	for _, p := range ev.Players {
		if len(p.Acceleration) == 0 {
			continue
		}
		if len(p.Acceleration) > maxRounds {
			return fmt.Errorf("trf: player %d: acceleration (XXA) for more than %d rounds", p.Number, maxRounds)
		}
		fmt.Fprintf(b, "XXA %4d", p.Number)
		for r, a := range p.Acceleration {
			s, err := fourColumns(a)
			if err != nil {
				return fmt.Errorf("trf: player %d: acceleration (XXA) of round %d: %w", p.Number, r+1, err)
			}
			fmt.Fprintf(b, " %4s", s)
		}
		b.WriteString(eol)
	}
	for _, x := range ev.Extra {
		if strings.ContainsAny(x, "\r\n") {
			return fmt.Errorf("trf: extra line %q has a line break", x)
		}
		x = strings.TrimRight(x, " \t")
		if strings.TrimSpace(x) == "" {
			continue
		}
		if isKnownCode(x) {
			return fmt.Errorf("trf: extra line %q has a code this package writes itself", x)
		}
		if !utf8.ValidString(x) {
			return fmt.Errorf("trf: extra line %q is not valid UTF-8", x)
		}
		b.WriteString(x + eol)
	}
	return nil
}

// isKnownCode reports whether the line is one Read interprets, so that it
// would not come back as an extra line.
func isKnownCode(s string) bool {
	r := []rune(s)
	if len(r) > 3 && r[3] != ' ' {
		return false
	}
	switch string(r[:min(3, len(r))]) {
	case "001", "012", "022", "032", "042", "052", "062", "072", "092", "102", "112", "122", "132", "XXR", "XXC", "XXS", "XXA":
		return true
	}
	return false
}

// fits checks that a field has no line break and at most n characters.
func fits(s string, n int) error {
	if strings.ContainsAny(s, "\r\n") {
		return fmt.Errorf("%q has a line break", s)
	}
	if utf8.RuneCountInString(s) > n {
		return fmt.Errorf("%q is longer than %d characters", s, n)
	}
	return nil
}

func formatTenths(v int) string { return fmt.Sprintf("%d.%d", v/10, v%10) }

// fourColumns writes tenths of a point in the 4 columns a 001 or XXA line
// has: "99.5", or whole points up to 9999 without the decimal.
func fourColumns(v int) (string, error) {
	if v < 0 {
		return "", fmt.Errorf("%s is negative", formatTenths(-v))
	}
	if s := formatTenths(v); len(s) <= 4 {
		return s, nil
	}
	if v%10 == 0 && v/10 <= 9999 {
		return fmt.Sprint(v / 10), nil
	}
	return "", fmt.Errorf("%s does not fit in 4 columns (at most 99.9, or whole points up to 9999)", formatTenths(v))
}

func playerLine(p Player) (string, error) {
	for _, f := range []struct {
		name string
		v    string
		n    int
	}{
		{"sex", p.Sex, 1}, {"title", p.Title, 3}, {"name", p.Name, 33}, {"federation", p.Federation, 3},
		{"FIDE id", p.FIDEID, 11}, {"birth date", p.Birth, 10},
	} {
		if err := fits(f.v, f.n); err != nil {
			return "", fmt.Errorf("%s: %w", f.name, err)
		}
		if f.v != strings.TrimSpace(f.v) {
			return "", fmt.Errorf("%s %q has leading or trailing spaces", f.name, f.v)
		}
	}
	if p.Rating < 0 || p.Rating > 9999 {
		return "", fmt.Errorf("rating %d is not from 0 to 9999", p.Rating)
	}
	points, err := fourColumns(p.Points)
	if err != nil {
		return "", fmt.Errorf("points: %w", err)
	}
	if p.Rank < 0 || p.Rank > 9999 {
		return "", fmt.Errorf("rank %d is not from 0 to 9999", p.Rank)
	}
	if len(p.History) > maxRounds {
		return "", fmt.Errorf("more than %d rounds", maxRounds)
	}
	rating, rank := "", ""
	if p.Rating > 0 {
		rating = fmt.Sprint(p.Rating)
	}
	if p.Rank > 0 {
		rank = fmt.Sprint(p.Rank)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "001 %4d %s%s %s %4s %s %s %s %4s %4s",
		p.Number, pad(p.Sex, 1, false), pad(p.Title, 3, true), pad(p.Name, 33, false), rating,
		pad(p.Federation, 3, false), pad(p.FIDEID, 11, true), pad(p.Birth, 10, false),
		points, rank)
	for r, e := range p.History {
		if msg := entryProblem(e); msg != "" {
			return "", fmt.Errorf("round %d: %s", r+1, msg)
		}
		if e.Opponent < 0 || e.Opponent > 9999 || e.Opponent == p.Number {
			return "", fmt.Errorf("round %d: opponent %d is not another start rank", r+1, e.Opponent)
		}
		opp := "0000"
		if e.Opponent != 0 {
			opp = fmt.Sprint(e.Opponent)
		}
		c := '-'
		switch e.Color {
		case tally.White:
			c = 'w'
		case tally.Black:
			c = 'b'
		case tally.NoColor:
		default:
			return "", fmt.Errorf("round %d: colour %d is not white, black or none", r+1, e.Color)
		}
		fmt.Fprintf(&b, "  %4s %c %c", opp, c, rune(e.Result))
	}
	return strings.TrimRight(b.String(), " "), nil
}

// pad pads s with spaces to n characters, on the left when right is set.
func pad(s string, n int, right bool) string {
	sp := strings.Repeat(" ", max(0, n-utf8.RuneCountInString(s)))
	if right {
		return sp + s
	}
	return s + sp
}
