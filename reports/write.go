package reports

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/draughts-arbiter/arbiter/internal/filelock"
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
	// The three files only read ev and st: they are written at once, on
	// every core (the page takes as long as the other two together for a
	// large event).
	var wg sync.WaitGroup
	var errJSON, errPDN error
	wg.Go(func() {
		errJSON = writeFile(filepath.Join(dir, ResultsFile), func(w io.Writer) error {
			return buildResults(ev, st).WriteJSON(w)
		})
	})
	wg.Go(func() {
		errPDN = writeFile(filepath.Join(dir, PDNFile), func(w io.Writer) error {
			return WritePDN(w, ev)
		})
	})
	// The records' files are in place before the page that loads them.
	chunks := 0
	errHTML := writeFile(filepath.Join(dir, HTMLFile), func(w io.Writer) error {
		return writeHTML(w, ev, st, func(files [][]byte) error {
			for n, b := range files {
				if err := writeFile(filepath.Join(dir, RecordsChunkFile(n)), func(w io.Writer) error {
					_, err := w.Write(b)
					return err
				}); err != nil {
					return err
				}
				chunks = n + 1
			}
			return nil
		})
	})
	wg.Wait()
	if err := errors.Join(errJSON, errPDN, errHTML); err != nil {
		return err
	}
	// Records files an earlier, larger report left (small events embed
	// their records) would only be stale.
	os.Remove(filepath.Join(dir, RecordsFile))
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			if n, ok := isRecordsChunk(e.Name()); ok && n >= chunks && e.Type().IsRegular() {
				os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
	return nil
}

// writeFile writes path atomically through a temporary file in the same
// directory, named "."+base+".N" (N: digits). A writer holds an exclusive
// lock on its temporary file (internal/filelock: flock on Unix, LockFileEx
// on Windows), which the kernel drops when the process dies, however it
// dies: so a temporary file of that name whose lock can be taken was left
// by a killed writer (kill -9 in the middle of a report) and is removed
// here, while another live writer's (`arbiter report` beside a running
// tournament) is left alone.
func writeFile(path string, write func(io.Writer) error) (err error) {
	removeStaleTemps(path)
	tmp, err := createLockedTemp(path)
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
	// Renamed while still open (and locked): a cleaner never sees this
	// name unlocked.
	if err := replaceFile(tmp.Name(), path); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("report: %s: %w", path, err)
	}
	return nil
}

// tempPattern is the CreateTemp pattern of path's temporary files.
func tempPattern(path string) string { return "." + filepath.Base(path) + ".*" }

// isTempOf reports whether name is one of path's temporary files: the
// pattern with only digits for the star, as CreateTemp makes them.
func isTempOf(name, path string) bool {
	prefix := "." + filepath.Base(path) + "."
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok || rest == "" {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if rest[i] < '0' || rest[i] > '9' {
			return false
		}
	}
	return true
}

// createLockedTemp creates a temporary file for path and locks it. A
// cleaner may take the lock of the fresh file in the moment before ours
// and remove it; then the name no longer leads to our file, and we try
// again.
func createLockedTemp(path string) (*os.File, error) {
	for range 10 {
		tmp, err := createTemp(filepath.Dir(path), tempPattern(path))
		if err != nil {
			return nil, err
		}
		if err := filelock.TryLock(tmp); err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			continue
		}
		mine, err1 := tmp.Stat()
		there, err2 := os.Stat(tmp.Name())
		if err1 == nil && err2 == nil && os.SameFile(mine, there) {
			return tmp, nil
		}
		tmp.Close()
	}
	return nil, fmt.Errorf("%s: could not create a temporary file beside it", path)
}

// removeStaleTemps removes the temporary files of path that no live
// writer holds (see writeFile). Failures are ignored: a stale file costs
// only space, and the next write tries again.
func removeStaleTemps(path string) {
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !isTempOf(e.Name(), path) {
			continue
		}
		name := filepath.Join(filepath.Dir(path), e.Name())
		f, err := openTemp(name)
		if err != nil {
			continue
		}
		if filelock.TryLock(f) == nil {
			os.Remove(name) // under our lock: no writer can be using it
		}
		f.Close()
	}
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
	if o, err := parseResult(g.Result); err == nil && o.Scored() {
		res = o.PDN(false)
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
	return writeHTML(w, ev, st, nil)
}
