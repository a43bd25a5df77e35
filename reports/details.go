package reports

import (
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/draughts-arbiter/arbiter/rules"
)

// rulebookURL is the project's rulebook; the report links each variant to
// its section (GitHub's heading anchors).
const rulebookURL = "https://github.com/draughts-arbiter/arbiter/blob/main/rules/RULES.md"

// rulebookSection maps a preset to the anchor of its section of RULES.md.
func rulebookSection(variant string) string {
	switch variant {
	case "english":
		return rulebookURL + "#2-english--american-checkers--preset-english-wcdf"
	case "international":
		return rulebookURL + "#3-international-draughts--preset-international-fmjd"
	case "russian", "brazilian", "pool", "czech", "spanish", "portuguese", "italian", "thai", "canadian",
		"antidraughts", "giveaway":
		return rulebookURL + "#4-other-variants-presets-facts-to-confirm-against-the-variants-federation-text-before-release"
	case "":
		return ""
	}
	if _, err := rules.Lookup(variant); err == nil {
		return rulebookURL + "#8-the-rest-of-the-seeds-variant-table-and-the-variants-engines-play"
	}
	return rulebookURL + "#5-custom-rule-sets"
}

// variantRules describes a variant's rules in one line, from the rules
// package's own parameters (so the page says what the arbiter enforced).
func variantRules(name string) string {
	v, err := rules.Lookup(strings.ToLower(strings.TrimSpace(name)))
	if err != nil {
		return "custom rule set (see the configuration)"
	}
	p := v.Params()
	var parts []string
	parts = append(parts, fmt.Sprintf("%dx%d board", p.Board.Width, p.Board.Height))
	if p.RowsOfMen > 0 {
		parts = append(parts, fmt.Sprintf("%d rows of men", p.RowsOfMen))
	}
	parts = append(parts, strings.ToLower(p.FirstPlayer.String())+" moves first")
	if p.MenCaptureBackward {
		parts = append(parts, "men capture backwards")
	} else {
		parts = append(parts, "men capture forwards only")
	}
	switch p.Kings {
	case rules.ShortKings:
		parts = append(parts, "short kings")
	case rules.FlyingKings:
		parts = append(parts, "flying kings")
	default:
		parts = append(parts, "flying kings landing right behind")
	}
	switch p.Precedence {
	case rules.FreeChoice:
		parts = append(parts, "free choice of capture")
	case rules.Majority:
		parts = append(parts, "the capture of most pieces is compulsory")
	case rules.MajorityThenKings:
		parts = append(parts, "most pieces, then most kings")
	case rules.ItalianOrder:
		parts = append(parts, "Italian capture order")
	case rules.KingsFirst:
		parts = append(parts, "a king must capture if it can")
	case rules.HighestValue:
		parts = append(parts, "the capture of highest value")
	}
	d := p.Draws
	if d.ThreefoldAutomatic {
		parts = append(parts, "threefold repetition draws")
	} else {
		parts = append(parts, "threefold repetition on claim")
	}
	if d.MoveRule > 0 {
		parts = append(parts, fmt.Sprintf("%d-move rule", d.MoveRule))
	}
	if d.EndgameRules {
		parts = append(parts, "16- and 5-move endgame rules")
	}
	if p.Losing {
		parts = append(parts, "the side that cannot move wins")
	}
	return strings.Join(parts, ", ")
}

// arbiterVersion is the version of the program writing the report, from
// its build information: the module version, or the VCS revision (marked
// "+dirty" for a modified tree) of a build from a checkout.
func arbiterVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	var rev, modified, when string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		case "vcs.time":
			when = s.Value
		}
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if modified == "true" {
			rev += "+dirty"
		}
		if when != "" {
			rev += " (" + when + ")"
		}
		if v == "" || v == "(devel)" {
			return rev
		}
		return v + " " + rev
	}
	if v == "" {
		return "(devel)"
	}
	return v + " build, " + bi.GoVersion
}

// eventSpan is the first start and the last finish among the games.
func eventSpan(games []Game) (start, end time.Time) {
	for i := range games {
		g := &games[i]
		if !g.Started.IsZero() && (start.IsZero() || g.Started.Before(start)) {
			start = g.Started
		}
		if !g.Finished.IsZero() && g.Finished.After(end) {
			end = g.Finished
		}
	}
	return start, end
}

// fmtSpan prints an event's span: the dates, the times and the duration.
func fmtSpan(start, end time.Time) (dates, times, duration string) {
	if start.IsZero() {
		return "", "", ""
	}
	start = start.UTC()
	dates = start.Format("2 January 2006")
	times = start.Format("15:04:05") + " UTC"
	if end.IsZero() || end.Before(start) {
		return dates, times + " – (running)", ""
	}
	end = end.UTC()
	if end.Format("2006-01-02") != start.Format("2006-01-02") {
		dates += " – " + end.Format("2 January 2006")
	}
	times = start.Format("15:04:05") + " – " + end.Format("15:04:05") + " UTC"
	return dates, times, fmtDuration(end.Sub(start))
}

// fmtDuration prints a duration in whole seconds (hours and minutes when
// longer): "3 h 12 min", "4 min 05 s", "12 s".
func fmtDuration(d time.Duration) string {
	if d < 10*time.Second {
		return fmtSeconds(d.Seconds())
	}
	s := int64(d.Round(time.Second) / time.Second)
	switch {
	case s >= 3600:
		return fmt.Sprintf("%d h %02d min", s/3600, s%3600/60)
	case s >= 60:
		return fmt.Sprintf("%d min %02d s", s/60, s%60)
	}
	return fmt.Sprintf("%d s", s)
}

// detailsOf builds the event details of the page.
func detailsOf(ev Event, sc Scoring) []Setting {
	var out []Setting
	add := func(label, value, link string) {
		if strings.TrimSpace(value) != "" {
			out = append(out, Setting{Label: label, Value: value, Link: link})
		}
	}
	add("Event", ev.Name, "")
	add("Site", ev.Site, "")
	start, end := eventSpan(ev.Games)
	dates, times, dur := fmtSpan(start, end)
	add("Dates", dates, "")
	add("Time", times, "")
	add("Duration", dur, "")
	if ev.Variant != "" {
		add("Variant", ev.Variant, "")
		add("Rules", variantRules(ev.Variant), rulebookSection(ev.Variant))
	}
	add("Scoring", sc.Name, "")
	add("Time control", ev.TimeControl, "")
	out = append(out, ev.Settings...)
	add("Stopped", ev.Stopped, "")
	add("Arbiter", arbiterVersion(), "")
	add("Configuration hash", ev.ConfigHash, "")
	return out
}

// participants lists every engine of the event in seeding order, with what
// the event says of it.
func participants(ev Event, names []string) []EngineInfo {
	by := make(map[string]EngineInfo, len(ev.Participants))
	for _, p := range ev.Participants {
		by[p.Name] = p
	}
	guards := hostGuards(ev)
	out := make([]EngineInfo, len(names))
	for i, n := range names {
		p := by[n]
		p.Name = n
		p.HostGuard = guards[n]
		out[i] = p
	}
	return out
}

// hostGuards sums the games' Game.HostGuard per engine; the overshoot is
// the one of the engine's last game to finish (in the order given when
// the games have no times).
func hostGuards(ev Event) map[string]*HostGuard {
	var out map[string]*HostGuard
	last := map[string]time.Time{}
	for gi := range ev.Games {
		g := &ev.Games[gi]
		for side, name := range [2]string{g.White, g.Black} {
			h := g.HostGuard[side]
			if h.Moves == 0 {
				continue
			}
			if out == nil {
				out = map[string]*HostGuard{}
			}
			t := out[name]
			if t == nil {
				t = &HostGuard{}
				out[name] = t
			}
			t.Stopped += h.Stopped
			t.Moves += h.Moves
			if prev, seen := last[name]; !seen || !g.Finished.Before(prev) {
				t.Overshoot, last[name] = h.Overshoot, g.Finished
			}
		}
	}
	return out
}

// fmtSeconds prints a time in the unit that fits it: "850 µs", "42 ms",
// "1.25 s", "12.5 s", never "0.000s".
func fmtSeconds(s float64) string {
	switch {
	case s <= 0:
		return "0 s"
	case s < 0.001:
		return fmt.Sprintf("%.0f µs", s*1e6)
	case s < 1:
		return fmt.Sprintf("%.3g ms", s*1e3)
	case s < 100:
		return fmt.Sprintf("%.3g s", s)
	}
	return fmt.Sprintf("%.0f s", s)
}
