package configs

import (
	"strings"
	"testing"
)

// yamlWith returns the minimal config with key (dotted) set to the value
// text, as a user would write it.
func yamlWith(key, value string) string {
	parts := strings.Split(key, ".")
	if parts[0] == "engines" {
		// A third engine carries the engine key.
		return minimal + "  - name: c\n    command: x\n    " + parts[2] + ": " + value + "\n"
	}
	flow := value
	for i := len(parts) - 1; i > 0; i-- {
		flow = "{" + parts[i] + ": " + flow + "}"
	}
	if parts[0] == "variant" {
		flow = "{preset: english, " + strings.TrimPrefix(flow, "{")
		return strings.Replace(minimal, "variant: english", "variant: "+flow, 1)
	}
	return minimal + parts[0] + ": " + flow + "\n"
}

// Whole-number keys take whole numbers: a fraction is an error rather than
// truncated, and a number out of range is quoted as written rather than
// wrapped around; in the file and on the command line alike.
func TestWholeNumberKeys(t *testing.T) {
	keys := []string{"games_per_encounter", "concurrency", "rounds", "adjudication.max_moves", "openings.seed",
		"variant.rows_of_men", "variant.draws.move_rule"}
	bad := []struct {
		value string
		want  string
	}{
		{"4.5", "is not a whole number"},
		{"1.5", "is not a whole number"},
		{"-0.5", "is not a whole number"},
		{"1e30", "out of range"},
		{"99999999999999999999", "out of range"},
		{".inf", "is not a whole number"},
	}
	for _, key := range keys {
		for _, b := range bad {
			for _, where := range []string{"yaml", "set"} {
				t.Run(key+"="+b.value+"/"+where, func(t *testing.T) {
					text, source := yamlWith(key, b.value), "event.yaml"
					var over []Override
					if where == "set" {
						text, source = minimal, "--set "+key+"="+b.value
						o, err := ParseSet(key + "=" + b.value)
						if err != nil {
							t.Fatal(err)
						}
						over = []Override{o}
					}
					_, err := Load(writeConfig(t, text), Options{Self: "/x", Overrides: over})
					if err == nil {
						t.Fatalf("%s = %s accepted", key, b.value)
					}
					for _, w := range []string{source + ": " + key + ": " + b.value + " ", b.want} {
						if !strings.Contains(err.Error(), w) {
							t.Errorf("error %q does not say %q", err, w)
						}
					}
				})
			}
		}
	}
	// A negative seed, a too small number, and a typed flag's value.
	for _, tc := range []struct {
		text string
		over []Override
		want string
	}{
		{yamlWith("openings.seed", "-1"), nil, "event.yaml: openings.seed: -1 is negative"},
		{yamlWith("openings.seed", "18446744073709551616"), nil, "openings.seed: 18446744073709551616 is out of range: a whole number here is at most 18446744073709551615"},
		{yamlWith("concurrency", "-99999999999999999999"), nil, "concurrency: -99999999999999999999 is out of range: a whole number here is at least -9223372036854775808"},
		{minimal, []Override{{Key: "concurrency", Value: 2.5, Source: "--concurrency"}}, "--concurrency: concurrency: 2.5 is not a whole number"},
		{yamlWith("margin", "1e30"), nil, "event.yaml: margin: 1e30 seconds is out of range for a duration"},
		{yamlWith("engines.2.init_timeout", "1e12"), nil, "event.yaml: engines.2.init_timeout: 1e12 seconds is out of range"},
		// A value reached through an alias is quoted as decoded.
		{minimal + "sprt: {elo0: &n 4.5, elo1: 10}\nconcurrency: *n\n", nil, "event.yaml: concurrency: 4.5 is not a whole number"},
	} {
		_, err := Load(writeConfig(t, tc.text), Options{Self: "/x", Overrides: tc.over})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want one saying %q", err, tc.want)
		}
	}
	// Whole numbers, also written as floats without a fraction, are kept.
	for _, tc := range []struct {
		key, value string
		check      func(*Event) bool
	}{
		{"games_per_encounter", "4", func(ev *Event) bool { return ev.Schedule.GamesPerEncounter == 4 }},
		{"concurrency", "3.0", func(ev *Event) bool { return ev.Concurrency == 3 }},
		{"openings.seed", "18446744073709551615", func(ev *Event) bool { return ev.Schedule.Seed == 18446744073709551615 }},
		{"margin", "1.5", func(ev *Event) bool { return ev.Margin.Seconds() == 1.5 }},
	} {
		for _, where := range []string{"yaml", "set"} {
			text := yamlWith(tc.key, tc.value)
			var over []Override
			if where == "set" {
				o, _ := ParseSet(tc.key + "=" + tc.value)
				text, over = minimal, []Override{o}
			}
			ev, err := Load(writeConfig(t, text), Options{Self: "/x", Overrides: over})
			if err != nil || !tc.check(ev) {
				t.Errorf("%s %s=%s: %v", where, tc.key, tc.value, err)
			}
		}
	}
}

// A --set value replaces what the file wrote under its key, also in messages.
func TestOverrideTextReplacesFileText(t *testing.T) {
	o, _ := ParseSet("adjudication={max_moves: 2.5}")
	_, err := Load(writeConfig(t, yamlWith("adjudication.max_moves", "7.5")), Options{Self: "/x", Overrides: []Override{o}})
	if err == nil || !strings.Contains(err.Error(), "--set adjudication={max_moves: 2.5}: adjudication.max_moves: 2.5 is not") {
		t.Errorf("error %v", err)
	}
}
