package tournament

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/schedule"
	"github.com/draughts-arbiter/arbiter/rules"
)

// infoPlayer is fakePlayer answering as the sparring engine does: an info
// line with depth, score, time and a one-move principal variation.
type infoPlayer struct{ fakePlayer }

func (p *infoPlayer) Play(ctx context.Context, req match.Request) (match.Reply, error) {
	r, err := p.fakePlayer.Play(ctx, req)
	if err == nil {
		r.Info = []string{"info depth=1 score=" + strconv.Itoa(p.moves%3) + ".00 time=0.000012 pv=" + rules.HubMove(r.Move)}
	}
	return r, err
}

// BenchmarkRecordGame is what the runner does with a played game before
// storing it (record: the moves with what the engines said, the packed
// record, the annotated PDN), per game of English checkers between two
// engines that answer at once (about 66 plies), as in the end-to-end
// match benchmark (package match).
func BenchmarkRecordGame(b *testing.B) {
	ev := testEvent(b, "pdn: {annotations: full}\nadjudication: {max_moves: 0}\n")
	sched, err := schedule.New(ev.Schedule)
	if err != nil {
		b.Fatal(err)
	}
	p := sched.All()[0]
	op := ev.Openings[p.Opening]
	rec, err := judged(ev.Adjudicate, nil, true)(context.Background(), ev.ArbiterConfig(p.White, p.Black, p.Opening),
		&match.Watch{Player: &infoPlayer{fakePlayer{name: "a"}}}, &match.Watch{Player: &infoPlayer{fakePlayer{name: "b"}}}, zerolog.Nop())
	if err != nil {
		b.Fatal(err)
	}
	names := []string{"a", "b", "c", "d"}
	started := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := record(ev, names, p, op, rec, rec.Record.Result, started); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(rec.Record.Moves)), "plies")
}
