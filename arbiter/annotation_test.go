package arbiter

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/pdn"
)

func TestAnnotationRoundTrip(t *testing.T) {
	for _, tt := range []struct {
		a    Annotation
		text string
	}{
		{Annotation{Score: 0.31, HasScore: true, Depth: 12, Used: 520 * time.Millisecond, Nodes: 123456, PV: "32-28 19-23"},
			"+0.31/12 0.52s [%nodes 123456] [%pv 32-28 19-23]"},
		{Annotation{Score: -5, HasScore: true, Used: 2 * time.Second}, "-5.00 2.00s"},
		{Annotation{Depth: 3, Used: 0}, "-/3 0.00s"},
		{Annotation{Score: 0, HasScore: true, PV: "a [b] {c}"}, "+0.00 0.00s [%pv a b c]"},
	} {
		if got := tt.a.String(); got != tt.text {
			t.Errorf("%+v.String() = %q, want %q", tt.a, got, tt.text)
		}
		want := tt.a
		want.PV = strings.Join(strings.Fields(strings.NewReplacer("[", "", "]", "", "{", "", "}", "").Replace(want.PV)), " ")
		if got, ok := ParseAnnotation(tt.text + " [%clock 0:04:31]"); !ok || got != want {
			t.Errorf("ParseAnnotation(%q) = %+v, %v; want %+v", tt.text, got, ok, want)
		}
	}
	for _, c := range []string{"", "arbiter's decision: result: 1-0: (-2.00, -2.00)", "[%clock 0:01:00]", "+1.00 s"} {
		if a, ok := ParseAnnotation(c); ok {
			t.Errorf("ParseAnnotation(%q) = %+v, want none", c, a)
		}
	}
}

// The notes and the clocks written by Record.PDN come back from the PDN
// reader: every move's annotation and clock as recorded.
func TestAnnotationsThroughPDN(t *testing.T) {
	v, _ := rules.Lookup("english")
	tc, _ := ParseTimeControl("5+1")
	ref, err := NewReferee(Config{Variant: v, TimeControl: [2]TimeControl{tc, tc}})
	if err != nil {
		t.Fatal(err)
	}
	var notes []string
	var want []Annotation
	for i := 0; i < 6 && !ref.Done(); i++ {
		ref.StartThinking()
		ref.Submit(ref.Position().LegalMoves()[0])
		a := Annotation{Score: float64(i) - 2.5, HasScore: i != 3, Depth: i, Used: time.Duration(i) * 10 * time.Millisecond, Nodes: int64(i * 1000), PV: "11-15 23-19"}
		want = append(want, a)
		notes = append(notes, a.String())
	}
	rec := ref.Record()
	var b strings.Builder
	if err := pdn.Write(&b, rec.PDN(PDNTags{Clock: true, Notes: notes})); err != nil {
		t.Fatal(err)
	}
	g, err := pdn.NewReader(strings.NewReader(b.String()), "test.pdn").Next()
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Moves) != len(want) {
		t.Fatalf("%d moves read back, want %d:\n%s", len(g.Moves), len(want), b.String())
	}
	for i, m := range g.Moves {
		a, ok := ParseAnnotation(m.Comment)
		if !ok || a.HasScore != want[i].HasScore || a.Depth != want[i].Depth || a.Nodes != want[i].Nodes || a.PV != want[i].PV ||
			(a.HasScore && a.Score != want[i].Score) || a.Used.Round(10*time.Millisecond) != want[i].Used {
			t.Errorf("move %d: %q read as %+v, %v; want %+v", i+1, m.Comment, a, ok, want[i])
		}
		if c, ok := ParseClock(m.Comment); !ok || c != rec.Moves[i].Clock.Truncate(time.Second) {
			t.Errorf("move %d: clock %v, %v; want %v", i+1, c, ok, rec.Moves[i].Clock.Truncate(time.Second))
		}
	}
}

func FuzzParseAnnotation(f *testing.F) {
	f.Add("+0.31/12 0.52s [%nodes 123456] [%pv 32-28 19-23] [%clock 0:04:31]")
	f.Add("-/3 0.00s")
	f.Fuzz(func(t *testing.T, c string) {
		a, ok := ParseAnnotation(c)
		if !ok {
			return
		}
		if a.Depth < 0 || a.Nodes < 0 || a.Used < 0 {
			t.Errorf("ParseAnnotation(%q) = %+v", c, a)
		}
		// What it read, written again, reads the same.
		b, ok := ParseAnnotation(a.String())
		if !ok || b.HasScore != a.HasScore || b.Depth != a.Depth || b.Nodes != a.Nodes {
			t.Errorf("%q -> %+v -> %q -> %+v, %v", c, a, a.String(), b, ok)
		}
	})
}

// String writes what the fmt form it replaced wrote, for scores and times
// of every sign and size, NaN and the infinities included.
func TestAnnotationStringAsFmt(t *testing.T) {
	for _, f := range []float64{0, -0.0, 0.004, -0.004, 0.005, -0.005, 1.235, -7.999, 123456.789, -1e21, 1e21, math.NaN(), math.Inf(1), math.Inf(-1), math.SmallestNonzeroFloat64} {
		a := Annotation{Score: f, HasScore: true, Depth: 7, Used: time.Duration(f * float64(time.Second)), Nodes: 42, PV: " 11-15  [x] "}
		want := fmt.Sprintf("%+.2f/%d %.2fs [%%nodes %d] [%%pv 11-15 x]", f, 7, a.Used.Seconds(), 42)
		if got := a.String(); got != want {
			t.Errorf("%v: %q; want %q", f, got, want)
		}
	}
}
