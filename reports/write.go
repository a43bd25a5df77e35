package reports

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/draughts-arbiter/arbiter/rules/pdn"
)

// File names written by WriteAll.
const (
	HTMLFile    = "report.html"
	ResultsFile = "results.json"
	PDNFile     = "games.pdn"
)

// WriteAll computes the statistics of ev and writes report.html,
// results.json and games.pdn into dir (created if missing). Each file is
// written to a temporary name and renamed, so a reader never sees half a
// report and an interrupted run leaves the previous report intact.
func WriteAll(dir string, ev Event) error {
	st, err := Compute(ev)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := writeFile(filepath.Join(dir, ResultsFile), func(w io.Writer) error {
		return buildResults(ev, st).WriteJSON(w)
	}); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, PDNFile), func(w io.Writer) error {
		return WritePDN(w, ev)
	}); err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, HTMLFile), func(w io.Writer) error {
		return writeHTML(w, ev, st)
	})
}

// writeFile writes path atomically through a temporary file.
func writeFile(path string, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriterSize(tmp, 1<<16)
	if err := write(bw); err != nil {
		return fmt.Errorf("report: %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("report: %s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("report: %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("report: %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// WritePDN writes every game's PDN text in round/board order, separated by
// blank lines. A game without PDN text (for instance one whose engine could
// not start) gets a minimal record with its tags and result, so the file
// always lists every game of the event.
func WritePDN(w io.Writer, ev Event) error {
	first := true
	for _, gi := range ordered(ev.Games) {
		g := &ev.Games[gi]
		text := strings.TrimSpace(g.PDN)
		if text == "" {
			text = minimalPDN(ev, g)
		}
		if !first {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		first = false
		if _, err := io.WriteString(w, text); err != nil {
			return err
		}
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
	}
	return nil
}

// minimalPDN is a header-only record for a game without PDN text.
func minimalPDN(ev Event, g *Game) string {
	res := "*"
	if o, err := ParseResult(g.Result); err == nil && o != Unfinished {
		res = o.String()
	}
	var b strings.Builder
	tag := func(name, value string) {
		b.WriteString("[" + name + " " + pdn.QuoteTagValue(value) + "]\n")
	}
	tag("Event", ev.Name)
	tag("Round", strconv.Itoa(g.Round)+"."+strconv.Itoa(g.Board))
	tag("White", g.White)
	tag("Black", g.Black)
	tag("Result", res)
	if g.Termination != "" {
		tag("Termination", g.Termination)
	}
	b.WriteString("\n" + res)
	return b.String()
}

// WriteHTML computes the statistics of ev and writes the HTML report to w.
func WriteHTML(w io.Writer, ev Event) error {
	st, err := Compute(ev)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return writeHTML(w, ev, st)
}
