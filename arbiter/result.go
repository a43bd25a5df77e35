package arbiter

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/draughts-arbiter/arbiter/rules"
)

// Termination is the fixed vocabulary written into the PDN Termination tag.
type Termination string

// Terminations. The N-move rule of a variant whose N is neither 40 nor 25
// is written the same way, e.g. "draw by 15-move rule" (see MoveRuleTermination).
const (
	Normal        Termination = "normal"       // side to move has no legal move
	Resignation   Termination = "resignation"  // a player resigned
	TimeForfeit   Termination = "time forfeit" // a flag fell
	IllegalMove   Termination = "illegal move" // an illegal move lost under the policy
	EngineCrashed Termination = "engine crashed"
	EngineStalled Termination = "engine stalled"
	EngineFault   Termination = "engine fault" // the engine broke a bound of the arbiter (a line too long, a flood) and was stopped
	DrawThreefold Termination = "draw by threefold repetition"
	Draw40Move    Termination = "draw by 40-move rule"
	Draw25Move    Termination = "draw by 25-move rule"
	Draw16Move    Termination = "draw by 16-move rule"
	Draw5Move     Termination = "draw by 5-move rule"
	DrawAgreement Termination = "draw by agreement"
	// The few-piece draws of RULES.md section 8: one piece each (Turkish),
	// 2 kings against 1 king and 1 king against 1 king (Frisian).
	DrawOnePieceEach    Termination = "draw by one piece each"
	DrawTwoKingsOneKing Termination = "draw by 2 kings v 1 king rule"
	DrawKingOneKing     Termination = "draw by 1 king v 1 king rule"
	Adjudication        Termination = "adjudication"
)

// MoveRuleTermination names the draw by the N-move rule: Draw40Move for 40,
// Draw25Move for 25, and "draw by N-move rule" for other N.
func MoveRuleTermination(n int) Termination {
	switch n {
	case 40:
		return Draw40Move
	case 25:
		return Draw25Move
	}
	return Termination("draw by " + strconv.Itoa(n) + "-move rule")
}

// Result is the result of a game: who won, how it ended, and a phrase
// explaining it ("Black has no legal move", "White used 5.2s of 5s";
// ReasonSentence where it stands alone).
// The zero Result is an ongoing game.
type Result struct {
	Outcome     rules.Outcome
	Termination Termination
	Reason      string
}

// PDN writes the result as PDN (rules.Outcome.PDN): "1-0", "0-1",
// "1/2-1/2", or "2-0", "0-2", "1-1" when v.WideResults() (international,
// Canadian); "*" while ongoing. A nil v uses the narrow form.
func (r Result) PDN(v *rules.Variant) string {
	return r.Outcome.PDN(v != nil && v.WideResults())
}

// String is "1-0 (normal: Black has no legal move)" and the like.
func (r Result) String() string {
	if r.Outcome == rules.Ongoing {
		return "*"
	}
	return fmt.Sprintf("%s (%s: %s)", r.PDN(nil), r.Termination, r.Reason)
}

// ReasonSentence is the reason as a sentence, for where it stands on its
// own rather than after the termination: "Black played 11-8: no black
// piece on 11 (strict policy)." after "Game over: 1-0 (illegal move).", or
// as the game's last note in PDN. Reason itself stays as recorded (the
// reports test its prefix); empty stays empty.
func (r Result) ReasonSentence() string {
	s := strings.TrimSpace(r.Reason)
	if s == "" {
		return ""
	}
	first, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(first)) + s[n:]
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "!") && !strings.HasSuffix(s, "?") {
		s += "."
	}
	return s
}

// Policy is the illegal-move policy (RULES.md section 6).
type Policy string

// Policies. The zero Policy means PolicyWCDF.
const (
	// PolicyWCDF: the first illegal move of a side gets a warning and is
	// taken back, and the same side moves again on its own running clock;
	// its second illegal move in the game loses.
	PolicyWCDF Policy = "wcdf"
	// PolicyStrict: an illegal move loses at once.
	PolicyStrict Policy = "strict"
	// PolicyOpponentDecides (FMJD/KNDB, human games): the opponent chooses
	// to correct the move (taken back, no penalty) or to let it stand
	// (applied as played); see Referee.Decide.
	PolicyOpponentDecides Policy = "opponent-decides"
)

// DefaultPolicy is the policy of v's federation (Variant.IllegalMoves):
// PolicyWCDF where the first illegal move is only warned, otherwise
// PolicyStrict, the engine-match convention.
func DefaultPolicy(v *rules.Variant) Policy {
	if v.IllegalMoves() == rules.IllegalWarnsFirst {
		return PolicyWCDF
	}
	return PolicyStrict
}

// ParsePolicy reads a policy name; "" means PolicyWCDF.
func ParsePolicy(s string) (Policy, error) {
	switch p := Policy(s); p {
	case "":
		return PolicyWCDF, nil
	case PolicyWCDF, PolicyStrict, PolicyOpponentDecides:
		return p, nil
	}
	return "", fmt.Errorf("arbiter: unknown illegal-move policy %q (want wcdf, strict or opponent-decides)", s)
}

// Verdict is the referee's answer to a submitted move.
type Verdict int

// Verdicts.
const (
	// Accepted: the move was played; the game goes on with the other side.
	Accepted Verdict = iota
	// Retry: a WCDF warning (or a corrected illegal move); the same side
	// must move again in the same position, on its own running clock.
	Retry
	// GameOver: the game has ended; see Result.
	GameOver
	// AwaitDecision: under opponent-decides, the opponent must now choose
	// with Decide whether the illegal move is corrected or stands.
	AwaitDecision
)

// String returns the verdict's name.
func (v Verdict) String() string {
	switch v {
	case Accepted:
		return "accepted"
	case Retry:
		return "retry"
	case GameOver:
		return "game over"
	case AwaitDecision:
		return "await decision"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}
