package configs

import (
	"slices"
	"strings"
	"testing"
)

func TestReadStored(t *testing.T) {
	c, err := ReadStored("site: Oslo\ntournament: swiss\nrounds: double\nauto_claim: false\nswiss:\n  tie_breaks: ' Buchholz, ,wins'\nadjudication:\n  resign: {movecount: 3, score: 4.5, twosided: true}\n")
	if err != nil {
		t.Fatal(err)
	}
	if c.Site != "Oslo" || c.Rounds != "double" || c.AutoClaim == nil || *c.AutoClaim || c.Adjudication.Resign == nil ||
		*c.Adjudication.Resign != (ResignAdjudication{MoveCount: 3, Score: 4.5, TwoSided: true}) || c.Adjudication.Draw != nil {
		t.Fatalf("%+v", c)
	}
	if got := c.TieBreakNames(); !slices.Equal(got, []string{"buchholz", "wins"}) {
		t.Fatalf("tie-breaks from a text: %q", got)
	}
	c, _ = ReadStored("swiss:\n  tie_breaks: [BH-C1, sonneborn-berger]\n")
	if got := c.TieBreakNames(); !slices.Equal(got, []string{"bh-c1", "sonneborn-berger"}) {
		t.Fatalf("tie-breaks from a list: %q", got)
	}
	if c, _ := ReadStored("site: x\n"); c.TieBreakNames() != nil || c.AutoClaim != nil {
		t.Fatalf("keys left out must stay unset: %+v", c)
	}
	if _, err := ReadStored("rounds: [\n"); err == nil {
		t.Fatal("broken YAML read")
	}
}

func TestReadVariant(t *testing.T) {
	for _, text := range []string{"international", "variant: international", "preset: international", "variant:\n  preset: international\n"} {
		v, err := ReadVariant(text)
		if err != nil || v.Squares() != 50 {
			t.Fatalf("%q: %v", text, err)
		}
	}
	for text, says := range map[string]string{
		"[1, 2]":                  "want a map of rules",
		"variant: [1]":            "variant: want a map of rules",
		"{":                       "not YAML",
		"preset: english\nfoo: 1": "foo",
	} {
		if _, err := ReadVariant(text); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%q: %v, want %q", text, err, says)
		}
	}
}
