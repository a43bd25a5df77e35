package rules

import "testing"

// TestEveryPresetBuilds: presets are built at their first use, not at the
// start of the binary, so this is where a preset that does not build is
// caught. Every name and alias gives a variant of that name, the same one
// every time, and a PDN GameType finds the preset that carries it.
func TestEveryPresetBuilds(t *testing.T) {
	gameTypes := map[int]string{}
	for _, name := range Presets() {
		v, err := Lookup(name)
		if err != nil {
			t.Fatalf("preset %s: %v", name, err)
		}
		if again := MustLookup(" " + name + " "); again != v {
			t.Errorf("preset %s: a second lookup gave another variant", name)
		}
		if v.Params().Name != name {
			t.Errorf("preset %s: its variant is called %q", name, v.Params().Name)
		}
		gt := presets[name].GameType
		if gt == 0 {
			continue
		}
		if other, ok := gameTypes[gt]; ok {
			t.Errorf("GameType %d is both %s and %s", gt, other, name)
		}
		gameTypes[gt] = name
		if got, ok := ByGameType(gt); !ok || got != v {
			t.Errorf("ByGameType(%d) = %v, %v; want the preset %s", gt, got, ok, name)
		}
	}
	for alias, name := range aliases {
		if MustLookup(alias) != MustLookup(name) {
			t.Errorf("alias %s is not the preset %s", alias, name)
		}
	}
	if v, ok := ByGameType(0); ok {
		t.Errorf("ByGameType(0) = %v, want none", v)
	}
	if _, err := Lookup("no-such-variant"); err == nil {
		t.Error("an unknown name was found")
	}
}
