package arbiter

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

// articleCase is an illegal move whose explanation cites an article.
type articleCase struct {
	variant, fen string
	from, to     rules.Square
	path         []rules.Square
	code         string
	cites        string // Article.String()
}

// articleCases name every rule of the rulebooks (rulebooks) once: each
// code, and each piece's own article where a code's differs by piece.
var articleCases = []articleCase{
	{"english", "", 9, 15, nil, CodeNotDiagonal, "WCDF rules, 1.15, 1.17"},
	{"english", "", 9, 18, nil, CodeTooFar, "WCDF rules, 1.15"},
	{"english", "W:WK10:B14", 10, 19, nil, CodeTooFar, "WCDF rules, 1.17"},
	{"english", "B:W18:B14,K1", 14, 10, nil, CodeBackward, "WCDF rules, 1.15"},
	{"english", "B:W10:B14", 14, 7, nil, CodeBackwardCapture, "WCDF rules, 1.18"},
	{"english", "B:W18,27:B14,10", 10, 17, nil, CodeJumpsOwn, "WCDF rules, 1.18, 1.21"},
	{"english", "W:WK14:B18,23", 14, 32, nil, CodeTwoPieces, "WCDF rules, 1.18, 1.21"},
	{"english", "W:W22:B18", 22, 11, nil, CodeJumpTooFar, "WCDF rules, 1.18"},
	{"english", "W:WK22:B18", 22, 11, nil, CodeJumpTooFar, "WCDF rules, 1.21"},
	{"english", "B:W18,27:B14,10", 10, 15, nil, CodeCaptureCompulsory, "WCDF rules, 1.20"},
	{"english", "B:W18,27:B14,10", 14, 23, nil, CodeIncompleteCapture, "WCDF rules, 1.19, 1.20"},
	{"english", "W:W11:B7,6", 11, 9, []rules.Square{2, 9}, CodeCrownedStops, "WCDF rules, 1.16, 1.19"},

	{"international", "W:W33,34:B28,19,29", 29, 23, nil, CodeNotYourPiece, "FMJD rules, art. 3.3"},
	{"international", "", 32, 22, nil, CodeNotDiagonal, "FMJD rules, art. 3.4, 3.9"},
	{"international", "W:W33,34:B28,19,29", 34, 45, nil, CodeBackward, "FMJD rules, art. 3.4"},
	{"international", "", 32, 23, nil, CodeTooFar, "FMJD rules, art. 3.4"},
	{"international", "W:W33,28:B19", 33, 22, nil, CodeJumpsOwn, "FMJD rules, art. 4.1, 4.7"},
	{"international", "W:WK46:B37,19,28", 46, 23, nil, CodeTwoPieces, "FMJD rules, art. 4.2, 4.3"},
	{"international", "W:W33:B28", 33, 17, nil, CodeJumpTooFar, "FMJD rules, art. 4.2"},
	{"international", "W:W33,34,45:B28,19,29", 45, 40, nil, CodeCaptureCompulsory, "FMJD rules, art. 4.2, 4.3"},
	{"international", "W:W33,34:B28,19,29", 34, 23, nil, CodeIncompleteCapture, "FMJD rules, art. 4.5, 4.6"},
	{"international", "W:W33,34:B28,19,29", 33, 22, nil, CodeLongerCapture, "FMJD rules, art. 4.13"},
}

func (c articleCase) explain(t *testing.T, v *rules.Variant) Explanation {
	t.Helper()
	p := rules.NewPosition(v)
	if c.fen != "" {
		var err error
		if p, err = rules.ParseFEN(v, c.fen); err != nil {
			t.Fatalf("%s %s: %v", v.Name(), c.fen, err)
		}
	}
	return Explain(p, rules.Move{From: c.from, To: c.to, Path: c.path})
}

// TestExplainCitesArticle: every rule of the FMJD and WCDF rulebooks the
// arbiter cites is cited where an illegal move breaks it, after the
// explanation's text (Cited) and as a message of its own for a
// translation (Article.Message); a rule of the rulebook that no case here
// names fails the test.
func TestExplainCitesArticle(t *testing.T) {
	named := map[string]bool{}
	for _, c := range articleCases {
		t.Run(fmt.Sprintf("%s %d-%d %s", c.variant, c.from, c.to, c.code), func(t *testing.T) {
			e := c.explain(t, rules.MustLookup(c.variant))
			if e.Code != c.code {
				t.Fatalf("code %s (%s), want %s", e.Code, e, c.code)
			}
			if got := e.Article.String(); got != c.cites {
				t.Errorf("cites %q, want %q", got, c.cites)
			}
			if got, want := e.Cited(), e.String()+" ("+c.cites+")"; got != want {
				t.Errorf("Cited() = %q, want %q", got, want)
			}
			m := e.Article.Message()
			if m.Code != e.Article.Code() || m.Args["article"] != e.Article.Number || m.Text != c.cites {
				t.Errorf("the citation's message is %+v", m)
			}
			if _, ok := ArticleCodes()[m.Code]; !ok {
				t.Errorf("%s is not among ArticleCodes, so no catalog translates it", m.Code)
			}
			named[c.variant+" "+c.code] = true
			if p := e.Args["piece"]; p != "" {
				named[c.variant+" "+c.code+" "+p] = true
			}
		})
	}
	for _, b := range rulebooks {
		for key := range b.articles {
			if !strings.HasPrefix(key, "illegal.") {
				continue // a draw rule's: TestDrawCitesArticle
			}
			if !named[b.variant+" "+key] {
				t.Errorf("%s's %s (%s %s) is cited by no case", b.body, key, b.variant, b.articles[key])
			}
		}
	}
}

// TestExplainCitesNothingElsewhere: the same illegal moves in the variants
// whose rulebook the arbiter has not read cite nothing: the presets that
// play on the same board (giveaway as English, antidraughts and killer as
// international, Russian and Brazilian on 8x8), and a custom variant that
// keeps the preset's name but changes a rule.
func TestExplainCitesNothingElsewhere(t *testing.T) {
	housed := func(name string) *rules.Variant {
		p := rules.MustLookup(name).Params()
		p.Start = ""
		p.MenCaptureBackward = !p.MenCaptureBackward
		v, err := rules.NewVariant(p)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	others := map[string][]*rules.Variant{
		"english":       {rules.MustLookup("giveaway"), rules.MustLookup("russian"), rules.MustLookup("brazilian"), housed("english")},
		"international": {rules.MustLookup("antidraughts"), rules.MustLookup("killer"), rules.MustLookup("frisian"), housed("international")},
	}
	n := 0
	for _, c := range articleCases {
		for _, v := range others[c.variant] {
			if c.fen != "" {
				if _, err := rules.ParseFEN(v, c.fen); err != nil {
					continue
				}
			}
			e := c.explain(t, v)
			if e.Article != (Article{}) || e.Cited() != e.String() {
				t.Errorf("%s (%s) %d-%d: %s cites %q: %s", v.Name(), c.variant, c.from, c.to, e.Code, e.Article, e.Cited())
			}
			if a, ok := ArticleFor(v, c.code); ok {
				t.Errorf("ArticleFor(%s, %s) = %v", v.Name(), c.code, a)
			}
			n++
		}
	}
	if n < 2*len(articleCases) {
		t.Fatalf("only %d moves checked in the other variants", n)
	}
	// Codes with no article cite nothing in the cited variants either.
	for _, name := range []string{"english", "international"} {
		for _, code := range []string{CodeEmpty, CodeOffBoard, CodeOccupied, CodeNotLegal, CodeNotACapture, CodeUnreadable, CodeLegal} {
			if a, ok := ArticleFor(rules.MustLookup(name), code); ok {
				t.Errorf("ArticleFor(%s, %s) = %v", name, code, a)
			}
		}
	}
}

// drawCase is a game that ends drawn by a rule, or a claim of one, whose
// reason cites the rule's article.
type drawCase struct {
	variant, fen string
	kind         Termination
	// reach plays the game to the draw and returns the reason the arbiter
	// gave for it: the result's, or a refused claim's.
	reach func(t *testing.T, r *Referee) string
	cites string // Article.String(); "" for none
}

// claimedBy draws by claiming kind with the side to move.
func claimedBy(kind Termination) func(t *testing.T, r *Referee) string {
	return func(t *testing.T, r *Referee) string {
		t.Helper()
		if err := r.Claim(r.Turn(), kind); err != nil && !errors.Is(err, ErrClaimRefused) {
			t.Fatal(err)
		}
		return lastClaim(t, r).Reason
	}
}

// walked plays plies quiet king moves (walk) and returns the result's
// reason: the arbiter declares the FMJD draws itself.
func walked(plies int) func(t *testing.T, r *Referee) string {
	return func(t *testing.T, r *Referee) string {
		t.Helper()
		if n := walk(t, r, plies+20); n != plies {
			t.Fatalf("the game ended after %d plies (%v), want %d", n, r.Result(), plies)
		}
		return r.Result().Reason
	}
}

func agreed(t *testing.T, r *Referee) string {
	t.Helper()
	if err := r.Agree(); err != nil {
		t.Fatal(err)
	}
	return r.Result().Reason
}

// drawCases name every draw rule of the rulebooks once, and the same
// rules where no rulebook is cited.
var drawCases = []drawCase{
	{"english", kingsFEN, DrawThreefold, func(t *testing.T, r *Referee) string {
		play(t, r, cycle...)
		play(t, r, cycle...)
		return claimedBy(DrawThreefold)(t, r)
	}, "WCDF rules, 1.32.1"},
	{"english", "W:W30,K32:B5,K1", Draw40Move, func(t *testing.T, r *Referee) string {
		shuffle(t, r, 80)
		return claimedBy(Draw40Move)(t, r)
	}, "WCDF rules, 1.32.2"},
	// A refused claim cites the rule it was judged on too.
	{"english", "W:W30,K32:B5,K1", Draw40Move, func(t *testing.T, r *Referee) string {
		shuffle(t, r, 7)
		return claimedBy(Draw40Move)(t, r)
	}, "WCDF rules, 1.32.2"},
	{"english", "", DrawAgreement, agreed, "WCDF rules, 1.32"},

	{"international", "W:WK47:BK4", DrawThreefold, func(t *testing.T, r *Referee) string {
		play(t, r, "47-42", "4-9", "42-47", "9-4", "47-42", "4-9", "42-47")
		if v := r.Submit(move(t, r, "9-4")); v != GameOver {
			t.Fatalf("the third occurrence: %v", v)
		}
		return r.Result().Reason
	}, "FMJD rules, art. 6.1"},
	{"international", "W:W50,K47,K48:B1,K3,K4", Draw25Move, walked(50), "FMJD rules, art. 6.2"},
	{"international", "W:WK47,K48,K49:BK3", Draw16Move, walked(32), "FMJD rules, art. 6.3"},
	{"international", "W:WK47,K48:BK3", Draw5Move, walked(10), "FMJD rules, art. 6.4"},
	{"international", "", DrawAgreement, agreed, "FMJD rules, art. 7.3.1"},

	// The same rules in the presets whose rulebook the arbiter has not
	// read: nothing is cited.
	{"russian", "W:W32,K28,K29:B1,K5,K6", MoveRuleTermination(15), walked(30), ""},
	{"canadian", "W:WK67:BK3", Draw5Move, walked(10), ""},
	{"giveaway", kingsFEN, DrawThreefold, func(t *testing.T, r *Referee) string {
		play(t, r, cycle...)
		play(t, r, cycle...)
		return claimedBy(DrawThreefold)(t, r)
	}, ""},
	{"russian", "", DrawAgreement, agreed, ""},
}

// TestDrawCitesArticle: every draw rule of the FMJD and WCDF rulebooks
// the arbiter cites is cited where a game is drawn by it or a claim of it
// is judged, after the reason in the referee's words (Evidence.Cited), as
// the evidence's Article for a translation, and by DrawArticle; the other
// presets cite nothing. A draw rule of a rulebook that no case names
// fails the test.
func TestDrawCitesArticle(t *testing.T) {
	named := map[string]bool{}
	for _, c := range drawCases {
		t.Run(c.variant+" "+string(c.kind), func(t *testing.T) {
			r, _ := setup(t, c.variant, c.fen, Config{})
			reason := c.reach(t, r)
			if c.kind != DrawAgreement && r.Done() && r.Result().Termination != c.kind {
				t.Fatalf("drawn by %s, want %s", r.Result().Termination, c.kind)
			}
			a, ok := DrawArticle(r.cfg.Variant, c.kind)
			if got := a.String(); got != c.cites || ok != (c.cites != "") {
				t.Errorf("DrawArticle = %q %v, want %q", got, ok, c.cites)
			}
			if c.cites == "" {
				if strings.Contains(reason, "rules,") {
					t.Errorf("the reason cites a rulebook: %q", reason)
				}
				return
			}
			if !strings.HasSuffix(reason, " ("+c.cites+")") {
				t.Errorf("the reason %q does not end citing %q", reason, c.cites)
			}
			// The record's PDN notes (a claim's evidence, the result's
			// reason) say it too.
			g := r.Record().PDN(PDNTags{})
			notes := g.Comment
			for _, m := range g.Moves {
				notes += " " + m.Comment
			}
			if !strings.Contains(notes, " ("+c.cites+")") {
				t.Errorf("the PDN's notes do not cite %q: %s", c.cites, notes)
			}
			var ev Evidence
			if cs := r.Record().Claims; len(cs) > 0 {
				ev = cs[len(cs)-1].Evidence
			} else if e, ok := r.DrawEvidence(); ok {
				ev = e
			}
			if c.kind != DrawAgreement && (ev.Article.String() != c.cites || ev.Cited() != ev.String()+" ("+c.cites+")") {
				t.Errorf("the evidence cites %q: %q", ev.Article, ev.Cited())
			}
			named[c.variant+" "+string(c.kind)] = true
		})
	}
	for _, b := range rulebooks {
		for key := range b.articles {
			if !strings.HasPrefix(key, "illegal.") && !named[b.variant+" "+key] {
				t.Errorf("%s's %s (%s %s) is cited by no case", b.body, key, b.variant, b.articles[key])
			}
		}
	}
	// A rule the preset's rulebook does not have, a claim that cannot be
	// judged on the rule, and a custom variant cite nothing.
	r, _ := setup(t, "international", "W:WK47:BK4", Config{})
	if err := r.Claim(rules.White, Draw40Move); !errors.Is(err, ErrClaimRefused) || strings.Contains(err.Error(), "rules,") {
		t.Errorf("a 40-move claim in international: %v", err)
	}
	if _, err := r.ClaimWithMove(rules.Black, DrawThreefold, move(t, r, "47-42")); !errors.Is(err, ErrClaimRefused) || strings.Contains(err.Error(), "rules,") ||
		!strings.Contains(err.Error(), "only the side to move (White) can claim") {
		t.Errorf("a claim by the side not to move: %v", err)
	}
	p := rules.MustLookup("english").Params()
	p.Start = ""
	p.Draws.MoveRule = 50
	custom, err := rules.NewVariant(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []Termination{DrawThreefold, KindMoveRule, DrawAgreement} {
		if a, ok := DrawArticle(custom, k); ok {
			t.Errorf("DrawArticle(custom english, %s) = %v", k, a)
		}
	}
}
