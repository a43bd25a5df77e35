package reports

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/draughts-arbiter/arbiter/reports/stats"
)

// ResultsVersion is the format version written into results.json; it
// changes when a field changes meaning.
const ResultsVersion = 1

// Results is the content of results.json: the event, its statistics and one
// line per game (without PDN text or per-move times, which are in
// games.pdn and the database).
type Results struct {
	Version int         `json:"version"`
	Event   EventInfo   `json:"event"`
	Stats   *Stats      `json:"stats"`
	Games   []GameEntry `json:"games"`
}

// EventInfo describes the event in results.json.
type EventInfo struct {
	Name        string            `json:"name"`
	Site        string            `json:"site,omitempty"`
	Variant     string            `json:"variant"`
	TimeControl string            `json:"time_control"`
	Engines     []string          `json:"engines"`
	SPRT        *stats.SPRTConfig `json:"sprt,omitempty"`
	// Participants gives each engine of Engines (same order) its command,
	// protocol and the identity it gave (Hub id name and version).
	Participants []EngineInfo `json:"participants"`
	// Started and Finished span the games (first start, last finish).
	Started  time.Time `json:"started,omitzero"`
	Finished time.Time `json:"finished,omitzero"`
	// Settings are the event's policies as shown in the report.
	Settings   []Setting `json:"settings,omitempty"`
	ConfigHash string    `json:"config_hash,omitempty"`
	Stopped    string    `json:"stopped,omitempty"`
	// Arbiter is the version of the program that wrote the file.
	Arbiter string `json:"arbiter"`
}

// GameEntry is one game in results.json, in round/board order.
type GameEntry struct {
	Round       int    `json:"round"`
	Board       int    `json:"board"`
	Pair        int    `json:"pair,omitempty"`
	White       string `json:"white"`
	Black       string `json:"black"`
	Result      string `json:"result"`
	Termination string `json:"termination,omitempty"`
	Plies       int    `json:"plies"`
	Opening     string `json:"opening,omitempty"`
	FirstMover  string `json:"first_mover,omitempty"`
	// WhiteTimeMS and BlackTimeMS are the total thinking time of each side.
	WhiteTimeMS int64 `json:"white_time_ms"`
	BlackTimeMS int64 `json:"black_time_ms"`
	// WhiteLatency and BlackLatency sum the latency of each side's moves
	// (Game.Latency), absent when it is unknown.
	WhiteLatency *Latency  `json:"white_latency,omitempty"`
	BlackLatency *Latency  `json:"black_latency,omitempty"`
	Started      time.Time `json:"started,omitzero"`
	Finished     time.Time `json:"finished,omitzero"`
	// Worker names the cluster worker that played the game.
	Worker string `json:"worker,omitempty"`
}

// BuildResults computes the statistics of an event and assembles the
// content of results.json.
func BuildResults(ev Event) (*Results, error) {
	st, err := Compute(ev)
	if err != nil {
		return nil, err
	}
	return buildResults(ev, st), nil
}

func buildResults(ev Event, st *Stats) *Results {
	r := &Results{
		Version: ResultsVersion,
		Event: EventInfo{Name: ev.Name, Variant: ev.Variant, TimeControl: ev.TimeControl,
			SPRT: ev.SPRT},
		Stats: st,
		Games: make([]GameEntry, 0, len(ev.Games)),
	}
	// Seeding order (not standings order), as given or as first seen.
	names, _, _ := engineIndex(ev)
	r.Event.Engines = names
	r.Event.Site, r.Event.Settings, r.Event.ConfigHash, r.Event.Stopped = ev.Site, ev.Settings, ev.ConfigHash, ev.Stopped
	r.Event.Participants = participants(ev, names)
	r.Event.Started, r.Event.Finished = eventSpan(ev.Games)
	r.Event.Arbiter = arbiterVersion()
	budget := moveBudget(ev.TimeControl)
	for _, gi := range ordered(ev.Games) {
		g := &ev.Games[gi]
		wt, bt := totalTimes(g)
		var wl, bl *Latency
		w, b, wok, bok := sideLatency(g, budget)
		if wok {
			wl = &w
		}
		if bok {
			bl = &b
		}
		res := g.Result
		if o, err := parseResult(res); err == nil {
			res = o.PDN(false) // one spelling in the output, whatever came in
		}
		r.Games = append(r.Games, GameEntry{
			Round: g.Round, Board: g.Board, Pair: g.Pair, White: g.White, Black: g.Black,
			Result: res, Termination: g.Termination, Plies: g.Plies, Opening: g.Opening,
			FirstMover: g.FirstMover, WhiteTimeMS: wt.Milliseconds(), BlackTimeMS: bt.Milliseconds(),
			WhiteLatency: wl, BlackLatency: bl,
			Started: g.Started, Finished: g.Finished, Worker: g.Worker,
		})
	}
	return r
}

// WriteJSON writes r as JSON: the event and statistics indented, then one
// game per line, streamed (a 100,000-game event never sits in memory as
// one JSON document).
func (r *Results) WriteJSON(w io.Writer) error {
	head := []struct {
		key string
		val any
	}{{"version", r.Version}, {"event", r.Event}, {"stats", r.Stats}}
	if _, err := io.WriteString(w, "{\n"); err != nil {
		return err
	}
	for _, h := range head {
		b, err := json.MarshalIndent(h.val, "  ", "  ")
		if err != nil {
			return fmt.Errorf("write results.json: %s: %w", h.key, err)
		}
		if _, err := fmt.Fprintf(w, "  %q: %s,\n", h.key, b); err != nil {
			return err
		}
	}
	if _, err := io.WriteString(w, `  "games": [`); err != nil {
		return err
	}
	for i := range r.Games {
		b, err := json.Marshal(&r.Games[i])
		if err != nil {
			return fmt.Errorf("write results.json: game %d: %w", i+1, err)
		}
		sep := ",\n    "
		if i == 0 {
			sep = "\n    "
		}
		if _, err := io.WriteString(w, sep); err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	if len(r.Games) > 0 {
		if _, err := io.WriteString(w, "\n  "); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "]\n}\n")
	return err
}

// ReadResults reads a results.json file written by WriteAll.
func ReadResults(path string) (*Results, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r Results
	dec := json.NewDecoder(f)
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if r.Version != ResultsVersion {
		return nil, fmt.Errorf("%s: results format version %d, this program reads version %d", path, r.Version, ResultsVersion)
	}
	return &r, nil
}
