package director

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/match/swiss"
)

// extTRF is a two-player TRF16 file with the XXR and XXC extensions, one
// round played.
const extTRF = "012 Extensions\r\n" +
	"XXR 5\r\n" +
	"XXC black1\r\n" +
	"001    1      Alpha, A                          2000                             1.0    1     2 b 1\r\n" +
	"001    2      Beta, B                           1900                             0.0    2     1 w 0\r\n"

// TestImportTRFRoundsAndFirstColour: XXR becomes the event's rounds and
// XXC its first colour (in the pairing options too), and both are written
// back on export.
func TestImportTRFRoundsAndFirstColour(t *testing.T) {
	s := newStore(t, nil)
	ctx := context.Background()
	tev, err := ParseTRF([]byte(extTRF))
	must(t, err)
	ev, _, err := s.ImportTRF(ctx, Event{Variant: "international", Rounds: 3}, tev)
	must(t, err)
	if ev.Rounds != 5 || ev.FirstColor != swiss.Black {
		t.Fatalf("imported rounds %d, first colour %d; want 5, Black", ev.Rounds, ev.FirstColor)
	}
	sn := get(t, s, ev.ID)
	if o := sn.Event.Options(); o.Rounds != 5 || o.FirstColor != swiss.Black {
		t.Fatalf("stored event's options %+v", o)
	}
	var buf bytes.Buffer
	must(t, sn.WriteTRF(&buf))
	out := buf.String()
	for _, want := range []string{"XXR 5\r\n", "XXC black1\r\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("export lacks %q:\n%s", want, out)
		}
	}
	// Without XXC the event leaves the colour to the pairing, and the
	// export says nothing.
	tev, err = ParseTRF([]byte(strings.Replace(extTRF, "XXC black1\r\n", "", 1)))
	must(t, err)
	ev, _, err = s.ImportTRF(ctx, Event{Variant: "international"}, tev)
	must(t, err)
	buf.Reset()
	must(t, get(t, s, ev.ID).WriteTRF(&buf))
	if ev.FirstColor != swiss.NoColor || strings.Contains(buf.String(), "XXC") {
		t.Fatalf("no XXC: first colour %d, export:\n%s", ev.FirstColor, buf.String())
	}
	if _, _, err := s.Create(ctx, Event{Name: "E", Rounds: 1, FirstColor: 7}); code(err) != "director.bad-field" {
		t.Fatalf("first colour 7: %v", err)
	}
}
