package trf

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// Write writes ev as a TRF16 or TRF-2026 file (ev.Version) with fixed
// columns, lines ending in CR LF (TRF asks for CR; readers that split on
// LF read it too). The header lines come first, then the rounds, first
// colour and point system (TRF16: XXR, XXC, XXS; TRF-2026: 142, 152, 192,
// 162, or XXS when 162 cannot say the points), the 001 lines in ev's
// order, the accelerations (XXA; 250), the prohibited pairings (XXP for
// every round, 260 for some) and ev.Extra. 192 is written in TRF-2026 only. A field too wide for its columns, a line break in
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
	v26 := ev.Version == TRF26
	if ev.Rounds > 0 {
		code := "XXR"
		if v26 {
			code = "142"
		}
		fmt.Fprintf(b, "%s %d%s", code, ev.Rounds, eol)
	}
	switch {
	case v26 && ev.FirstColor != tally.NoColor:
		b.WriteString("152 " + map[tally.Color]string{tally.White: "W", tally.Black: "B"}[ev.FirstColor] + eol)
	case ev.FirstColor == tally.White:
		b.WriteString("XXC white1" + eol)
	case ev.FirstColor == tally.Black:
		b.WriteString("XXC black1" + eol)
	}
	if v26 && ev.System != "" {
		if err := header("192", "type code", ev.System); err != nil {
			return err
		}
	}
	wrote162 := false
	if ps := ev.PointSystem; v26 && ps != nil {
		l, ok := line162(*ps)
		if ok {
			if l == "" { // FIDE's points: said, so that the file says it has them
				l = "162  W 1.0"
			}
			b.WriteString(l + eol)
			wrote162 = true
		}
	}
	if ps := ev.PointSystem; ps != nil && !wrote162 {
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
	if v26 {
		for _, l := range lines250(ev.Players) {
			b.WriteString(l + eol)
		}
	}
	for _, p := range ev.Players {
		if len(p.Acceleration) == 0 || v26 {
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
	for _, f := range ev.Forbidden {
		if len(f.Players) < 2 {
			return fmt.Errorf("trf: a prohibited pairing of %d players", len(f.Players))
		}
		for _, n := range f.Players {
			if _, ok := index[n]; !ok {
				return fmt.Errorf("trf: prohibited pairing names player %d, who is not in the event", n)
			}
		}
		first, last := f.First, f.Last
		if first == 0 { // every round: XXP, which both versions read
			b.WriteString("XXP")
			for _, n := range f.Players {
				fmt.Fprintf(b, " %d", n)
			}
			b.WriteString(eol)
			continue
		}
		if first < 1 || last < first || last > maxRounds {
			return fmt.Errorf("trf: prohibited pairing in rounds %d to %d", first, last)
		}
		fmt.Fprintf(b, "260 %03d %03d", first, last)
		for _, n := range f.Players {
			fmt.Fprintf(b, " %4d", n)
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
	case "001", "012", "022", "032", "042", "052", "062", "072", "092", "102", "112", "122", "132", "XXR", "XXC", "XXS", "XXA", "XXP", "142", "152", "162", "192", "240", "250", "260":
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

// line162 is the TRF-2026 point system for ps, when 162 can say it: a
// forfeit win and a full-point bye score a win, a half-point bye a draw, a
// forfeit loss a zero-point bye. Only the codes whose points differ from
// the default are written, as the record asks.
func line162(ps PointSystem) (string, bool) {
	if ps.ForfeitWin != ps.Win || ps.FullBye != ps.Win || ps.HalfBye != ps.Draw || ps.ForfeitLoss != ps.ZeroBye {
		return "", false
	}
	var parts []string
	for _, f := range []struct {
		code    string
		v, dflt int
	}{{"W", ps.Win, 10}, {"D", ps.Draw, 5}, {"L", ps.Loss, 0}, {"A", ps.ZeroBye, 0}, {"P", ps.PairingBye, ps.Win}} {
		if f.v == f.dflt {
			continue
		}
		s, err := fourColumns(f.v)
		if err != nil {
			return "", false
		}
		parts = append(parts, fmt.Sprintf("%s%4s", f.code, s))
	}
	if len(parts) == 0 {
		return "", true
	}
	return "162  " + strings.Join(parts, "    "), true
}

// lines250 writes the players' accelerations as TRF-2026 250 records: each
// run of rounds with the same points, for each run of consecutive start
// ranks with the same run.
func lines250(players []Player) []string {
	type run struct{ pts, r1, r2 int }
	byRun := map[run][]int{}
	var order []run
	for _, p := range players {
		a := p.Acceleration
		for r := 0; r < len(a); {
			if a[r] == 0 {
				r++
				continue
			}
			e := r
			for e+1 < len(a) && a[e+1] == a[r] {
				e++
			}
			k := run{a[r], r + 1, e + 1}
			if _, ok := byRun[k]; !ok {
				order = append(order, k)
			}
			byRun[k] = append(byRun[k], p.Number)
			r = e + 1
		}
	}
	var out []string
	for _, k := range order {
		ns := append([]int(nil), byRun[k]...)
		sort.Ints(ns)
		pts, _ := fourColumns(k.pts)
		for i := 0; i < len(ns); {
			j := i
			for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
				j++
			}
			out = append(out, fmt.Sprintf("250      %4s %03d %03d %04d %04d", pts, k.r1, k.r2, ns[i], ns[j]))
			i = j + 1
		}
	}
	return out
}
