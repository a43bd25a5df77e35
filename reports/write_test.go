package reports

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules/pdn"
)

// sameFloats compares two values field by field, treating NaN as equal
// to NaN (undefined Elo figures round-trip through JSON null).
func sameFloats(a, b any) bool {
	return reflect.DeepEqual(nanToSentinel(a), nanToSentinel(b))
}

func nanToSentinel(v any) any {
	b, _ := json.Marshal(v) // NaN is written as null by stats.Estimate
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

func TestResultsJSONRoundTrip(t *testing.T) {
	ev := synthEvent(4, 240, 3)
	// An engine with a perfect score makes some Elo figures undefined.
	ev.Engines = append(ev.Engines, "perfect", "idle")
	ev.Games = append(ev.Games, Game{Round: 99, Board: 1, White: "perfect", Black: "engine-A", Result: "1-0", Plies: 30})
	dir := t.TempDir()
	if err := WriteAll(dir, ev); err != nil {
		t.Fatal(err)
	}
	got, err := ReadResults(filepath.Join(dir, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	want, err := BuildResults(ev)
	if err != nil {
		t.Fatal(err)
	}
	if !sameFloats(got, want) {
		t.Fatalf("results.json does not round-trip")
	}
	// Spot checks that the decoded value carries real content.
	if got.Version != ResultsVersion || len(got.Games) != len(ev.Games) || len(got.Stats.Engines) != 6 {
		t.Fatalf("version %d, %d games, %d engines", got.Version, len(got.Games), len(got.Stats.Engines))
	}
	var perfect EngineStats
	for _, e := range got.Stats.Engines {
		if e.Name == "perfect" {
			perfect = e
		}
	}
	if perfect.Points != 1 || !math.IsNaN(perfect.Elo.Elo) || perfect.Rank == 0 {
		t.Errorf("perfect engine decoded as %+v", perfect)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, ResultsFile))
	if !bytes.Contains(raw, []byte(`"elo": null`)) {
		t.Errorf("undefined Elo not written as null")
	}
	for i, g := range got.Games {
		if i > 0 && (g.Round < got.Games[i-1].Round || g.Round == got.Games[i-1].Round && g.Board < got.Games[i-1].Board) {
			t.Fatalf("games not in round/board order at %d", i)
		}
		if g.WhiteTimeMS < 0 || g.BlackTimeMS < 0 {
			t.Fatalf("negative times")
		}
	}
	// A file from a future version is refused with a clear message.
	bad := filepath.Join(dir, "v9.json")
	os.WriteFile(bad, []byte(`{"version": 9}`), 0o644)
	if _, err := ReadResults(bad); err == nil || !strings.Contains(err.Error(), "version 9") {
		t.Errorf("version check: %v", err)
	}
}

func TestPDNOrderDeterministic(t *testing.T) {
	ev := synthEvent(3, 60, 5)
	shuffled := ev
	shuffled.Games = append([]Game(nil), ev.Games...)
	r := rand.New(rand.NewPCG(1, 1))
	r.Shuffle(len(shuffled.Games), func(i, j int) { shuffled.Games[i], shuffled.Games[j] = shuffled.Games[j], shuffled.Games[i] })
	// One game without PDN text still appears, with a minimal record.
	shuffled.Games[0].PDN = ""
	missing := shuffled.Games[0]

	var a, b bytes.Buffer
	if err := WritePDN(&a, shuffled); err != nil {
		t.Fatal(err)
	}
	r.Shuffle(len(shuffled.Games), func(i, j int) { shuffled.Games[i], shuffled.Games[j] = shuffled.Games[j], shuffled.Games[i] })
	if err := WritePDN(&b, shuffled); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Fatalf("games.pdn depends on the input order")
	}
	rounds := regexp.MustCompile(`\[Round "(\d+)\.(\d+)"\]`).FindAllStringSubmatch(a.String(), -1)
	if len(rounds) != len(ev.Games) {
		t.Fatalf("%d games in PDN, want %d", len(rounds), len(ev.Games))
	}
	prev := [2]int{}
	for _, m := range rounds {
		cur := [2]int{atoi(m[1]), atoi(m[2])}
		if cur[0] < prev[0] || cur[0] == prev[0] && cur[1] <= prev[1] {
			t.Fatalf("round %v after %v", cur, prev)
		}
		prev = cur
	}
	want := `[White "` + missing.White + `"]`
	if !strings.Contains(a.String(), want) || strings.Count(a.String(), "[Event ") != len(ev.Games) {
		t.Errorf("the game without PDN is missing")
	}
	// Games are separated by exactly one blank line.
	if strings.Contains(a.String(), "\n\n\n") || !strings.HasSuffix(a.String(), "\n") {
		t.Errorf("bad separators")
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// TestHTMLSelfContained checks the page without a browser: echarts is
// inlined, nothing is loaded from elsewhere, every chart has a div and an
// option, and hostile engine names cannot break out of the markup.
func TestHTMLSelfContained(t *testing.T) {
	ev := synthEvent(3, 90, 11)
	evil := `</script><script>alert("x")</script><b>`
	for i := range ev.Games {
		if ev.Games[i].White == "engine-C" {
			ev.Games[i].White = evil
		}
		if ev.Games[i].Black == "engine-C" {
			ev.Games[i].Black = evil
		}
	}
	ev.Engines[2] = evil
	var buf bytes.Buffer
	if err := WriteHTML(&buf, ev); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if strings.Contains(page, evil) || strings.Contains(page, `<script>alert`) {
		t.Errorf("engine name inserted unescaped")
	}
	// echarts, the charts, the games data, the records, the games code.
	if n := strings.Count(page, "<script"); n != 5 {
		t.Errorf("%d script elements, want 5 (echarts, charts, games data, records, games code)", n)
	}
	// Outside the inlined library (whose code builds an <img> for "save as
	// image"), no element may point anywhere.
	markup := strings.Replace(page, echartsJS, "", 1)
	if regexp.MustCompile(`(?i)<(script|link|img|iframe)[^>]+(src|href)=`).MatchString(markup) {
		t.Errorf("page loads an external resource")
	}
	if strings.Contains(page, "go-echarts.github.io") || strings.Contains(page, "cdn") {
		t.Errorf("page refers to a CDN")
	}
	if !strings.Contains(page, echartsJS[len(echartsJS)-200:]) {
		t.Errorf("echarts is not inlined")
	}
	for _, id := range []string{"chart-standings", "chart-progress", "chart-colour", "chart-termination",
		"chart-length", "chart-time-move", "chart-time-spread"} {
		if !strings.Contains(page, `id="`+id+`"`) || !strings.Contains(page, `"`+id+`":{`) {
			t.Errorf("chart %s missing", id)
		}
	}
}

// TestEchartsAssetInlinable guards the assumption that lets us inline the
// library verbatim: it contains no sequence that ends a script element.
func TestEchartsAssetInlinable(t *testing.T) {
	if len(echartsJS) < 500_000 {
		t.Fatalf("embedded echarts is only %d bytes", len(echartsJS))
	}
	low := strings.ToLower(echartsJS)
	if strings.Contains(low, "</script") || strings.Contains(low, "<!--") {
		t.Fatalf("echarts.min.js contains </script or <!--; it cannot be inlined verbatim")
	}
}

func TestWriteAllEmptyEvent(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "dir")
	if err := WriteAll(dir, Event{Name: "Nothing yet", Engines: []string{"A", "B"}}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{HTMLFile, ResultsFile, PDNFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	page, _ := os.ReadFile(filepath.Join(dir, HTMLFile))
	if !bytes.Contains(page, []byte("No data yet")) {
		t.Errorf("empty charts are not marked")
	}
	// No temporary files are left behind.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("%d files in the output directory", len(entries))
	}
	// A bad event writes nothing and names the problem.
	err := WriteAll(t.TempDir(), Event{Games: []Game{{White: "A", Black: "B", Result: "9-9"}}})
	if err == nil || !strings.Contains(err.Error(), `"9-9"`) {
		t.Errorf("error %v", err)
	}
}

// TestPDNTagEscaping: an engine name with quotes and a backslash is escaped
// in games.pdn the way every PDN writer escapes it (pdn.QuoteTagValue), also
// in the minimal record of a game without PDN text, and reads back as the
// name itself.
func TestPDNTagEscaping(t *testing.T) {
	name := `A "B" \ C`
	ev := Event{Name: `Cup "X"`, Variant: "english", Engines: []string{name, "b"},
		Games: []Game{{Round: 1, Board: 1, White: name, Black: "b", Result: "1-0", Termination: "normal"}}}
	var b bytes.Buffer
	if err := WritePDN(&b, ev); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `[White "A \"B\" \\ C"]`) || !strings.Contains(b.String(), `[Event "Cup \"X\""]`) {
		t.Errorf("games.pdn:\n%s", b.String())
	}
	g, err := pdn.NewReader(&b, PDNFile).Next()
	if err != nil {
		t.Fatal(err)
	}
	if g.Tag("White") != name || g.Tag("Event") != ev.Name {
		t.Errorf("read back White %q Event %q", g.Tag("White"), g.Tag("Event"))
	}
}

// results.json names the worker of each game a cluster played, and says
// nothing of workers for a game played locally.
func TestResultsJSONWorker(t *testing.T) {
	ev := Event{Name: "w", Engines: []string{"a", "b"}, Games: []Game{
		{Round: 1, Board: 1, White: "a", Black: "b", Result: "1-0", Worker: "box-1"},
		{Round: 1, Board: 2, White: "b", Black: "a", Result: "0-1"},
	}}
	r, err := BuildResults(ev)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), `"worker":"box-1"`); n != 1 {
		t.Errorf("results.json names the worker %d times; want once:\n%s", n, b.String())
	}
	if n := strings.Count(b.String(), `"worker"`); n != 1 {
		t.Errorf("results.json has %d worker keys; want 1 (none for the local game)", n)
	}
}

// report.html counts each worker's games in its summary.
func TestHTMLWorkers(t *testing.T) {
	ev := Event{Name: "w", Engines: []string{"a", "b"}, Games: []Game{
		{Round: 1, Board: 1, White: "a", Black: "b", Result: "1-0", Worker: "box-2"},
		{Round: 1, Board: 2, White: "b", Black: "a", Result: "0-1", Worker: "box-1"},
		{Round: 2, Board: 1, White: "a", Black: "b", Result: "1-0", Worker: "box-2"},
	}}
	if got := workersLine(ev); got != "box-1 1, box-2 2" {
		t.Errorf("workersLine = %q", got)
	}
	ev.Games[0].Worker, ev.Games[1].Worker, ev.Games[2].Worker = "", "", ""
	if got := workersLine(ev); got != "" {
		t.Errorf("workersLine of a local event = %q; want none", got)
	}
}
