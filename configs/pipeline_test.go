package configs

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// Reading parses the file once (through viper) and keeps what viper's map
// loses: the case of engine option names and each value as written.
func TestReadYAML(t *testing.T) {
	doc, err := readYAML([]byte(`
Concurrency: 2
openings: {seed: 0x10}
Engines:
  - {name: a, command: x, Options: {Hash: 64, tt-Size: 1e3}}
  - name: b
    command: y
`), "f.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if doc.settings["concurrency"] != 2 {
		t.Errorf("settings %v: keys are matched in lower case", doc.settings)
	}
	opts := doc.settings["engines"].([]any)[0].(map[string]any)["options"]
	if !reflect.DeepEqual(opts, map[string]any{"Hash": 64, "tt-Size": 1e3}) {
		t.Errorf("options %v, want their names as written", opts)
	}
	for key, want := range map[string]string{"concurrency": "2", "openings.seed": "0x10",
		"engines.0.options.tt-Size": "1e3", "engines.1.command": "y"} {
		if got := doc.written[key]; got != want {
			t.Errorf("written[%s] = %q, want %q", key, got, want)
		}
	}
	empty, err := readYAML(nil, "empty.yaml")
	if err != nil || len(empty.settings) != 0 {
		t.Errorf("empty file: %v, %v", empty, err)
	}
	_, err = readYAML([]byte("engines: [\n"), "bad.yaml")
	var ce *Error
	if !errors.As(err, &ce) || ce.File != "bad.yaml" || !strings.Contains(err.Error(), "not valid YAML") {
		t.Errorf("bad YAML: %v", err)
	}
	// A list item's key one space short: the parser names line 3, where
	// the list began; the message names line 5 too.
	_, err = readYAML([]byte("name: x\nengines:\n  - name: a\n    command: a\n   command: b\n  - name: b\n"), "indent.yaml")
	if err == nil || !strings.Contains(err.Error(), "line 5 is indented unlike the lines above it") {
		t.Errorf("misindented line: %v", err)
	}
	for _, good := range []string{"a:\n  b:\n    - x\n    - y\nc: 1\n", "engines:\n- name: a\n  command: a\n- name: b\n", "x: |\n  one\n    two\ny: 2\n"} {
		if n := misindented([]byte(good)); n != 0 {
			t.Errorf("misindented(%q) = %d, want 0", good, n)
		}
	}
}

// Layering puts defaults under the file and overrides on top, and knows
// where every key's value came from.
func TestLayer(t *testing.T) {
	doc, _ := readYAML([]byte(minimal+"adjudication: {max_moves: 7.5}\n"), "f.yaml")
	set := func(kv string) Override { o, _ := ParseSet(kv); return o }
	s, err := layer(doc, "f.yaml", []Override{set("engines.b.dir=/tmp"), set("adjudication={max_moves: 9}"),
		{Key: "concurrency", Value: 3, Source: "--concurrency"}})
	if err != nil {
		t.Fatal(err)
	}
	if s.values["games_per_encounter"] != 2 || s.values["concurrency"] != 3 || s.values["name"] != "t" {
		t.Errorf("values %v", s.values)
	}
	for key, want := range map[string]string{"engines.1.dir": "--set engines.b.dir=/tmp", "engines.1": "--set engines.b.dir=/tmp",
		"concurrency": "--concurrency", "adjudication.max_moves": "--set adjudication={max_moves: 9}", "name": "f.yaml", "engines.0.name": "f.yaml"} {
		if got := s.source(key); got != want {
			t.Errorf("source(%s) = %q, want %q", key, got, want)
		}
	}
	if s.written["adjudication.max_moves"] != "9" || s.written["concurrency"] != "3" {
		t.Errorf("written %v", s.written)
	}
	if _, err := layer(doc, "f.yaml", []Override{set("engines.9.dir=x")}); err == nil || !strings.Contains(err.Error(), "--set engines.9.dir=x") {
		t.Errorf("bad override: %v", err)
	}
}

// The check stage reports every unknown key and every number a
// whole-number key cannot take, all at once, before anything is decoded.
func TestCheckReportsAll(t *testing.T) {
	doc, _ := readYAML([]byte(minimal+"concurency: 2\nrounds: 1.5\nopenings: {grup: x, seed: -2}\n"), "f.yaml")
	s, _ := layer(doc, "f.yaml", nil)
	err := s.check()
	if err == nil {
		t.Fatal("no error")
	}
	for _, w := range []string{"f.yaml: concurency: unknown key", "f.yaml: rounds: 1.5 is not a whole number",
		"f.yaml: openings.grup: unknown key", "f.yaml: openings.seed: -2 is negative"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not say %q", err, w)
		}
	}
}

// Validation is a function of the decoded config: it leaves its input as
// it was and the filesystem alone, so a missing directory or opening file
// passes it and is found by resolve, with its key.
func TestValidateThenResolve(t *testing.T) {
	text := minimal + "  - {name: c, command: self engine, dir: no-such-dir}\nopenings: {file: no-such-book.json}\n"
	doc, _ := readYAML([]byte(text), "f.yaml")
	s, _ := layer(doc, "f.yaml", nil)
	cfg, err := decode(s.values, s.source)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := decode(s.values, s.source)
	ev, err := validate(cfg, "dir/f.yaml", s.source)
	if err != nil {
		t.Fatalf("validate: %v", err)
	}
	if !reflect.DeepEqual(cfg, again) {
		t.Errorf("validate changed its input:\n%+v\n%+v", cfg, again)
	}
	if cfg.IllegalMovePolicy != "" || ev.Config.IllegalMovePolicy != "wcdf" || ev.Name != "t" || ev.Out != "out/f" {
		t.Errorf("defaults: input policy %q, event policy %q, name %q, out %q", cfg.IllegalMovePolicy, ev.Config.IllegalMovePolicy, ev.Name, ev.Out)
	}
	if ev.Engines[2].Argv[0] != "self" || ev.Engines[2].Dir != "no-such-dir" || ev.Openings != nil || ev.Hash != "" {
		t.Errorf("validate resolved what is resolve's: argv %q, dir %q, %d openings, hash %q",
			ev.Engines[2].Argv, ev.Engines[2].Dir, len(ev.Openings), ev.Hash)
	}
	_, err = resolve(ev, t.TempDir(), Options{Self: "/bin/arb"}, s.source)
	if err == nil {
		t.Fatal("resolve accepted a missing directory and book")
	}
	for _, w := range []string{"f.yaml: engines.2.dir: ", "no-such-dir\" is not a directory", "f.yaml: openings.file: "} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not say %q", err, w)
		}
	}
	if ev.Engines[2].Argv[0] != "/bin/arb" {
		t.Errorf("self resolved to %q", ev.Engines[2].Argv[0])
	}
	// A valid event resolves to its openings and hash.
	doc, _ = readYAML([]byte(minimal), "f.yaml")
	s, _ = layer(doc, "f.yaml", nil)
	cfg, _ = decode(s.values, s.source)
	ev, err = validate(cfg, "f.yaml", s.source)
	if err == nil {
		ev, err = resolve(ev, "", Options{Self: "/x"}, s.source)
	}
	if err != nil || len(ev.Openings) != 1 || ev.Hash == "" || ev.Schedule.Openings != 1 {
		t.Errorf("resolve: %+v, %v", ev, err)
	}
}

// FuzzParseSet feeds arbitrary --set arguments to the parser and the
// layering: an override or an error, never a panic.
func FuzzParseSet(f *testing.F) {
	for _, s := range []string{"concurrency=2", "sprt={elo0: 0, elo1: 5}", "engines.b.options.Hash=64", "x", "=", "a=[1, 2",
		"games_per_encounter=4.5", "variant.draws.move_rule=&a 3", "engines.0=*a"} {
		f.Add(s)
	}
	doc, err := readYAML([]byte(minimal), "f.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, kv string) {
		o, err := ParseSet(kv)
		if err != nil {
			if !strings.Contains(err.Error(), "--set") {
				t.Fatalf("error %q does not name the option", err)
			}
			return
		}
		d := &document{settings: deepCopy(doc.settings).(map[string]any), written: map[string]string{}}
		if s, err := layer(d, "f.yaml", []Override{o}); err == nil {
			_ = s.check()
		}
	})
}
