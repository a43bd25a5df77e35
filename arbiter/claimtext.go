package arbiter

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/draughts-arbiter/arbiter/rules"
)

// ClaimVerdict is what a record says became of a claim.
type ClaimVerdict uint8

// Claim verdicts.
const (
	VerdictUnknown ClaimVerdict = iota // the record does not say
	VerdictAccepted
	VerdictRefused
)

func (v ClaimVerdict) String() string {
	switch v {
	case VerdictAccepted:
		return "accepted"
	case VerdictRefused:
		return "refused"
	}
	return "not said"
}

// KindMoveRule stands for "the N-move rule" of a claim that names no N
// ("claims the move rule"): the variant's rule.
const KindMoveRule Termination = "draw by the move rule"

// CommentClaim is a draw claim read from a PDN comment: the command that
// Record.PDN writes ("[%claim black threefold with 5-1 accepted]") or a
// plain note such as "White claims a draw by repetition (refused)".
type CommentClaim struct {
	Color    rules.Color
	HasColor bool        // the comment names the claimant
	Kind     Termination // DrawThreefold, MoveRuleTermination(N), KindMoveRule, DrawAgreement, ...
	Move     string      // the move it was claimed with ("with 5-1"), if said
	Verdict  ClaimVerdict
	Auto     bool   // claimed by the referee on the player's behalf
	Command  bool   // the [%claim ...] form
	Text     string // the text it was read from
	// Err says what is wrong with a [%claim] command that cannot be read
	// (the claim is then not judged).
	Err string
}

// Limits of the claim reader, against hostile comments.
const (
	maxClaimsPerComment = 64
	maxClaimCommand     = 256
)

// Compiled at first use, not as the program starts: most runs of it (an
// engine, a match, a command) never read a comment back, and every
// process paid for the patterns (with the others of the package, about
// half a millisecond each start on the project's machine).
var (
	claimWord   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bclaim(s|ed|ing)?\b`) })
	nMoveWord   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b(\d{1,4})\s*-?\s*moves?\b`) })
	refusedWord = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(refused|rejected|denied|declined|not valid|invalid|incorrect|wrong|premature)\b`)
	})
	acceptWord = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(accepted|granted|upheld|valid|correct|allowed)\b`)
	})
	colorWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b(white|black)\b`) })
	clockCmd  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\[%clock\s+(\d{1,3}):(\d{1,2}):(\d{1,2})(?:\.(\d{1,3}))?\s*\]`)
	})
)

// ParseClaims reads the draw claims of a comment: every [%claim ...]
// command, or, when there is none, the clauses (between . ; ! ? and
// brackets) that say "claim" and name a draw rule: repetition, threefold,
// N-move rule, move rule. It never fails: a command it cannot
// read comes back with Err set; text that names no rule is no claim.
func ParseClaims(comment string) []CommentClaim {
	var out []CommentClaim
	rest := comment
	commands := false
	for len(out) < maxClaimsPerComment {
		i := strings.Index(rest, "[%claim")
		if i < 0 {
			break
		}
		commands = true
		body := rest[i+len("[%claim"):]
		j := strings.IndexByte(body, ']')
		if j < 0 || j > maxClaimCommand {
			out = append(out, CommentClaim{Command: true, Text: cut(rest[i:], maxClaimCommand), Err: "the [%claim command is not closed with ]"})
			break
		}
		if body != "" && body[0] != ' ' && body[0] != '\t' && body[0] != ']' {
			// "[%claimx": another command.
			rest = body
			continue
		}
		out = append(out, parseClaimCommand(body[:j], rest[i:i+len("[%claim")+j+1]))
		rest = body[j+1:]
	}
	if commands {
		return out
	}
	for _, clause := range clauses(comment) {
		if len(out) >= maxClaimsPerComment {
			break
		}
		loc := claimWord().FindStringIndex(clause)
		if loc == nil {
			continue
		}
		kind, ok := plainKind(clause)
		if !ok {
			continue
		}
		c := CommentClaim{Kind: kind, Text: strings.TrimSpace(clause)}
		if m := colorWord().FindStringSubmatch(clause[:loc[0]]); m != nil {
			c.Color, c.HasColor = colorOf(m[1]), true
		}
		switch {
		case refusedWord().MatchString(clause):
			c.Verdict = VerdictRefused
		case acceptWord().MatchString(clause):
			c.Verdict = VerdictAccepted
		}
		out = append(out, c)
	}
	return out
}

// parseClaimCommand reads "black threefold with 5-1 accepted auto".
func parseClaimCommand(body, text string) CommentClaim {
	c := CommentClaim{Command: true, Text: text}
	f := strings.Fields(body)
	if len(f) < 2 {
		c.Err = "a [%claim command needs the side and the rule"
		return c
	}
	switch strings.ToLower(f[0]) {
	case "white", "black":
		c.Color, c.HasColor = colorOf(f[0]), true
	default:
		c.Err = "the side " + strconv.Quote(cut(f[0], 20)) + " is not white or black"
		return c
	}
	kind, ok := ParseClaimToken(f[1])
	if !ok {
		c.Err = "the rule " + strconv.Quote(cut(f[1], 20)) + " is not threefold, N-move or agreement"
		return c
	}
	c.Kind = kind
	for i := 2; i < len(f); i++ {
		switch strings.ToLower(f[i]) {
		case "with":
			if i+1 >= len(f) {
				c.Err = "\"with\" names no move"
				return c
			}
			c.Move = f[i+1]
			i++
		case "accepted":
			c.Verdict = VerdictAccepted
		case "refused":
			c.Verdict = VerdictRefused
		case "auto":
			c.Auto = true
		default:
			c.Err = "unknown word " + strconv.Quote(cut(f[i], 20)) + " in a [%claim command"
			return c
		}
	}
	return c
}

// ParseClaimToken reads a rule as ClaimToken writes it.
func ParseClaimToken(s string) (Termination, bool) {
	switch strings.ToLower(s) {
	case "threefold", "repetition":
		return DrawThreefold, true
	case "agreement":
		return DrawAgreement, true
	case "move-rule":
		return KindMoveRule, true
	case "one-piece-each":
		return DrawOnePieceEach, true
	case "2-kings-v-1-king":
		return DrawTwoKingsOneKing, true
	case "1-king-v-1-king":
		return DrawKingOneKing, true
	}
	n, ok := strings.CutSuffix(strings.ToLower(s), "-move")
	if !ok {
		return "", false
	}
	v, err := strconv.Atoi(n)
	if err != nil || v <= 0 || v > 1000 {
		return "", false
	}
	return MoveRuleTermination(v), true
}

// plainKind finds the draw rule a plain clause names.
func plainKind(clause string) (Termination, bool) {
	l := strings.ToLower(clause)
	switch {
	case strings.Contains(l, "repetition") || strings.Contains(l, "threefold") || strings.Contains(l, "three-fold") ||
		strings.Contains(l, "3-fold") || strings.Contains(l, "3fold") || strings.Contains(l, "repeated"):
		return DrawThreefold, true
	case strings.Contains(l, "one piece each"):
		return DrawOnePieceEach, true
	case strings.Contains(l, "2 kings v 1 king"):
		return DrawTwoKingsOneKing, true
	case strings.Contains(l, "1 king v 1 king"):
		return DrawKingOneKing, true
	}
	if m := nMoveWord().FindStringSubmatch(clause); m != nil && strings.Contains(l, "rule") {
		if n, err := strconv.Atoi(m[1]); err == nil && n > 0 && n <= 1000 {
			return MoveRuleTermination(n), true
		}
	}
	if strings.Contains(l, "move rule") || strings.Contains(l, "move-rule") {
		return KindMoveRule, true
	}
	// A draw by agreement is not claimed: no rule to check.
	return "", false
}

// clauses splits text at . ; ! ? [ ] { } and line ends (a parenthesis
// stays in its clause: "claims a draw (refused)"), keeping "12." and
// "12..." (a dot after a digit, or a run of dots) inside a clause.
func clauses(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '.':
			if i > 0 && (text[i-1] >= '0' && text[i-1] <= '9' || text[i-1] == '.') || i+1 < len(text) && text[i+1] == '.' {
				continue
			}
		case ';', '!', '?', '[', ']', '{', '}', '\n':
		default:
			continue
		}
		if i > start {
			out = append(out, text[start:i])
		}
		start = i + 1
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

func colorOf(s string) rules.Color {
	if strings.EqualFold(s, "black") {
		return rules.Black
	}
	return rules.White
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n-- // never cut a character in half
	}
	return s[:n] + "..."
}

// ParseClock reads the first [%clock h:mm:ss] (optionally h:mm:ss.d) of a
// comment.
func ParseClock(comment string) (time.Duration, bool) {
	m := clockCmd().FindStringSubmatch(comment)
	if m == nil {
		return 0, false
	}
	h, _ := strconv.Atoi(m[1])
	min, _ := strconv.Atoi(m[2])
	s, _ := strconv.Atoi(m[3])
	if min > 59 || s > 59 {
		return 0, false
	}
	d := time.Duration(h)*time.Hour + time.Duration(min)*time.Minute + time.Duration(s)*time.Second
	if m[4] != "" {
		frac := m[4] + strings.Repeat("0", 3-len(m[4]))
		ms, _ := strconv.Atoi(frac)
		d += time.Duration(ms) * time.Millisecond
	}
	return d, true
}
