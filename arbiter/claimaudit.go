package arbiter

import (
	"fmt"
	"strings"

	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/pdn"
)

// FindingKind says what a claims audit finding is about.
type FindingKind uint8

// Finding kinds.
const (
	Claimable FindingKind = iota // where a draw rule first held
	Claimed                      // a claim recorded in a comment
	Drawn                        // a draw recorded in the Termination tag or the result's comment
)

// ClaimFinding is one verdict of AuditClaims.
type ClaimFinding struct {
	What FindingKind
	Kind Termination // "" for the line naming the rules that never held
	// Ply is the index of the move it is about (the claim or draw stands
	// after it); -1 before the first move.
	Ply   int
	Label string // the move's number and text, "5. 5-1", or "the start"
	// Valid says the rule held; Wrong says the record contradicts the
	// rules: a claim recorded accepted (or with no verdict), or a draw,
	// that the moves do not support, or a valid claim recorded refused.
	Valid, Wrong bool
	Text         string // the finding in English, evidence included
}

// AuditClaims checks the draw claims of a replayed PDN game (the arbiter's
// audit of a scoresheet): where threefold repetition, the N-move rule and,
// where the variant has them, the endgame rules first held; and whether
// each claim in the comments ([%claim ...] commands as Record.PDN writes
// them, or plain notes such as "claims a draw by repetition") and a draw
// recorded in the Termination tag or the last comment is valid under the
// variant's rules. A claim is judged in the position after the move whose
// comment holds it; a refused claim "with" a move not played, with that
// move. rp is pdn.Replay's result for g (its Variant is the rules).
func AuditClaims(g *pdn.Game, rp *pdn.Replayed) []ClaimFinding {
	v := rp.Variant
	// The game is replayed with every draw rule claimed, not declared, so
	// that a record going past an automatic draw can still be read.
	pv := v.Params()
	auto := pv.Draws.ThreefoldAutomatic
	pv.Draws.ThreefoldAutomatic = false
	cv, err := rules.NewVariant(pv)
	if err != nil {
		return nil
	}
	s := rp.Positions[0]
	start := rules.Setup(cv, s.Turn(), s.Pieces(rules.White), s.Pieces(rules.Black), s.Kings())
	r, err := NewReferee(Config{Variant: cv, Start: &start, Policy: PolicyStrict})
	if err != nil {
		return nil
	}
	r.cite = v // the record's rules cite their rulebook, not cv's (none)
	kinds := DrawKinds(v)
	var out []ClaimFinding
	first := map[Termination]bool{}
	label := func(i int) string {
		if i < 0 {
			return "the start"
		}
		return MoveLabel(start, i) + " " + g.Moves[i].Text
	}
	judgeComment := func(i int, comment string) {
		for _, c := range ParseClaims(comment) {
			out = append(out, judgeClaim(r, i, label(i), c))
		}
	}
	judgeComment(-1, g.Comment)
	moves := rp.Moves
	for i := 1; i < len(moves) && i < len(g.Moves); i++ {
		if g.Moves[i].Setup != "" {
			// PDN 3.0's set-up: the board changed there, by no move the
			// draw rules can count; what follows is not judged.
			out = append(out, ClaimFinding{What: Claimable, Ply: i - 1, Label: label(i - 1),
				Text: fmt.Sprintf("claims and draws after %s are not judged: the board was set up before %s (a /FEN/ set-up), and the draw rules count moves", label(i-1), label(i))})
			moves = moves[:i]
			break
		}
	}
	for i, m := range moves {
		if r.Done() {
			break
		}
		r.StartThinking()
		r.Submit(m)
		for _, k := range kinds {
			if first[k] {
				continue
			}
			ev := r.claimValid(k, nil, "")
			if !ev.Valid {
				continue
			}
			first[k] = true
			verb, note := "first claimable", ""
			if auto {
				verb, note = "first due", " (declared by the arbiter in "+v.Name()+")"
				if i < len(moves)-1 {
					note = " (declared by the arbiter in " + v.Name() + ", yet the record goes on)"
				}
			}
			out = append(out, ClaimFinding{What: Claimable, Kind: k, Ply: i, Label: label(i), Valid: true,
				Text: fmt.Sprintf("%s %s after %s%s: %s", ruleName(k), verb, label(i), note, ev.Cited())})
		}
		if i < len(g.Moves) {
			judgeComment(i, g.Moves[i].Comment)
		}
	}
	var never []string
	for _, k := range kinds {
		if !first[k] {
			never = append(never, ruleName(k))
		}
	}
	if len(never) > 0 {
		// One line for the rules that never held (Kind ""), not one each.
		out = append(out, ClaimFinding{What: Claimable, Ply: len(rp.Moves) - 1, Label: label(len(rp.Moves) - 1),
			Text: "never held: " + strings.Join(never, ", ")})
	}
	if d, ok := recordedDraw(g); ok {
		last := len(rp.Moves) - 1
		ev := judge(r, d.kind, "")
		f := ClaimFinding{What: Drawn, Kind: d.kind, Ply: last, Label: label(last), Valid: ev.Valid, Wrong: !ev.Valid}
		verdict := "valid"
		if !ev.Valid {
			verdict = "INVALID"
		}
		f.Text = fmt.Sprintf("%s recorded (%s) at the end, after %s: %s: %s", d.kind, d.where, label(last), verdict, ev.Cited())
		out = append(out, f)
	}
	return out
}

// judge checks a claim of kind in r's position (with the move text when
// not empty), resolving KindMoveRule to the variant's rule.
func judge(r *Referee, kind Termination, move string) Evidence {
	if kind == DrawAgreement {
		return judgeAgreement(r, true)
	}
	if kind == KindMoveRule {
		n := r.cfg.Variant.Draws().MoveRule
		if n == 0 {
			return Evidence{Kind: kind, Problem: "variant " + r.cfg.Variant.Name() + " has no N-move rule"}
		}
		kind = MoveRuleTermination(n)
	}
	if move == "" {
		return r.claimValid(kind, nil, "")
	}
	if r.Done() {
		return Evidence{Kind: kind, Move: move, Problem: "the game was over before " + move}
	}
	m, err := r.Position().ParseMove(move)
	if err != nil {
		return Evidence{Kind: kind, Move: move, Problem: fmt.Sprintf("the claim's move %s cannot be played: %v", move, err)}
	}
	return r.claimValid(kind, &m, r.Position().MoveText(m))
}

// judgeAgreement is the audit's evidence of a draw by agreement that a
// record states (agreed) or of a draw offer it records declined. The
// record is the only witness of what the players said, so either holds
// unless the game was already over.
func judgeAgreement(r *Referee, agreed bool) Evidence {
	if r.Done() {
		return Evidence{Kind: DrawAgreement, Problem: "the game was already over: " + r.Result().Reason}
	}
	return r.agreement(agreed)
}

func judgeClaim(r *Referee, i int, label string, c CommentClaim) ClaimFinding {
	f := ClaimFinding{What: Claimed, Kind: c.Kind, Ply: i, Label: label}
	who := "a claim"
	if c.HasColor {
		who = c.Color.Name() + "'s claim"
	}
	if c.Err != "" {
		f.Wrong = true
		f.Text = fmt.Sprintf("unreadable claim after %s: %s: %s", label, c.Err, c.Text)
		return f
	}
	move := ""
	if c.Verdict == VerdictRefused && c.Move != "" {
		move = c.Move // refused with a move: the move was not played
	}
	ev := judge(r, c.Kind, move)
	if c.Kind == DrawAgreement {
		ev = judgeAgreement(r, c.Verdict != VerdictRefused)
	}
	f.Valid = ev.Valid
	f.Wrong = ev.Valid == (c.Verdict == VerdictRefused)
	verdict := "valid"
	switch {
	case f.Wrong && ev.Valid:
		verdict = "valid, but recorded refused"
	case f.Wrong:
		verdict = "INVALID"
	case c.Kind == DrawAgreement && ev.Problem == "" && !ev.Valid:
		verdict = "declined" // an offer, not a claim: nothing to refuse
	case !ev.Valid:
		verdict = "invalid, and rightly refused"
	}
	with := ""
	if c.Move != "" {
		with = " with " + c.Move
	}
	recorded := "recorded " + c.Verdict.String()
	if c.Verdict == VerdictUnknown {
		recorded = "no verdict recorded"
	}
	f.Text = fmt.Sprintf("%s of %s%s after %s (%s): %s: %s", who, ruleName(c.Kind), with, label, recorded, verdict, ev.Cited())
	return f
}

// ruleName is "threefold repetition", "the 40-move rule", ...
func ruleName(k Termination) string {
	switch k {
	case DrawThreefold:
		return "threefold repetition"
	case KindMoveRule:
		return "the move rule"
	case DrawAgreement:
		return "a draw by agreement"
	}
	if n, ok := moveRuleN(k); ok {
		return fmt.Sprintf("the %d-move rule", n)
	}
	return string(k)
}

type recorded struct {
	kind  Termination
	where string
}

// recordedDraw finds a draw by a rule in the Termination tag or, for a
// drawn game without one, in the comment after the last move (or the
// game's comment) that is not a claim.
func recordedDraw(g *pdn.Game) (recorded, bool) {
	if t := strings.TrimSpace(g.Tag("Termination")); t != "" {
		switch k := Termination(strings.ToLower(t)); {
		case k == DrawThreefold, k == DrawAgreement:
			return recorded{k, "Termination tag"}, true
		case strings.HasPrefix(string(k), "draw by"):
			if _, ok := moveRuleN(k); ok {
				return recorded{k, "Termination tag"}, true
			}
			if kind, ok := plainKind(t); ok {
				return recorded{kind, "Termination tag"}, true
			}
		}
		return recorded{}, false
	}
	o, _, err := rules.ParseResult(g.Result)
	if err != nil || o != rules.Draw {
		return recorded{}, false
	}
	comment := g.Comment
	if len(g.Moves) > 0 {
		comment = g.Moves[len(g.Moves)-1].Comment
	}
	for _, cl := range clauses(comment) {
		if claimWord().MatchString(cl) || !strings.Contains(strings.ToLower(cl), "draw") {
			continue
		}
		if kind, ok := plainKind(cl); ok {
			return recorded{kind, "comment"}, true
		}
	}
	return recorded{}, false
}
