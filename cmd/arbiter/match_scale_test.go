package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// One scale everywhere: an international (FMJD) match counts 2 points a
// win in the progress lines, the console table, the live view and the
// report alike, and a two-engine table has no Sonneborn-Berger column.
func TestMatchOneScale(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "ev")
	m, stdout, stderr := startWatched(t, dir, "match", "--variant", "international",
		"--engine", "name=A cmd=self engine --level 1 --seed 1", "--engine", "name=B cmd=self engine --level 3 --seed 2",
		"--games-per-encounter", "4", "--time-control", "30+0.5", "--out", out, "--progress", "plain", "--serve", "127.0.0.1:0")
	t.Cleanup(func() {
		if m.ProcessState == nil {
			m.Process.Kill()
			m.Wait()
		}
	})
	waitFor(t, m, "the end of the match", func() bool { return strings.Contains(stdout.String(), "match: finished; the live view at") }, stderr)
	url := liveRE.FindStringSubmatch(stderr.String())[1]

	// The report's points (results.json).
	data, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Stats struct {
			Engines []struct {
				Name   string  `json:"name"`
				Fed    float64 `json:"federation_points"`
				Points float64 `json:"points"`
			} `json:"engines"`
		} `json:"stats"`
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	report := map[string]float64{}
	total := 0.0
	for _, e := range res.Stats.Engines {
		report[e.Name] = e.Fed
		total += e.Fed
		if e.Fed != 2*e.Points {
			t.Errorf("results.json: %s has %v federation points for %v points; FMJD counts 2 a win", e.Name, e.Fed, e.Points)
		}
	}
	if total != 8 {
		t.Fatalf("4 games are worth 8 FMJD points, results.json gives %v: %s", total, data)
	}
	// The console table and the last progress line.
	console := stdout.String()
	for name, pts := range report {
		row := regexp.MustCompile(`(?m)^\s*\d+ ` + name + `\s+4\s+(\S+)\s`).FindStringSubmatch(console)
		if row == nil {
			t.Fatalf("no table row for %s:\n%s", name, console)
		}
		if got, _ := strconv.ParseFloat(row[1], 64); got != pts {
			t.Errorf("console table: %s %s points, report %v", name, row[1], pts)
		}
		if want := fmt.Sprintf("%s %g/8", name, pts); !strings.Contains(stderr.String()+console, "games 4/4: ") || !strings.Contains(stderr.String()+console, want) {
			t.Errorf("the last progress line lacks %q:\n%s", want, stderr.String())
		}
	}
	if strings.Contains(console, " SB\n") || strings.Contains(console, " SB ") {
		t.Errorf("a two-engine table with a Sonneborn-Berger column:\n%s", console)
	}
	if !strings.Contains(console, "points as the federation counts them (FMJD: 2 points a win, 1 a draw)") {
		t.Errorf("the table does not say its scale:\n%s", console)
	}
	// The live view, once its table has counted the last game (it is
	// recomputed at most every few hundred milliseconds).
	var live struct {
		Standings struct {
			Games int `json:"games"`
			Rows  []struct {
				Name   string  `json:"name"`
				Points float64 `json:"points"`
			} `json:"rows"`
		} `json:"standings"`
	}
	waitFor(t, m, "the live table of the 4 games", func() bool {
		resp, err := http.Get(url + "/api/live")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		return json.NewDecoder(resp.Body).Decode(&live) == nil && live.Standings.Games == 4
	}, stderr)
	if len(live.Standings.Rows) != 2 {
		t.Fatalf("live standings: %+v", live)
	}
	for _, r := range live.Standings.Rows {
		if r.Points != report[r.Name] {
			t.Errorf("live view: %s %v points, report %v", r.Name, r.Points, report[r.Name])
		}
	}
	// The report page: no SB column either.
	page, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(page), "<th>SB</th>") {
		t.Error("report.html of a two-engine match has an SB column")
	}
	// The engines' principal variations are written as the moves are: in
	// the variant's notation (the engine's first move is the move
	// played), not Hub's long captures (26x17x21).
	pdnText, err := os.ReadFile(filepath.Join(out, "games.pdn"))
	if err != nil {
		t.Fatal(err)
	}
	captures := 0
	for _, mm := range regexp.MustCompile(`(\d+[-x][\d x]*?) \{[^}]*\[%pv ([^\]\s]+)`).FindAllStringSubmatch(string(pdnText), -1) {
		if strings.Contains(mm[1], "x") {
			captures++
		}
		if mm[1] != mm[2] {
			t.Errorf("move %s with the principal variation %s: not the same notation", mm[1], mm[2])
		}
	}
	if captures == 0 {
		t.Errorf("no capture with a principal variation in games.pdn: the test proves nothing\n%.2000s", pdnText)
	}
	m.Process.Signal(syscall.SIGINT)
	if code := exitStatus(t, m); code != 0 {
		t.Errorf("exit %d", code)
	}
}
