package enginelog

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"
)

// entries decodes the JSON lines of a log.
func entries(t *testing.T, b *bytes.Buffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

func TestGameCapKeepsTheEnd(t *testing.T) {
	var buf bytes.Buffer
	l := New(zerolog.New(&buf), Limits{Game: 10_000, Tail: 5}, nil)
	const n = 1000
	for i := range n {
		l.Line("<", "info nodes="+strconv.Itoa(i)+" "+strings.Repeat("x", 40))
	}
	l.EndGame()
	written := buf.Len()
	es := entries(t, &buf)
	lines, marker, summary, tail := 0, 0, 0, []string{}
	for _, e := range es {
		switch {
		case e["tail"] == true:
			tail = append(tail, e["line"].(string))
		case e["level"] == "warn" && strings.Contains(e["message"].(string), "this game's cap is reached"):
			marker++
		case e["level"] == "warn":
			summary++
			if got := e["dropped_lines"].(float64); int(got)+lines != n {
				t.Errorf("dropped %v + written %d != %d", got, lines, n)
			}
		default:
			lines++
		}
	}
	if marker != 1 || summary != 1 {
		t.Errorf("%d cap markers and %d summaries, want 1 each", marker, summary)
	}
	if lines == 0 || lines >= n {
		t.Errorf("%d lines written of %d", lines, n)
	}
	if len(tail) != 5 || !strings.HasPrefix(tail[4], "< info nodes=999 ") || !strings.HasPrefix(tail[0], "< info nodes=995 ") {
		t.Errorf("tail %q, want the last 5 lines in order", tail)
	}
	if written > 20_000 {
		t.Errorf("%d bytes written under a cap of 10000 (+ tail)", written)
	}
	// After the game the cap holds; the next game starts with its full cap.
	buf.Reset()
	l.Line("<", "info after the game")
	l.StartGame()
	l.Line("<", "info again")
	if es := entries(t, &buf); len(es) != 3 || es[1]["tail"] != true || es[2]["line"] != "info again" {
		t.Errorf("next game: %v", es)
	}
}

// The event cap is shared by the Logs of one engine (its processes), used
// from several goroutines; past it a game writes only its count.
func TestEventCapIsShared(t *testing.T) {
	var mu sync.Mutex
	var buf bytes.Buffer
	w := zerolog.SyncWriter(&lockedWriter{&mu, &buf})
	budget := NewBudget(50_000)
	var wg sync.WaitGroup
	for p := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l := New(zerolog.New(w), Limits{Game: 1 << 30, Event: 50_000}, budget)
			for g := range 3 {
				for i := range 500 {
					l.Line("stderr", strconv.Itoa(p)+"/"+strconv.Itoa(g)+"/"+strconv.Itoa(i)+strings.Repeat("y", 30))
				}
				l.StartGame()
			}
		}()
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if buf.Len() > 50_000+12*200+1000 {
		t.Errorf("%d bytes written under an event cap of 50000", buf.Len())
	}
	if n := strings.Count(buf.String(), "cap for the event is reached"); n != 1 {
		t.Errorf("the event cap announced %d times, want once", n)
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}
