package online

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/internal/message"
)

// A clock as players say it. The create page's time-control field reads
// what players write ("5+3" is five minutes each and three seconds added
// per move, as on lichess and on a club's clock), a preset's name, or the
// PDN TimeControl syntax in seconds that configs, the API and PDN files
// use. ReadClock says which of the three it read, and the game keeps the
// PDN form.

// ClockPreset is a named time control offered on the create page.
type ClockPreset struct {
	Name  string `json:"name"`  // bullet, blitz, ...
	Label string `json:"label"` // as players write it: "5+3"
	PDN   string `json:"pdn"`   // the same in PDN seconds
}

// ClockPresets are the create page's presets, fastest first. FMJD's is
// "1 hour and 20 minutes for the game plus 1 minute per move" (the Fischer
// system of FMJD's official time rate, as reported for its championships);
// WCDF's is the rulebook's typical 30 moves in 60 minutes (rules/RULES.md
// section 2), the last period repeating.
var ClockPresets = []ClockPreset{
	{"bullet", "1+1", "60+1"},
	{"blitz", "5+3", "300+3"},
	{"rapid", "15+10", "900+10"},
	{"classical", "90+30", "5400+30"},
	{"fmjd", "80+60", "4800+60"},
	{"wcdf", "30/60", "30/3600"},
}

// How ReadClock read a text.
const (
	ReadNone    = "none"    // empty: no clock
	ReadPreset  = "preset"  // a preset's name
	ReadMinutes = "minutes" // players' syntax: minutes, then seconds added per move
	ReadPDN     = "pdn"     // PDN TimeControl syntax, in seconds
)

// ClockReading is what ReadClock made of a text.
type ClockReading struct {
	Read   string `json:"read"`             // none | preset | minutes | pdn
	Preset string `json:"preset,omitempty"` // the preset's name
	// PDN is the time control in PDN syntax (seconds): what the game keeps.
	PDN string `json:"pdn"`
	// Words says the time control in words ("5 minutes each, 3 seconds
	// added per move."): Text in English, Parts for a translation.
	Words Words `json:"words"`
	// Short warns of a clock under a minute; Hint says how to write
	// seconds when a number read as minutes looks like seconds.
	Short *Msg `json:"short,omitempty"`
	Hint  *Msg `json:"hint,omitempty"`

	tc arbiter.TimeControl
}

// Words is a sentence made of coded parts (each a Msg whose durations are
// Msgs too), joined with ", " and ended with a full stop.
type Words struct {
	Text  string `json:"text"`
	Parts []Part `json:"parts"`
}

// Part is one clause of Words: a code, its plain arguments and its
// duration arguments (each a list of units: "1 hour", "30 minutes").
type Part struct {
	Code  string            `json:"code"`
	Args  map[string]string `json:"args,omitempty"`
	Times map[string][]Msg  `json:"times,omitempty"`
}

// ReadClock reads a time control as the create page's field does: empty
// (or "-", "none") for no clock; a preset's name; "pdn:" followed by PDN
// syntax, or text with PDN's "name=value" extras ("600 delay=5"), as PDN
// seconds; anything else as players write it: periods "[moves/]time[+inc]"
// joined by ':', the time in minutes and the increment in seconds unless a
// unit says otherwise ("5 min + 3 s", "1h30", "90s+2", "3|2").
func ReadClock(text string) (ClockReading, error) {
	s := strings.TrimSpace(text)
	if len(s) > 256 {
		return ClockReading{}, errors.New("longer than 256 characters")
	}
	low := strings.ToLower(s)
	var r ClockReading
	var err error
	switch {
	case low == "" || low == "-" || low == "none":
		r.Read = ReadNone
	case strings.HasPrefix(low, "pdn:") || strings.HasPrefix(low, "pdn "):
		r.Read = ReadPDN
		if r.tc, err = arbiter.ParseTimeControl(strings.TrimSpace(s[4:])); err != nil {
			return r, fmt.Errorf("%s (PDN syntax counts seconds: 300+3 is 5 minutes and 3 seconds per move)", err)
		}
	case strings.Contains(low, "="):
		r.Read = ReadPDN
		if r.tc, err = arbiter.ParseTimeControl(s); err != nil {
			return r, fmt.Errorf("%s (PDN syntax counts seconds: 300+3 is 5 minutes and 3 seconds per move)", err)
		}
	default:
		for _, p := range ClockPresets {
			if low == p.Name {
				r.Read, r.Preset = ReadPreset, p.Name
				r.tc, err = arbiter.ParseTimeControl(p.PDN)
				if err != nil {
					panic("online: preset " + p.Name + ": " + err.Error())
				}
			}
		}
		if r.Read == "" {
			r.Read = ReadMinutes
			if r.tc, err = readMinutes(low); err != nil {
				return r, fmt.Errorf("%q: %v. Write minutes, then + and the seconds added per move (5+3: 5 minutes each, 3 seconds per move), or a preset (%s)",
					clip(s, 32), err, presetNames())
			}
		}
	}
	if r.tc.Depth > 0 || r.tc.Nodes > 0 {
		return r, errors.New("depth and nodes limit engines' searches; a game between people needs a clock")
	}
	if err := r.tc.Validate(); err != nil {
		return r, err
	}
	r.PDN = r.tc.String()
	r.Words = clockWords(r.tc)
	if len(r.tc.Periods) > 0 && r.tc.Periods[0].Time < time.Minute || r.tc.PerMove > 0 && r.tc.PerMove < 5*time.Second {
		m := newMsg("clock.short", nil)
		r.Short = &m
	}
	if r.Read == ReadMinutes && len(r.tc.Periods) > 0 {
		if p := r.tc.Periods[0]; p.Time >= 3*time.Hour && p.Time%time.Hour == 0 && p.Moves == 0 && len(r.tc.Periods) == 1 {
			// "300+3" from someone who thinks in PDN's seconds: 300 s is 5 minutes.
			alt := strconv.Itoa(int(p.Time / time.Hour))
			if p.Increment > 0 {
				alt += "+" + formatNum(p.Increment.Seconds())
			}
			m := newMsg("clock.hint", kv("n", strconv.Itoa(int(p.Time/time.Minute)), "alt", alt))
			r.Hint = &m
		}
	}
	return r, nil
}

// TimeControl is the reading as the referee's time control.
func (r ClockReading) TimeControl() arbiter.TimeControl { return r.tc }

func presetNames() string {
	n := make([]string, len(ClockPresets))
	for i, p := range ClockPresets {
		n[i] = p.Name
	}
	return strings.Join(n, ", ")
}

// readMinutes reads players' syntax (lower case).
func readMinutes(s string) (arbiter.TimeControl, error) {
	var tc arbiter.TimeControl
	s = strings.ReplaceAll(s, "|", "+")
	parts := strings.Split(s, ":")
	for i, part := range parts {
		var p arbiter.Period
		part = strings.TrimSpace(part)
		if n, rest, ok := strings.Cut(part, "/"); ok {
			moves, err := strconv.Atoi(strings.TrimSpace(n))
			if err != nil || moves < 1 || moves > 1000 {
				return tc, fmt.Errorf("%q is not a number of moves", clip(n, 16))
			}
			p.Moves, part = moves, rest
		} else if i < len(parts)-1 {
			// "1:30+30" as a clock's face shows it: the referee would
			// refuse it for a period with no move count, without a word
			// on what to write.
			return tc, errors.New(`":" separates periods of moves here (40/120:30: 40 moves in 120 minutes, then 30 minutes); ` +
				`for 1 hour 30 minutes write 90 or 1h30, for 1 minute 30 seconds 1m30s`)
		}
		base, inc, hasInc := strings.Cut(part, "+")
		var err error
		if p.Time, err = readDuration(base, time.Minute); err != nil {
			return tc, err
		}
		if p.Time <= 0 {
			return tc, errors.New("no time on the clock")
		}
		if hasInc {
			if p.Increment, err = readDuration(inc, time.Second); err != nil {
				return tc, err
			}
		}
		tc.Periods = append(tc.Periods, p)
	}
	return tc, nil
}

// units are the unit words players write, each a time.Duration.
var units = map[string]time.Duration{
	"h": time.Hour, "hr": time.Hour, "hrs": time.Hour, "hour": time.Hour, "hours": time.Hour,
	"m": time.Minute, "min": time.Minute, "mins": time.Minute, "minute": time.Minute, "minutes": time.Minute, "'": time.Minute,
	"s": time.Second, "sec": time.Second, "secs": time.Second, "second": time.Second, "seconds": time.Second, "\"": time.Second, "''": time.Second,
}

// readDuration reads "5", "5 min", "1h30", "1h 30m", "90s" or "2.5": a
// number without a unit counts in unit (after "1h" the next number counts
// minutes, after minutes seconds).
func readDuration(s string, unit time.Duration) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, errors.New("a number is missing")
	}
	var total time.Duration
	rs := []rune(s)
	next := unit
	for i := 0; i < len(rs); {
		if unicode.IsSpace(rs[i]) {
			i++
			continue
		}
		j := i
		for j < len(rs) && (unicode.IsDigit(rs[j]) || rs[j] == '.' || rs[j] == ',') {
			j++
		}
		if j == i {
			return 0, fmt.Errorf("%q is not a number", clip(s, 16))
		}
		num, err := strconv.ParseFloat(strings.ReplaceAll(string(rs[i:j]), ",", "."), 64)
		if err != nil || num < 0 {
			return 0, fmt.Errorf("%q is not a number", clip(string(rs[i:j]), 16))
		}
		if num > 1e7 {
			return 0, errors.New("more than 11 days")
		}
		k := j
		for k < len(rs) && unicode.IsSpace(rs[k]) {
			k++
		}
		l := k
		for l < len(rs) && (unicode.IsLetter(rs[l]) || rs[l] == '\'' || rs[l] == '"') {
			l++
		}
		u := next
		if w := string(rs[k:l]); w != "" {
			d, ok := units[w]
			if !ok {
				return 0, fmt.Errorf("%q is not a unit (write min or s)", clip(w, 16))
			}
			u = d
			i = l
		} else {
			i = j
		}
		total += time.Duration(num * float64(u))
		if total > 1_000_000*time.Second {
			return 0, errors.New("more than 11 days")
		}
		// "1h30": the next bare number is the next smaller unit.
		switch u {
		case time.Hour:
			next = time.Minute
		default:
			next = time.Second
		}
	}
	return total.Round(time.Millisecond), nil
}

// clockWords says tc in words: "5 minutes each, 3 seconds added per move."
func clockWords(tc arbiter.TimeControl) Words {
	var parts []Part
	add := func(code string, args map[string]string, times map[string][]Msg) {
		parts = append(parts, Part{Code: code, Args: args, Times: times})
	}
	if !tc.Timed() {
		add("clock.none", nil, nil)
	}
	sameInc := true
	for _, p := range tc.Periods {
		sameInc = sameInc && p.Increment == tc.Periods[0].Increment
	}
	for i, p := range tc.Periods {
		t := map[string][]Msg{"time": durationMsgs(p.Time)}
		moves := map[string]string{"moves": strconv.Itoa(p.Moves)}
		last := i == len(tc.Periods)-1
		switch {
		case i == 0 && p.Moves == 0:
			add("clock.each", nil, t)
		case i == 0:
			add("clock.moves", moves, t)
		case p.Moves == 0:
			add("clock.rest", nil, t)
		default:
			add("clock.then-moves", moves, t)
		}
		if p.Moves > 0 && last {
			add("clock.repeats", moves, t)
		}
		if p.Increment > 0 && (!sameInc || last) {
			add("clock.increment", nil, map[string][]Msg{"time": durationMsgs(p.Increment)})
		}
	}
	if tc.Delay > 0 {
		add("clock.delay", nil, map[string][]Msg{"time": durationMsgs(tc.Delay)})
	}
	if tc.Bronstein > 0 {
		add("clock.bronstein", nil, map[string][]Msg{"time": durationMsgs(tc.Bronstein)})
	}
	if tc.PerMove > 0 {
		add("clock.per-move", nil, map[string][]Msg{"time": durationMsgs(tc.PerMove)})
	}
	return Words{Text: SayWords(parts, func(code string, args map[string]string) string { return message.Fill(codes[code], args) }), Parts: parts}
}

// SayWords writes parts as a sentence with the templates of say (code,
// args -> text): the English of this package, or a translation.
func SayWords(parts []Part, say func(code string, args map[string]string) string) string {
	clauses := make([]string, 0, len(parts))
	for _, p := range parts {
		args := make(map[string]string, len(p.Args)+len(p.Times))
		for k, v := range p.Args {
			args[k] = v
		}
		for k, ms := range p.Times {
			words := make([]string, len(ms))
			for i, m := range ms {
				words[i] = say(m.Code, m.Args)
			}
			args[k] = strings.Join(words, " ")
		}
		clauses = append(clauses, strings.TrimSuffix(strings.TrimSpace(say(p.Code, args)), "."))
	}
	out := strings.Join(clauses, ", ")
	if out == "" {
		return ""
	}
	r := []rune(out)
	r[0] = unicode.ToUpper(r[0])
	return string(r) + "."
}

// durationMsgs says d in hours, minutes, seconds (and tenths).
func durationMsgs(d time.Duration) []Msg {
	var out []Msg
	unit := func(n float64, one, many string) {
		code := many
		if n == 1 {
			code = one
		}
		out = append(out, Msg{Code: code, Args: kv("n", formatNum(n))})
	}
	h := d / time.Hour
	m := (d % time.Hour) / time.Minute
	s := d % time.Minute
	if h > 0 {
		unit(float64(h), "time.hour", "time.hours")
	}
	if m > 0 {
		unit(float64(m), "time.minute", "time.minutes")
	}
	if s > 0 || d == 0 {
		unit(s.Seconds(), "time.second", "time.seconds")
	}
	for i := range out {
		out[i].Text = message.Fill(codes[out[i].Code], out[i].Args)
	}
	return out
}

// formatNum writes a number without trailing zeros: 3, 0.5.
func formatNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
