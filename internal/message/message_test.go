package message

import (
	"slices"
	"testing"
)

func TestFill(t *testing.T) {
	tests := []struct {
		name, template string
		args           map[string]string
		want           string
	}{
		{"no args", "{a} stays", nil, "{a} stays"},
		{"one", "{color} played {move}.", Args("color", "white", "move", "32-28"), "white played 32-28."},
		{"repeated", "{c} and {c}", Args("c", "x"), "x and x"},
		{"missing stays", "{to} is occupied", Args("from", "1"), "{to} is occupied"},
		{"value not re-read", "{a}{b}", Args("a", "{b}", "b", "B"), "{b}B"},
		{"unterminated", "left {open", Args("open", "x"), "left {open"},
		{"empty name", "a {} b", Args("x", "y"), "a {} b"},
		{"brace in text after", "{a} } {", Args("a", "1"), "1 } {"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Fill(tt.template, tt.args); got != tt.want {
				t.Fatalf("Fill(%q) = %q, want %q", tt.template, got, tt.want)
			}
		})
	}
}

func TestCatalog(t *testing.T) {
	c := Catalog{"b.two": "{n} of two", "a.one": "One."}
	if got := c.Text("b.two", Args("n", "1")); got != "1 of two" {
		t.Fatalf("Text = %q", got)
	}
	if got := c.Text("no.such", nil); got != "no.such" {
		t.Fatalf("unknown code's text = %q, want the code", got)
	}
	if got := c.Codes(); !slices.Equal(got, []string{"a.one", "b.two"}) {
		t.Fatalf("Codes = %v", got)
	}
}

func TestArgs(t *testing.T) {
	if Args() != nil || Args("lonely") != nil {
		t.Fatal("no pairs must give nil")
	}
	if m := Args("a", "1", "b"); len(m) != 1 || m["a"] != "1" {
		t.Fatalf("Args = %v", m)
	}
}

func TestKindString(t *testing.T) {
	for k := Invalid; k <= Unavailable; k++ {
		if s := k.String(); s == "" || s[0] == 'k' {
			t.Fatalf("kind %d has no name: %q", k, s)
		}
	}
	if Kind(0).String() != "kind(0)" || Kind(99).String() != "kind(99)" {
		t.Fatal("unknown kinds must say their number")
	}
}

func FuzzFill(f *testing.F) {
	f.Add("{a} b {c", "a", "x")
	f.Fuzz(func(t *testing.T, template, name, value string) {
		out := Fill(template, Args(name, value))
		if len(out) > len(template)*(len(value)+1)+len(value) {
			t.Fatalf("Fill grew %q to %q", template, out)
		}
	})
}

// TestFillInPlural: a number's {name|form|...} takes the form of its
// plural category in the language, as i18n.js chooses it.
func TestFillInPlural(t *testing.T) {
	const ru = "после {games} {games|партии|партий|партий}"
	for _, c := range []struct {
		lang, template, games, want string
	}{
		{"ru", ru, "21", "после 21 партии"},
		{"ru", ru, "22", "после 22 партий"},
		{"ru", ru, "11", "после 11 партий"},
		{"ru", "{games|партия|партии|партий}", "3", "партии"},
		{"ru", "{games|партия|партии|партий}", "14", "партий"},
		{"en-GB", "{games} {games|game|games}", "1", "1 game"},
		{"en", "{games} {games|game|games}", "7", "7 games"},
		{"fr", "{games|partie|parties}", "0", "partie"},
		{"fr", "{games|partie|parties}", "2", "parties"},
		{"nb", "{games|parti|partier}", "1", "parti"},
		{"ru", "{games|партия|партии}", "5", "партии"},                              // fewer forms: the last stands for the rest
		{"ru", "{games|партия|партии|партий}", "x", "{games|партия|партии|партий}"}, // not a number: left as it is
		{"ru", "{other|a|b}", "1", "{other|a|b}"},                                   // no such argument
	} {
		if got := FillIn(c.lang, c.template, map[string]string{"games": c.games}); got != c.want {
			t.Errorf("%s %q with games=%s: %q, want %q", c.lang, c.template, c.games, got, c.want)
		}
	}
	if got := Fill("{n} {n|move|moves}", map[string]string{"n": "1"}); got != "1 move" {
		t.Errorf("Fill is English: %q", got)
	}
}

func TestDecimal(t *testing.T) {
	for _, c := range []struct {
		lang   string
		x      float64
		digits int
		want   string
	}{
		{"en", 7, 1, "7.0"},
		{"en-GB", -4.75, 1, "−4.8"},
		{"ru", 12.34, 1, "12,3"},
		{"ru-RU", -4.8, 1, "−4,8"},
		{"nb", 0.25, 2, "0,25"},
		{"da", 3, 1, "3,0"},
		{"nl", 1.5, 1, "1,5"},
		{"fr", 2.05, 1, "2,0"},  // 2.05 is 2.04999... in binary: rounded down, as Intl does
		{"ru", -0.04, 1, "0,0"}, // no negative zero
		{"en", -0.0001, 0, "0"},
		{"ru", 1500, 0, "1500"}, // no grouping
	} {
		if got := Decimal(c.lang, c.x, c.digits); got != c.want {
			t.Errorf("Decimal(%q, %v, %d) = %q, want %q", c.lang, c.x, c.digits, got, c.want)
		}
	}
}
