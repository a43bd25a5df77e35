package configs

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/match/schedule"
	"github.com/draughts-arbiter/arbiter/rules"
)

// minimal is a small valid config; tests add or break keys.
const minimal = `
name: t
variant: english
time_control: "60+1"
engines:
  - name: a
    command: self engine --level 1
  - name: b
    command: self engine --level 2
`

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "event.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestShippedConfigs(t *testing.T) {
	for _, name := range []string{"demo.yaml", "english-wcdf.yaml", "international-fmjd.yaml"} {
		t.Run(name, func(t *testing.T) {
			// From disk (as `arbiter tournament -c configs/X` reads it) and embedded.
			disk, err := Load(name, Options{Self: "/bin/arbiter"})
			if err != nil {
				t.Fatal(err)
			}
			emb, err := LoadEmbedded(name, Options{Self: "/bin/arbiter"})
			if err != nil {
				t.Fatal(err)
			}
			if disk.Hash != emb.Hash {
				t.Errorf("disk and embedded configs hash differently: %s vs %s", disk.Hash, emb.Hash)
			}
			if _, err := schedule.New(disk.Schedule); err != nil {
				t.Error(err)
			}
			for _, e := range disk.Engines {
				if e.Argv[0] != "/bin/arbiter" || e.Argv[1] != "engine" {
					t.Errorf("engine %s: argv %q does not run this binary's sparring engine", e.Name, e.Argv)
				}
			}
		})
	}
	demo, _ := LoadEmbedded("demo.yaml", Options{Self: "/x"})
	if demo.Variant.Name() != "english" || len(demo.Engines) != 4 || demo.Policy != arbiter.PolicyWCDF || len(demo.Openings) != 157 {
		t.Errorf("demo: variant %s, %d engines, policy %s, %d openings", demo.Variant.Name(), len(demo.Engines), demo.Policy, len(demo.Openings))
	}
	wcdf, _ := LoadEmbedded("english-wcdf.yaml", Options{Self: "/x"})
	if got := wcdf.TimeControl.String(); got != "30/3600" {
		t.Errorf("english-wcdf time control %s, want 30/3600", got)
	}
	if wcdf.Openings[0].Name != "001 09-13 21-17 05-09" {
		t.Errorf("first ballot opening %q", wcdf.Openings[0].Name)
	}
	fmjd, _ := LoadEmbedded("international-fmjd.yaml", Options{Self: "/x"})
	if fmjd.Variant.Name() != "international" || fmjd.Schedule.Kind != schedule.Gauntlet || len(fmjd.Openings) != 81 || fmjd.Policy != arbiter.PolicyStrict {
		t.Errorf("fmjd: %s %s %d openings, policy %s", fmjd.Variant.Name(), fmjd.Schedule.Kind, len(fmjd.Openings), fmjd.Policy)
	}
}

func TestDefaultsAndOverrides(t *testing.T) {
	p := writeConfig(t, minimal)
	ev, err := Load(p, Options{Self: "/bin/arb"})
	if err != nil {
		t.Fatal(err)
	}
	if ev.Concurrency != 1 || ev.Schedule.Cycles != 1 || ev.Schedule.GamesPerEncounter != 2 || !ev.AutoClaim ||
		ev.Out != filepath.Join("out", "event") || ev.Margin != 100*time.Millisecond || ev.SPRT != nil || len(ev.Openings) != 1 {
		t.Errorf("defaults: %+v", ev)
	}
	if ev.Openings[0].Position != rules.NewPosition(rules.MustLookup("english")) {
		t.Error("without openings the game starts from the initial position")
	}
	set := func(kv string) Override {
		o, err := ParseSet(kv)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	ev2, err := Load(p, Options{Self: "/bin/arb", Overrides: []Override{
		{Key: "concurrency", Value: 2, Source: "--concurrency"},
		{Key: "out", Value: "/tmp/x", Source: "--out"},
		{Key: "rounds", Value: "double", Source: "--rounds"},
		set("games_per_encounter=6"),
		set("engines.1.time_control=10+0.1"),
		set("engines.a.options.hash=64"),
		set("openings.file=openings/2move_english.json"),
		set("sprt={elo0: 0, elo1: 5}"),
		set("variant.draws.move_rule=50"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	if ev2.Concurrency != 2 || ev2.Out != "/tmp/x" || ev2.Schedule.Cycles != 2 || ev2.Schedule.GamesPerEncounter != 6 {
		t.Errorf("overrides not applied: %+v", ev2.Schedule)
	}
	if ev2.Engines[1].TimeControl.String() != "10+0.1" || ev2.Engines[0].TimeControl.String() != "60+1" {
		t.Errorf("engine time controls %s / %s", ev2.Engines[0].TimeControl, ev2.Engines[1].TimeControl)
	}
	if len(ev2.Engines[0].Options) != 1 || ev2.Engines[0].Options[0] != (Option{"hash", "64"}) {
		t.Errorf("options %v", ev2.Engines[0].Options)
	}
	if len(ev2.Openings) != 49 || ev2.SPRT == nil || ev2.SPRT.Elo1 != 5 || ev2.SPRT.Alpha != 0.05 || ev2.Variant.Draws().MoveRule != 50 || ev2.Variant.GameType() != 0 {
		t.Errorf("openings %d, sprt %+v, variant %+v", len(ev2.Openings), ev2.SPRT, ev2.Variant)
	}
	// Concurrency and out do not change the hash; the rest does.
	ev3, _ := Load(p, Options{Self: "/bin/arb", Overrides: []Override{{Key: "concurrency", Value: 3}, {Key: "out", Value: "elsewhere"}}})
	if ev3.Hash != ev.Hash {
		t.Error("concurrency/out changed the config hash")
	}
	if ev2.Hash == ev.Hash {
		t.Error("different games, same hash")
	}
	if !strings.Contains(ev2.Effective, "move_rule: 50") {
		t.Errorf("effective config lacks the override:\n%s", ev2.Effective)
	}
}

func TestConfigErrors(t *testing.T) {
	cases := []struct {
		name string
		text string
		over []string // --set overrides
		want []string // all must appear in the error
	}{
		{"unknown top key", minimal + "concurency: 2\n", nil, []string{"event.yaml", "concurency", "unknown key", `did you mean "concurrency"`}},
		{"unknown engine key", strings.Replace(minimal, "    command: self engine --level 2", "    comand: x", 1), nil, []string{"event.yaml", "engines.1.comand", "unknown key"}},
		{"a spec's short key in a file", strings.Replace(minimal, "    command: self engine --level 2", "    cmd: self engine --level 2", 1), nil, []string{"engines.1.cmd", `did you mean "command"?`, "--engine spec"}},
		{"unknown nested key", minimal + "openings: {file: openings/3move_english.json, grup: all}\n", nil, []string{"openings.grup"}},
		{"bad int", minimal + "concurrency: lots\n", nil, []string{"event.yaml", "concurrency", `"lots" is not a whole number`}},
		{"bad bool", minimal + "auto_claim: maybe\n", nil, []string{"auto_claim", "true or false"}},
		{"bad rounds", minimal + "rounds: triple\n", nil, []string{"rounds", "triple"}},
		{"a human policy for engines", minimal + "illegal_move_policy: opponent-decides\n", nil, []string{"illegal_move_policy", "for games between people"}},
		{"bad duration", minimal + "margin: soon\n", nil, []string{"margin", "soon"}},
		{"engines not a list", "engines: 3\n", nil, []string{"engines", "a list"}},
		{"bad time control", strings.Replace(minimal, "60+1", "60++1", 1), nil, []string{"event.yaml", "time_control", "60++1"}},
		{"bad engine tc", minimal + "  - name: c\n    command: x\n    time_control: fast\n", nil, []string{"engines.2.time_control", "fast"}},
		{"bad init timeout", minimal + "  - name: c\n    command: x\n    init_timeout: 2h\n", nil, []string{"engines.2.init_timeout", "1h"}},
		{"one engine", "engines: [{name: a, command: x}]\n", nil, []string{"engines", "at least 2"}},
		{"duplicate names", "engines: [{name: a, command: x}, {name: a, command: y}]\n", nil, []string{"engines.1.name", "engines.0"}},
		{"no command", "engines: [{name: a}, {name: b, command: y}]\n", nil, []string{"engines.0.command"}},
		{"bad protocol", "engines: [{name: a, command: x, protocol: uci}, {name: b, command: y}]\n", nil, []string{"engines.0.protocol", "uci"}},
		{"dxp without address", "engines: [{name: a, protocol: dxp}, {name: b, command: y}]\n", nil, []string{"engines.0.address"}},
		{"unclosed quote", "engines: [{name: a, command: \"x 'y\"}, {name: b, command: y}]\n", nil, []string{"engines.0.command", "quote"}},
		{"unknown preset", strings.Replace(minimal, "variant: english", "variant: chess", 1), nil, []string{"variant.preset", "chess"}},
		{"misspelt preset", strings.Replace(minimal, "variant: english", "variant: Internatonal", 1), nil, []string{"variant.preset", `did you mean "international"?`}},
		{"custom missing", strings.Replace(minimal, "variant: english", "variant: {board: 8x8}", 1), nil, []string{"variant.rows_of_men", "first_player"}},
		{"custom bad king", strings.Replace(minimal, "variant: english", "variant: {preset: english, king_range: long}", 1), nil, []string{"variant.king_range", "long"}},
		{"custom bad board", strings.Replace(minimal, "variant: english", "variant: {preset: english, board: huge}", 1), nil, []string{"variant.board", "huge"}},
		{"custom unknown key", strings.Replace(minimal, "variant: english", "variant: {preset: english, kings: flying}", 1), nil, []string{"variant.kings", "unknown key"}},
		{"custom rows too many", strings.Replace(minimal, "variant: english", "variant: {preset: english, rows_of_men: 4}", 1), nil, []string{"variant", "rows of men"}},
		{"tournament", minimal + "tournament: knockout\n", nil, []string{"tournament", "knockout", "round-robin, gauntlet or swiss"}},
		{"swiss without rounds", minimal + "tournament: swiss\n", nil, []string{"event.yaml: rounds: a Swiss event needs its number of rounds", "1 to 1 for 2 engines"}},
		{"swiss rounds too many", minimal + "tournament: swiss\nrounds: 2\n", nil, []string{"event.yaml: rounds: 2 rounds; a Swiss of 2 engines has 1 to 1"}},
		{"swiss rounds by flag", minimal + "tournament: swiss\n", []string{"rounds=0"}, []string{"--set rounds=0: rounds: 0 rounds"}},
		{"swiss with sprt", minimal + "tournament: swiss\nrounds: 1\nsprt: {elo0: 0, elo1: 5}\n", nil, []string{"event.yaml: sprt: an SPRT is for a two-engine match, not a Swiss event"}},
		{"swiss acceleration", minimal + "tournament: swiss\nrounds: 1\nswiss: {acceleration: fast}\n", nil, []string{"swiss.acceleration", `"fast" is not none or baku`}},
		{"swiss system", minimal + "tournament: swiss\nrounds: 1\nswiss: {system: monrad}\n", nil, []string{"swiss.system", `"monrad" is not dutch or burstein`}},
		{"swiss tie-break", minimal + "tournament: swiss\nrounds: 1\nswiss: {tie_breaks: [buchholz, koya]}\n", nil, []string{"swiss.tie_breaks.1", `"koya" is not a tie-break`}},
		{"swiss tie-break twice", minimal + "tournament: swiss\nrounds: 1\n", []string{"swiss.tie_breaks=wins, buchholz,wins"}, []string{"swiss.tie_breaks.2", `"wins" is already in the list`}},
		{"swiss key in a round-robin", minimal + "swiss: {acceleration: baku}\n", nil, []string{"event.yaml: swiss: the settings of a Swiss event, but tournament is round-robin"}},
		{"swiss unknown key", minimal + "tournament: swiss\nrounds: 1\nswiss: {tiebreaks: [wins]}\n", nil, []string{"swiss.tiebreaks", "unknown key", "tie_breaks"}},
		{"odd games", minimal + "games_per_encounter: 3\n", nil, []string{"games_per_encounter", "even"}},
		{"order", minimal + "openings: {order: shuffled}\n", nil, []string{"openings.order", "shuffled"}},
		{"missing openings file", minimal + "openings: {file: nowhere.json}\n", nil, []string{"openings.file", "nowhere.json", "no such file"}},
		{"missing group", minimal + "openings: {file: openings/3move_english.json, group: best}\n", nil, []string{"openings.file", `no group "best"`, "standard"}},
		{"wrong variant book", minimal + "openings: {file: openings/international-2move.fen}\n", nil, []string{"openings.file", "international-2move.fen:4"}},
		{"policy", minimal + "illegal_move_policy: lenient\n", nil, []string{"illegal_move_policy", "lenient"}},
		{"max moves", minimal + "adjudication: {max_moves: -1}\n", nil, []string{"adjudication.max_moves"}},
		{"concurrency zero", minimal + "concurrency: 0\n", nil, []string{"concurrency", "1 to 1024"}},
		{"sprt bad", minimal + "sprt: {elo0: 5, elo1: 0}\n", nil, []string{"sprt", "elo0"}},
		{"sprt model", minimal + "sprt: {elo0: 0, elo1: 5, model: binomial}\n", nil, []string{"sprt.model", "binomial"}},
		{"sprt three engines", minimal + "  - name: c\n    command: x\nsprt: {elo0: 0, elo1: 5}\n", nil, []string{"sprt", "exactly 2"}},
		{"not yaml", "engines: [\n", nil, []string{"event.yaml", "YAML"}},
		{"override bad value", minimal, []string{"concurrency=abc"}, []string{"--set concurrency=abc", "concurrency", `"abc" is not a whole number`}},
		{"override unknown key", minimal, []string{"concurrrency=2"}, []string{"--set concurrrency=2", "unknown key"}},
		{"override bad engine", minimal, []string{"engines.7.name=x"}, []string{"--set engines.7.name=x", "no index 7"}},
		{"override engine by bad name", minimal, []string{"engines.zed.name=x"}, []string{"engines.zed", `no element named "zed"`}},
		{"override engine field", minimal, []string{"engines.b.time_control=soon"}, []string{"--set engines.b.time_control=soon", "engines.1.time_control"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := writeConfig(t, tc.text)
			var over []Override
			for _, kv := range tc.over {
				o, err := ParseSet(kv)
				if err != nil {
					t.Fatal(err)
				}
				over = append(over, o)
			}
			_, err := Load(p, Options{Self: "/bin/arb", Overrides: over})
			if err == nil {
				t.Fatalf("no error; want one mentioning %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Errorf("error %T is not a *configs.Error", err)
			}
		})
	}
}

func TestCustomVariants(t *testing.T) {
	// Seed 002's house rules: men capture backwards, flying kings,
	// promotion ends the move, Red (the dark side) first; seed 001's
	// 50-move rule.
	text := strings.Replace(minimal, "variant: english", `variant:
  name: house
  board: 8x8
  rows_of_men: 3
  first_player: red
  men_capture_backward: true
  king_range: flying
  precedence: free
  promotion: stop
  draws:
    threefold: claim
    move_rule: 50
    move_rule_counts: no-man-move`, 1)
	ev, err := Load(writeConfig(t, text), Options{Self: "/x"})
	if err != nil {
		t.Fatal(err)
	}
	v := ev.Variant
	if v.Name() != "house" || v.Board().Width != 8 || v.RowsOfMen() != 3 || v.FirstPlayer() != rules.Black || !v.MenCaptureBackward() ||
		v.Kings() != rules.FlyingKings || v.Precedence() != rules.FreeChoice || v.Promotion() != rules.PromoteStop || !v.MenCaptureKings() ||
		v.Draws().ThreefoldAutomatic || v.Draws().MoveRule != 50 || v.Draws().KingsOnly || v.GameType() != 0 {
		t.Errorf("house variant: %+v", v)
	}
	if n := len(rules.NewPosition(v).LegalMoves()); n != 7 {
		t.Errorf("house variant has %d opening moves, want 7", n)
	}
	// A preset refined by one rule: international with the 25-move rule
	// off, and the preset's other rules kept.
	text = strings.Replace(minimal, "variant: english", "variant: {preset: international, draws: {move_rule: 0}}", 1)
	ev, err = Load(writeConfig(t, text), Options{Self: "/x"})
	if err != nil {
		t.Fatal(err)
	}
	if ev.Variant.Draws().MoveRule != 0 || !ev.Variant.Draws().ThreefoldAutomatic || ev.Variant.Kings() != rules.FlyingKings || ev.Variant.Name() != "international-custom" {
		t.Errorf("refined international: %+v", ev.Variant)
	}
	if rules.MustLookup("international").Draws().MoveRule != 25 {
		t.Fatal("refining a preset changed the preset")
	}
	// RULES.md section 8's few-piece draws on a custom rule set, and a bad count.
	text = strings.Replace(minimal, "variant: english", "variant: {preset: czech, draws: {one_piece_each: true, two_kings_v_king: 7, king_v_king: 2}}", 1)
	ev, err = Load(writeConfig(t, text), Options{Self: "/x"})
	if err != nil {
		t.Fatal(err)
	}
	if d := ev.Variant.Draws(); !d.OnePieceEach || d.TwoKingsOneKing != 7 || d.KingOneKing != 2 || d.MoveRule != 30 {
		t.Errorf("few-piece draws: %+v", d)
	}
	text = strings.Replace(minimal, "variant: english", "variant: {preset: frisian, draws: {king_v_king: -1}}", 1)
	if _, err := Load(writeConfig(t, text), Options{Self: "/x"}); err == nil || !strings.Contains(err.Error(), "draws.king_v_king") {
		t.Errorf("negative king_v_king: %v", err)
	}
	// RULES.md section 8's parameters: Corner's promotion squares, One-way's
	// men going the same way, Killer's kings, Breakthrough's end.
	text = strings.Replace(minimal, "variant: english", `variant:
  preset: czech
  name: one-way-corner
  killer_kings: true
  back_row_wins: true
  promotion_squares: {white: "a7, b8", black: g1 h2}
  men_forward: {white: up, black: up}`, 1)
	ev, err = Load(writeConfig(t, text), Options{Self: "/x"})
	if err != nil {
		t.Fatal(err)
	}
	v = ev.Variant
	a7, _ := v.ParseSquare("a7")
	h2, _ := v.ParseSquare("h2")
	if !v.KillerKings() || !v.BackRowWins() || v.Forward(rules.Black) != rules.TowardTop || v.Forward(rules.White) != rules.TowardTop ||
		v.PromotionSquares(rules.White).Len() != 2 || !v.Crowns(rules.White, a7) || !v.Crowns(rules.Black, h2) || v.Crowns(rules.Black, a7) {
		t.Errorf("section 8 parameters: %+v", v.Params())
	}
	// The generic generator's rules: Turkish written out from nothing plays
	// as the preset.
	text = strings.Replace(minimal, "variant: english", `variant:
  name: my-turkish
  board: 8x8
  layout: all-squares
  start: W:W41-56:B9-24
  first_player: white
  king_range: flying
  precedence: majority
  promotion: only-if-ending
  men_moves: forward sideways
  men_captures: forward, sideways
  king_moves: orthogonal
  king_captures: orthogonal
  remove_at_once: true
  no_turn_back: true
  notation: algebraic`, 1)
	ev, err = Load(writeConfig(t, text), Options{Self: "/x"})
	if err != nil {
		t.Fatal(err)
	}
	if got := rules.Perft(rules.NewPosition(ev.Variant), 4, false); got != 7538 {
		t.Errorf("custom Turkish perft(4) = %d, want 7538 as the preset", got)
	}
	for _, tc := range []struct{ text, want string }{
		{"{preset: turkish, start: 'W:W99'}", "start"},
		{"{preset: turkish, men_moves: upwards}", "men_moves"},
		{"{preset: turkish, layout: hexagonal}", "layout"},
		{"{preset: frisian, king_move_limit: -1}", "king_move_limit"},
		{"{preset: czech, promotion_squares: {white: a2}}", "promotion_squares.white"},
		{"{preset: czech, promotion_squares: {black: z9}}", "promotion_squares.black"},
		{"{preset: czech, men_forward: {black: sideways}}", "men_forward.black"},
	} {
		_, err := Load(writeConfig(t, strings.Replace(minimal, "variant: english", "variant: "+tc.text, 1)), Options{Self: "/x"})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one naming %s", tc.text, err, tc.want)
		}
	}
}

func TestOpeningFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return name
	}
	v := rules.MustLookup("english")
	ops, err := LoadOpenings(write("list.fen", "# comment\nB:W21-32:B1-12 ; start\n\nW:W18,21-32:B1-12 ; 22-18 start?\n"), "", dir, v)
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 2 || ops[0].Name != "start" || ops[0].Position != rules.NewPosition(v) {
		t.Errorf("fen list: %+v", ops)
	}
	_, err = LoadOpenings(write("bad.fen", "B:W21-32:B1-12\nB:W21-32:B1-99\n"), "", dir, v)
	if err == nil || !strings.Contains(err.Error(), "bad.fen:2") {
		t.Errorf("bad FEN error = %v, want file:line", err)
	}
	_, err = LoadOpenings(write("over.fen", "B:W18:B\n"), "", dir, v)
	if err == nil || !strings.Contains(err.Error(), "no legal move") {
		t.Errorf("finished start position accepted: %v", err)
	}
	ops, err = LoadOpenings(write("games.pdn", "[Event \"ballot 1\"]\n[GameType \"21\"]\n\n1. 9-13 21-17 2. 5-9 *\n\n[Event \"?\"]\n\n1. 11-15 *\n"), "", dir, v)
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 2 || ops[0].Name != "ballot 1" || ops[0].FEN != "W:W17,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,6,7,8,9,10,11,12,13" && ops[0].Position.Turn() != rules.White {
		t.Errorf("pdn openings: %+v", ops)
	}
	if ops[1].Name != "game 2: 11-15" {
		t.Errorf("unnamed PDN opening called %q", ops[1].Name)
	}
	_, err = LoadOpenings(write("bad.pdn", "[Event \"x\"]\n\n1. 9-14 21-17 2. 99-1 *\n"), "", dir, v)
	if err == nil || !strings.Contains(err.Error(), "bad.pdn") || !strings.Contains(err.Error(), "99-1") {
		t.Errorf("illegal PDN opening error = %v", err)
	}
	// Ballots keep their numbering (natural order).
	ops, err = LoadOpenings("openings/russian.json", "all", "", rules.MustLookup("russian"))
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(ops); i++ {
		if !naturalLess(ops[i-1].Name, ops[i].Name) {
			t.Fatalf("openings out of order: %q before %q", ops[i-1].Name, ops[i].Name)
		}
	}
	if !naturalLess("I-2: x", "I-10: x") || naturalLess("b10", "b9") || naturalLess("01 a", "1 a") == naturalLess("1 a", "01 a") {
		t.Error("naturalLess")
	}
}

func TestSplitCommand(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"self engine --level 2", []string{"self", "engine", "--level", "2"}},
		{`/opt/my engine/scan "hub mode" 'a b' c\ d`, []string{"/opt/my", "engine/scan", "hub mode", "a b", "c d"}},
		{`x "a\"b"`, []string{"x", `a"b`}},
		{`x ''`, []string{"x", ""}},
		{`C:\Engines\scan\scan.exe hub a\\b \'q`, []string{`C:\Engines\scan\scan.exe`, "hub", `a\b`, "'q"}},
	} {
		got, err := SplitCommand(tc.in)
		if err != nil || strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "  ", `"x`, `'x`} {
		if _, err := SplitCommand(bad); err == nil {
			t.Errorf("SplitCommand(%q) accepted", bad)
		}
	}
}

func TestFlagKeys(t *testing.T) {
	have := map[string]string{}
	for _, k := range FlagKeys() {
		have[k.Key] = k.Flag
	}
	for key, flag := range map[string]string{"concurrency": "concurrency", "out": "out", "rounds": "rounds", "openings.seed": "openings-seed",
		"adjudication.max_moves": "adjudication-max-moves", "sprt.elo1": "sprt-elo1", "variant": "variant", "time_control": "time-control"} {
		if have[key] != flag {
			t.Errorf("flag for %s = %q, want %q", key, have[key], flag)
		}
	}
	if _, ok := have["engines"]; ok {
		t.Error("engines has a flag")
	}
}

// FuzzConfig feeds arbitrary text to the config reader: it must return an
// event or an error, never panic or hang.
func FuzzConfig(f *testing.F) {
	for _, name := range Shipped() {
		data, _ := FS.ReadFile(name)
		f.Add(data)
	}
	f.Add([]byte(minimal))
	f.Add([]byte("variant: {board: 8x8, rows_of_men: 3, first_player: white, king_range: flying, precedence: majority, promotion: continue}\n" + minimal[20:]))
	f.Add([]byte("engines: [{name: a, command: \"x\"}, {name: b, command: y}]\nrounds: double\nmargin: 1\n"))
	f.Add([]byte("openings: {file: openings/international-2move.fen}\nvariant: international\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := Parse(data, "fuzz.yaml", "", Options{Self: "/x"})
		if err == nil && (ev == nil || ev.Variant == nil || len(ev.Engines) < 2 || len(ev.Openings) == 0 || ev.Hash == "") {
			t.Fatalf("accepted an incomplete event: %+v", ev)
		}
		if err != nil && err.Error() == "" {
			t.Fatal("empty error message")
		}
	})
}

// Hub parameter names are case-sensitive: they reach the engine as written
// in the file or on the command line, although viper lower-cases keys.
func TestOptionNamesKeepTheirCase(t *testing.T) {
	text := `
variant: english
time_control: "60+1"
engines:
  - {name: a, command: self engine, options: {Hash: 64, tt-Size: "2^20", threads: 1}}
  - name: b
    command: self engine
    Options:
      BookFile: "book.bin"
`
	ev, err := Load(writeConfig(t, text), Options{Self: "/x", Overrides: []Override{
		{Key: "engines.b.options.MoveOverhead", Value: 30, Source: "--set"},
		{Key: "ENGINES.A.OPTIONS.threads", Value: 2, Source: "--set"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]Option{
		{{"Hash", "64"}, {"threads", "2"}, {"tt-Size", "2^20"}},
		{{"BookFile", "book.bin"}, {"MoveOverhead", "30"}},
	}
	for i, w := range want {
		if got := ev.Engines[i].Options; !reflect.DeepEqual(got, w) {
			t.Errorf("engine %d options = %v, want %v", i, got, w)
		}
	}
}

// An engine's start-up timeout is read per engine; unset it is 0 (the
// protocol's default) and leaves the configuration hash as it was.
func TestInitTimeout(t *testing.T) {
	ev, err := Load(writeConfig(t, minimal+"  - name: slow\n    command: x\n    init_timeout: 3m\n"), Options{Self: "/x"})
	if err != nil {
		t.Fatal(err)
	}
	if got := ev.Engines[2].InitTimeout; got != 3*time.Minute {
		t.Errorf("init_timeout %v, want 3m", got)
	}
	if got := ev.Engines[0].InitTimeout; got != 0 {
		t.Errorf("unset init_timeout %v, want 0", got)
	}
	plain, err := Load(writeConfig(t, minimal), Options{Self: "/x"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(plain.Config)
	if strings.Contains(string(b), "init_timeout") {
		t.Errorf("an unset init_timeout is part of the hashed config: %s", b)
	}
}

// TestDefaultPolicy: with no illegal_move_policy the event takes the
// variant's federation rule, whatever the variant is called: a rule set
// built on the english preset keeps the WCDF warning, a variant merely named
// english-something does not get it.
func TestDefaultPolicy(t *testing.T) {
	for _, tc := range []struct {
		name, variant string
		want          arbiter.Policy
	}{
		{"english", "variant: english", arbiter.PolicyWCDF},
		{"checkers alias", "variant: checkers", arbiter.PolicyWCDF},
		{"international", "variant: international", arbiter.PolicyStrict},
		{"giveaway", "variant: giveaway", arbiter.PolicyStrict},
		{"english renamed", "variant:\n  preset: english\n  name: house\n  draws:\n    move_rule: 50", arbiter.PolicyWCDF},
		{"named english", "variant:\n  preset: russian\n  name: english-russian\n  draws:\n    move_rule: 50", arbiter.PolicyStrict},
		{"explicit", "variant: english\nillegal_move_policy: strict", arbiter.PolicyStrict},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev, err := Load(writeConfig(t, strings.Replace(minimal, "variant: english", tc.variant, 1)), Options{Self: "/x"})
			if err != nil {
				t.Fatal(err)
			}
			if ev.Policy != tc.want {
				t.Errorf("%s (%s): policy %s, want %s", tc.variant, ev.Variant.Name(), ev.Policy, tc.want)
			}
		})
	}
}

// A worker's engine definitions: the engines of a file (an event's config
// will do), or of every YAML file in a directory; "self" and dir resolve as
// in an event; a name defined twice, or a bad entry, is an error naming the
// file.
func TestLoadEngines(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("defs/a.yaml", "engines:\n  - {name: one, command: self engine --level 1, version: \"1.2\"}\n")
	write("defs/b.yml", "variant: english\nengines:\n  - {name: two, command: /bin/two, options: {Hash: 64}}\n")
	write("dup/a.yaml", "engines:\n  - {name: one, command: /bin/a}\n")
	write("dup/b.yaml", "engines:\n  - {name: one, command: /bin/b}\n")
	bad := write("bad.yaml", "engines:\n  - {name: one, comand: /bin/a}\n")
	specs, err := LoadEngines(filepath.Join(dir, "defs"), Options{Self: "/usr/bin/arbiter"})
	if err != nil {
		t.Fatal(err)
	}
	if len(specs) != 2 || specs[0].Name != "one" || specs[0].Argv[0] != "/usr/bin/arbiter" || specs[0].Version != "1.2" ||
		specs[1].Name != "two" || len(specs[1].Options) != 1 || specs[1].Options[0] != (Option{"Hash", "64"}) {
		t.Errorf("LoadEngines = %+v", specs)
	}
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "dup"), `"one" is already defined`},
		{bad, "comand"},
		{filepath.Join(dir, "nothing-here"), "no such file"},
	} {
		if _, err := LoadEngines(c.path, Options{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("LoadEngines(%s) = %v; want an error with %q", c.path, err, c.want)
		}
	}
}

// The Hub-1 and CheckerBoard protocols: a cb engine's command is its
// library, run by this arbiter's cb-host.
func TestEngineProtocols(t *testing.T) {
	ev, err := Load(writeConfig(t, minimal+"  - name: old\n    command: scan hub\n    protocol: hub1\n  - name: lib\n    command: ./kingsrow.so\n    protocol: CB\n"), Options{Self: "/x"})
	if err != nil {
		t.Fatal(err)
	}
	if e := ev.Engines[2]; e.Protocol != Hub1 || strings.Join(e.Argv, " ") != "scan hub" {
		t.Errorf("hub1 engine %+v", e)
	}
	if e := ev.Engines[3]; e.Protocol != CB || strings.Join(e.Argv, " ") != "/x cb-host ./kingsrow.so" {
		t.Errorf("cb engine %+v", e)
	}
	if _, err := Load(writeConfig(t, minimal+"  - name: lib\n    protocol: cb\n"), Options{Self: "/x"}); err == nil || !strings.Contains(err.Error(), "a cb engine needs a command") {
		t.Errorf("cb without a command: %v", err)
	}
}
