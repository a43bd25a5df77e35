package sheets

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/draughts-arbiter/arbiter/rules/tally"

	"github.com/draughts-arbiter/arbiter/reports/tiebreak"
)

//go:embed sheets.html.tmpl
var sheetsTemplate string

//go:embed sheets.css
var sheetsCSS string

// pages is parsed at its first use, not when the program starts: most
// commands never print a sheet.
var pages = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("sheets").Funcs(template.FuncMap{
		"css": func() template.CSS { return template.CSS(sheetsCSS) },
		"inc": func(i int) int { return i + 1 },
	}).Parse(sheetsTemplate))
})

// page is what every sheet's template reads: the event's heading and the
// sheet's own data.
type page struct {
	Title    string // the sheet's name ("Pairings, round 3")
	Event    *Event
	Subtitle string
	Data     any
}

// T is the template's text of key in the event's language ({{$.T
// "sheet.col.rank"}}, {{$.T "sheet.col.round_n" "n" .}}).
func (p page) T(key string, args ...any) string { return p.Event.text(key, args...) }

// Lang is the page's language tag.
func (p page) Lang() string { return p.Event.lang() }

// line is one player as a sheet prints it.
type line struct {
	Number           int
	Name, Club, Fed  string
	Title            string
	Rating           string
	Score            string
	Rank             int
	RankShared       bool
	TieBreaks        []string
	Cells            []cell   // crosstable
	Grid             []string // round-robin crosstable: the points against each line, "" for itself
	PlayerHref, Note string
	// RatingChange and Performance: Event.Rated, a rated player with rated
	// games (reports/rating); "" otherwise.
	RatingChange, Performance string
	// Initial is an unrated player's initial rating from the games
	// against rated opponents (FIDE B.02 art. 8.2), as text; "" when the
	// articles give none yet.
	Initial string
}

// cell is one round of one player in the crosstable or on a card.
type cell struct {
	Round      int
	Board      int    // 0 for none
	Opponent   int    // 0 for none
	OppName    string // on cards
	OppRating  string
	Colour     string // "w", "b" (in the event's language) or ""
	Result     string // the points, "+", "−", or a bye's label
	Running    string // cards: the score after the round
	Pending    bool
	Unplayed   bool
	ByeLabel   string
	ColourWord string // "White", "Black"
	// RatingChange is a card's rated game's K·(score − PD), one decimal.
	RatingChange string
}

func (ev *Event) fmtScore(units int) string { return tally.FormatUnits(units, ev.Halves) }

func (ev *Event) fmtValue(tb tiebreak.TieBreak, v float64) string { return tb.Format(v, ev.Halves) }

// boardResult prints a board's result as the event scores it: "2-0",
// "1-1", "0-2" in FMJD points, "1-0", "½-½", "0-1" in halves; forfeits as
// "+ −"; pending as "".
func (ev *Event) boardResult(r Result) string {
	s := ev.scoring()
	switch r {
	case WhiteWins:
		return ev.fmtScore(s.Win) + "-" + ev.fmtScore(s.Loss)
	case Draw:
		return ev.fmtScore(s.Draw) + "-" + ev.fmtScore(s.Draw)
	case BlackWins:
		return ev.fmtScore(s.Loss) + "-" + ev.fmtScore(s.Win)
	case WhiteForfeitWin:
		return "+ −"
	case BlackForfeitWin:
		return "− +"
	case DoubleForfeit:
		return "− −"
	}
	return ""
}

// boardLabel is the board's result on the pairing sheet: the caller's
// label, else boardResult.
func (ev *Event) boardLabel(b Board) string {
	if b.Label != "" && b.Result != Pending {
		return b.Label
	}
	if b.WhiteBye == 0 && b.BlackBye == 0 {
		return ev.boardResult(b.Result)
	}
	// A board decided by a bye: each side's points, the bye named.
	s := ev.scoring()
	w, bl := b.Result.codes()
	side := func(res, bye tally.Result) string {
		if bye != 0 {
			return ev.fmtScore(s.Points(bye)) + " " + ev.byeLabel(bye)
		}
		if res == tally.ForfeitWin {
			return "+"
		}
		return ev.fmtScore(s.Points(res))
	}
	return side(w, b.WhiteBye) + " – " + side(bl, b.BlackBye)
}

// byeLabel names what a round off the boards was.
func (ev *Event) byeLabel(k tally.Result) string {
	switch k {
	case tally.PairingBye:
		return ev.text("sheet.bye")
	case tally.FullBye:
		return ev.text("sheet.bye.full")
	case tally.HalfBye:
		return ev.text("sheet.bye.half")
	}
	return ev.text("sheet.absent")
}

func (ev *Event) player(n int) *Player {
	for i := range ev.Players {
		if ev.Players[i].Number == n {
			return &ev.Players[i]
		}
	}
	return nil
}

func rating(r int) string {
	if r <= 0 {
		return ""
	}
	return strconv.Itoa(r)
}

// render runs a template into a buffer first, so that a failure writes
// nothing.
func render(w io.Writer, name string, p page) error {
	var buf bytes.Buffer
	if err := pages().ExecuteTemplate(&buf, name, p); err != nil {
		return fmt.Errorf("sheets: %s: %w", name, err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// notices are the sheets that can be asked for before there is anything
// to list: the text keys of each one's title and of its line.
var notices = map[string][2]string{
	"pairings":   {"sheet.title.pairings_none", "sheet.notice.pairings"},
	"standings":  {"sheet.title.standings_none", "sheet.notice.standings"},
	"crosstable": {"sheet.title.crosstable", "sheet.notice.crosstable"},
}

// Notice writes the page of a sheet that has nothing to list yet: the
// event's heading, the sheet's title and one line saying when it will
// ("No round has been published yet."), so that a public page asked for
// too early answers with a page rather than an error. sheet is
// "pairings" (no round published), "standings" or "crosstable" (no round
// closed).
func Notice(w io.Writer, ev *Event, sheet string) error {
	if err := ev.check(); err != nil {
		return err
	}
	keys, ok := notices[sheet]
	if !ok {
		return fmt.Errorf("sheets: notice of sheet %q asked; want pairings, standings or crosstable", sheet)
	}
	return render(w, "notice", page{Title: ev.text(keys[0]), Event: ev, Data: ev.text(keys[1])})
}

// pairingsView is the pairing sheet's data.
type pairingsView struct {
	Round  int
	Date   string
	Boards []pairingBoard
	Byes   []pairingBye
}

type pairingBoard struct {
	Board        int
	White, Black line
	Result       string
}

type pairingBye struct {
	Player line
	Label  string
	Points string
}

// Pairings writes the pairing sheet of round (1-based): each board with
// both players' numbers, names, ratings and scores before the round, the
// result when it is in (blank to be filled in otherwise), and the players
// off the boards.
func Pairings(w io.Writer, ev *Event, round int) error {
	if err := ev.check(); err != nil {
		return err
	}
	if round < 1 || round > len(ev.Played) {
		return fmt.Errorf("sheets: pairings of round %d asked; rounds 1 to %d are paired", round, len(ev.Played))
	}
	v := ev.pairings(round)
	return render(w, "pairings", page{Title: ev.text("sheet.title.pairings", "n", round), Event: ev, Subtitle: v.Date, Data: v})
}

// pairings is the pairing sheet's data of round (checked).
func (ev *Event) pairings(round int) pairingsView {
	s := ev.scoring()
	before := ev.scoresAfter(round - 1)
	mk := func(n int) line {
		p := ev.player(n)
		return line{Number: n, Name: p.Name, Title: p.Title, Club: p.Club, Fed: p.Federation, Rating: rating(p.Rating), Score: ev.fmtScore(before[n])}
	}
	rd := ev.Played[round-1]
	v := pairingsView{Round: round, Date: rd.Date}
	for i, b := range rd.Boards {
		v.Boards = append(v.Boards, pairingBoard{Board: i + 1, White: mk(b.White), Black: mk(b.Black), Result: ev.boardLabel(b)})
	}
	for _, by := range rd.Byes {
		// A player who has withdrawn is no longer "absent" round after round.
		if p := ev.player(by.Player); by.Kind == tally.ZeroBye && p.Withdrawn != 0 && p.Withdrawn <= round {
			continue
		}
		v.Byes = append(v.Byes, pairingBye{Player: mk(by.Player), Label: ev.byeLabel(by.Kind), Points: ev.fmtScore(s.Points(by.Kind))})
	}
	return v
}

// slip is one board's result slip.
type slip struct {
	Board        int
	White, Black line
	Results      [3]string // White wins, draw, Black wins, in the event's points
}

// printView is the round's print-out.
type printView struct {
	pairingsView
	Slips []slip
}

// RoundPrint writes round's print-out (1-based): the pairing sheet, then a
// result slip for each board, to cut out and hand to the players: the
// event, the round and board, both players, the three results in the
// event's points to tick, and two signature lines. The slips of boards
// whose result is in are left out.
func RoundPrint(w io.Writer, ev *Event, round int) error {
	if err := ev.check(); err != nil {
		return err
	}
	if round < 1 || round > len(ev.Played) {
		return fmt.Errorf("sheets: print-out of round %d asked; rounds 1 to %d are paired", round, len(ev.Played))
	}
	v := printView{pairingsView: ev.pairings(round)}
	sc := ev.scoring()
	res := [3]string{
		ev.fmtScore(sc.Win) + "-" + ev.fmtScore(sc.Loss), ev.fmtScore(sc.Draw) + "-" + ev.fmtScore(sc.Draw), ev.fmtScore(sc.Loss) + "-" + ev.fmtScore(sc.Win),
	}
	for i, b := range ev.Played[round-1].Boards {
		if b.Result != Pending {
			continue
		}
		v.Slips = append(v.Slips, slip{Board: i + 1, White: v.Boards[i].White, Black: v.Boards[i].Black, Results: res})
	}
	return render(w, "print", page{Title: ev.text("sheet.title.print", "n", round), Event: ev, Subtitle: v.Date, Data: v})
}

// scoresAfter is every player's score after round upTo, pending results
// counting nothing.
func (ev *Event) scoresAfter(upTo int) map[int]int {
	s := ev.scoring()
	es := ev.entries(upTo)
	out := make(map[int]int, len(ev.Players))
	for i, p := range ev.Players {
		for _, e := range es[i] {
			if !e.pending {
				out[p.Number] += s.Points(e.Result)
			}
		}
	}
	return out
}

// standingsView is the standings' data.
type standingsView struct {
	Round     int
	TieBreaks []tieBreakHead
	Lines     []line
	Cells     []int // crosstable: the rounds shown
	Grid      bool  // a round-robin's table of every pair
}

type tieBreakHead struct{ Heading, Acronym, Name string }

// Legend is the tie-breaks whose heading is not FIDE's acronym: the
// legend maps each to its acronym (C.07), which a phone prints as the
// heading; "SB = SB" would tell nobody anything.
func (v standingsView) Legend() []tieBreakHead {
	var out []tieBreakHead
	for _, h := range v.TieBreaks {
		if h.Heading != h.Acronym {
			out = append(out, h)
		}
	}
	return out
}

// ranked ranks the event after round (all rounds to it complete).
func (ev *Event) ranked(round int) ([]line, []tieBreakHead, error) {
	for r := range round {
		if !ev.complete(r) {
			return nil, nil, fmt.Errorf("sheets: standings after round %d asked; round %d has results pending", round, r+1)
		}
		if ev.Played[r].Open {
			return nil, nil, fmt.Errorf("sheets: standings after round %d asked; round %d is open", round, r+1)
		}
	}
	st, err := tiebreak.Rank(ev.listedPlayers(round), ev.TieBreaks, tiebreak.Options{
		Scoring: ev.scoring(), Edition: ev.Edition, RoundRobin: ev.RoundRobin,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("sheets: %w", err)
	}
	var heads []tieBreakHead
	for _, tb := range ev.TieBreaks {
		h := ev.Texts[tbKey(tb)]
		if strings.TrimSpace(h) == "" {
			h = tb.Heading()
		}
		heads = append(heads, tieBreakHead{Heading: h, Acronym: tb.Acronym(), Name: tb.String()})
	}
	lines := make([]line, len(st))
	es := ev.entries(round)
	idx := make(map[int]int, len(ev.Players))
	for i, p := range ev.Players {
		idx[p.Number] = i
	}
	for i, s := range st {
		p := ev.player(s.Number)
		l := line{Number: s.Number, Name: p.Name, Title: p.Title, Club: p.Club, Fed: p.Federation, Rating: rating(p.Rating),
			Score: ev.fmtScore(s.Score), Rank: s.Rank}
		if games, _, ok := ev.ratedGames(p, es[idx[s.Number]]); ok {
			l.RatingChange, l.Performance = ratingTotals(p, games)
		}
		l.Initial = ev.initial(p, es[idx[s.Number]])
		if p.Withdrawn != 0 {
			l.Note = ev.text("sheet.withdrawn", "n", p.Withdrawn)
		}
		l.RankShared = (i > 0 && st[i-1].Rank == s.Rank) || (i+1 < len(st) && st[i+1].Rank == s.Rank)
		for k, tb := range ev.TieBreaks {
			v := tiebreak.NotShown
			if s.Shown(ev.TieBreaks, k) {
				v = ev.fmtValue(tb, s.Values[k])
			}
			l.TieBreaks = append(l.TieBreaks, v)
		}
		lines[i] = l
	}
	return lines, heads, nil
}

// Standings writes the standings after round (1-based; every round to it
// complete and none open): rank (shared ranks marked), number, name, club, federation,
// rating, score and one column per tie-break of the event's order.
func Standings(w io.Writer, ev *Event, round int) error {
	if err := ev.check(); err != nil {
		return err
	}
	if round < 1 || round > len(ev.Played) {
		return fmt.Errorf("sheets: standings after round %d asked; rounds 1 to %d are paired", round, len(ev.Played))
	}
	lines, heads, err := ev.ranked(round)
	if err != nil {
		return err
	}
	return render(w, "standings", page{Title: ev.text("sheet.title.standings", "n", round), Event: ev,
		Data: standingsView{Round: round, TieBreaks: heads, Lines: lines}})
}

// Crosstable writes the crosstable after the last complete round before
// any open one (Round.Open), as the standings count: the
// standings with, for each round, the opponent's number, the colour and
// the points (forfeits as + and −, byes by their points).
func Crosstable(w io.Writer, ev *Event) error {
	if err := ev.check(); err != nil {
		return err
	}
	round := ev.completed()
	lines, heads, err := ev.ranked(round)
	if err != nil {
		return err
	}
	es := ev.entries(round)
	idx := map[int]int{}
	for i, p := range ev.Players {
		idx[p.Number] = i
	}
	s := ev.scoring()
	for i := range lines {
		for r, e := range es[idx[lines[i].Number]] {
			lines[i].Cells = append(lines[i].Cells, ev.cell(r, e, s))
		}
	}
	rounds := make([]int, round)
	for i := range rounds {
		rounds[i] = i + 1
	}
	if ev.RoundRobin {
		ev.grid(lines, es, idx)
	}
	title := ev.text("sheet.title.crosstable")
	sub := ev.text("sheet.sub.after", "n", round)
	if ev.Rounds > 0 {
		sub = ev.text("sheet.sub.after_of", "n", round, "rounds", ev.Rounds)
	}
	return render(w, "crosstable", page{Title: title, Event: ev, Subtitle: sub,
		Data: standingsView{Round: round, TieBreaks: heads, Lines: lines, Cells: rounds, Grid: ev.RoundRobin}})
}

// grid fills each line's points against every other line, in rank order:
// a round-robin's crosstable. Two games between the same players (a
// double round-robin) show both results; forfeits show as + and −.
func (ev *Event) grid(lines []line, es [][]entry, idx map[int]int) {
	s := ev.scoring()
	pos := make(map[int]int, len(lines))
	for j, l := range lines {
		pos[l.Number] = j
	}
	for i := range lines {
		cells := make([][]string, len(lines))
		for _, e := range es[idx[lines[i].Number]] {
			if e.scheduled != 0 {
				// A bye in place of the game: its points, named.
				j := pos[e.scheduled]
				cells[j] = append(cells[j], ev.text("sheet.grid.bye", "points", ev.fmtScore(s.Points(e.Result))))
				continue
			}
			if e.Opponent == 0 || e.pending {
				continue
			}
			text := ev.fmtScore(s.Points(e.Result))
			switch e.Result {
			case tally.ForfeitWin:
				text = "+"
			case tally.ForfeitLoss:
				text = "−"
			}
			j := pos[e.Opponent]
			cells[j] = append(cells[j], text)
		}
		lines[i].Grid = make([]string, len(lines))
		for j := range lines {
			if j == i {
				lines[i].Grid[j] = "×"
			} else {
				lines[i].Grid[j] = strings.Join(cells[j], " ")
			}
		}
	}
}

// cell is one round of a player.
func (ev *Event) cell(r int, e entry, s tally.Scoring) cell {
	c := cell{Round: r + 1, Opponent: e.Opponent, Pending: e.pending}
	switch e.Color {
	case tally.White:
		c.Colour, c.ColourWord = ev.text("sheet.colour.w"), ev.text("sheet.colour.white")
	case tally.Black:
		c.Colour, c.ColourWord = ev.text("sheet.colour.b"), ev.text("sheet.colour.black")
	}
	switch {
	case e.pending:
		c.Result = ""
	case e.Result == tally.ForfeitWin:
		c.Result, c.Unplayed = "+", true
	case e.Result == tally.ForfeitLoss:
		c.Result, c.Unplayed = "−", true
	case e.Opponent == 0:
		c.Unplayed = true
		c.ByeLabel = ev.byeLabel(e.Result)
		c.Result = ev.fmtScore(s.Points(e.Result))
	default:
		c.Result = ev.fmtScore(s.Points(e.Result))
	}
	return c
}

// cardView is a player's card.
type cardView struct {
	Player line
	Cells  []cell
	Final  string
	Rated  bool // the card has the rating column (Event.Rated, a rated player)
}

// Card writes a player's card: each round's board, colour, opponent (with
// number and rating), result and the running score.
func Card(w io.Writer, ev *Event, player int) error {
	if err := ev.check(); err != nil {
		return err
	}
	p := ev.player(player)
	if p == nil {
		return fmt.Errorf("sheets: card of player %d asked; no such pairing number", player)
	}
	v := ev.card(p)
	return render(w, "card", page{Title: ev.text("sheet.title.card"), Event: ev, Data: []cardView{v}})
}

// Cards writes the card of every player still in the event, one a page
// when printed, in the order of the starting numbers (the seeding).
func Cards(w io.Writer, ev *Event) error {
	if err := ev.check(); err != nil {
		return err
	}
	var vs []cardView
	for _, i := range ev.bySeed() {
		if ev.Players[i].Withdrawn == 0 {
			vs = append(vs, ev.card(&ev.Players[i]))
		}
	}
	return render(w, "card", page{Title: ev.text("sheet.title.cards"), Event: ev, Data: vs})
}

func (ev *Event) card(p *Player) cardView {
	s := ev.scoring()
	es := ev.entries(len(ev.Played))
	i := 0
	for i < len(ev.Players) && ev.Players[i].Number != p.Number {
		i++
	}
	boards := make([]int, len(ev.Played))
	for r, rd := range ev.Played {
		for b, bd := range rd.Boards {
			if bd.White == p.Number || bd.Black == p.Number {
				boards[r] = b + 1
			}
		}
	}
	v := cardView{Player: line{Number: p.Number, Name: p.Name, Title: p.Title, Club: p.Club, Fed: p.Federation, Rating: rating(p.Rating)}}
	games, change, rated := ev.ratedGames(p, es[i])
	if rated {
		v.Player.RatingChange, v.Player.Performance = ratingTotals(p, games)
		v.Rated = true
	}
	v.Player.Initial = ev.initial(p, es[i])
	run := 0
	for r, e := range es[i] {
		c := ev.cell(r, e, s)
		c.Board = boards[r]
		if e.Opponent != 0 {
			if o := ev.player(e.Opponent); o != nil {
				c.OppName, c.OppRating = o.Name, rating(o.Rating)
			}
		}
		// An open round's result may still change: pending, outside the
		// total, as the standings leave it out.
		open := ev.Played[r].Open
		if open {
			c.Pending = true
		}
		if !e.pending && !open {
			run += s.Points(e.Result)
		}
		if c.Unplayed && e.Opponent != 0 && !c.Pending {
			c.Result = ev.text("sheet.card.forfeit", "result", c.Result) // a card is read alone, without the crosstable's legend
		}
		c.Running = ev.fmtScore(run)
		if ch, ok := change[r]; ok {
			c.RatingChange = signedTenth(ev.lang(), ch)
		}
		v.Cells = append(v.Cells, c)
	}
	v.Final = ev.fmtScore(run)
	return v
}
