package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/pdn"
)

func init() { subcommands = append(subcommands, newCheckCmd) }

// checkCounts are the totals of `arbiter check`; failed counts the files
// that could not be read to the end (I/O errors, not games).
type checkCounts struct {
	games, ok, illegal, unreadable, failed int
	// With --claims: claims and draws judged, and records the rules contradict.
	claims, draws, wrong int
}

func newCheckCmd() *cobra.Command {
	var variant, encoding string
	var claims bool
	cmd := &cobra.Command{
		Use:   "check [--variant V] [--claims] [--encoding E] FILE... (- for the standard input, a directory for its .pdn files)",
		Short: "Audit PDN game records: replay every game and report the first illegal move",
		Long: `check replays every game of every PDN file under its rules (its GameType tag, else
--variant, else the variant its moves are legal in) and prints one line per game: ok, or
the first illegal move with the rule it breaks, the position and the legal moves. --claims
also audits draw claims: where repetition and the N-move rules first held and whether each
recorded claim is valid; a record the rules contradict is marked WRONG:.
A file that is not UTF-8 is read as Windows-1252, Windows-1251 or KOI8-R as its
letters suggest (UTF-16 by its byte order mark), and a line says so for Cyrillic;
--encoding names the encoding instead.
Exit status: 0 all ok, 1 an illegal game or a wrong record, 2 usage, 3 a file unreadable.

Guide: docs/check-and-pdn.md`,
		Example: `  arbiter check games.pdn
  arbiter check --variant international -
  arbiter check --claims --variant english cmd/arbiter/testdata/claims/valid.pdn
  arbiter check --encoding windows-1251 rules/pdn/testdata/form-cp1251.pdn`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("check: no PDN file given (usage: arbiter check [--variant V] FILE...)")
			}
			var fallback *rules.Variant
			if variant != "" {
				v, err := rules.Lookup(variant)
				if err != nil {
					return usagef("check: --variant: %v", err)
				}
				fallback = v
			}
			enc, err := pdn.ParseEncoding(encoding)
			if err != nil {
				return usagef("check: --encoding: %v", err)
			}
			out := cmd.OutOrStdout()
			var n checkCounts
			for _, arg := range args {
				for _, file := range pdnFiles(out, arg) {
					checkFile(out, cmd.ErrOrStderr(), cmd.InOrStdin(), file, checkOptions{fallback, claims, enc}, &n)
				}
			}
			fmt.Fprintf(out, "games=%d ok=%d illegal=%d unreadable=%d\n", n.games, n.ok, n.illegal, n.unreadable)
			if claims {
				fmt.Fprintf(out, "claims=%d draws=%d wrong=%d\n", n.claims, n.draws, n.wrong)
			}
			switch {
			case n.failed > 0:
				return exitError{code: exitRuntime}
			case n.ok != n.games || n.wrong > 0:
				return exitError{code: exitFailed}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&variant, "variant", "", "rules for games without a GameType tag (e.g. english, international, russian); a tag wins")
	cmd.Flags().StringVar(&encoding, "encoding", "auto", "the files' character encoding: auto (UTF-8, else what the text suggests), "+strings.Join(pdn.EncodingNames[1:], ", "))
	cmd.Flags().BoolVar(&claims, "claims", false, "also audit draw claims: where repetition and the N-move rules first held, and whether each recorded claim or draw is valid")
	return cmd
}

// pdnFiles is what one argument names: the file itself, or for a directory
// the .pdn files in it and its subdirectories, in name order. Collections
// come as folders (a tournament's rounds, a site's downloads); reading the
// folder itself as a file stopped with "read DIR: is a directory".
func pdnFiles(out io.Writer, arg string) []string {
	if fi, err := os.Stat(arg); arg == "-" || err != nil || !fi.IsDir() {
		return []string{arg} // checkFile names what cannot be read
	}
	var files []string
	err := filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.EqualFold(filepath.Ext(path), ".pdn") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		return []string{arg} // checkFile says why it cannot be read
	}
	if len(files) == 0 {
		fmt.Fprintf(out, "%s: no .pdn file in the directory\n", arg)
	}
	return files
}

// openRecord opens a file to check; "-" is the standard input, as in other
// Unix tools (records piped from another program).
func openRecord(file string, stdin io.Reader) (io.ReadCloser, error) {
	if file == "-" {
		return io.NopCloser(stdin), nil
	}
	return os.Open(file)
}

// checkOptions are check's flags that apply to each file.
type checkOptions struct {
	fallback *rules.Variant // --variant (nil: the moves decide)
	claims   bool           // --claims
	encoding pdn.Encoding   // --encoding (pdn.Detect: auto)
}

// checkFile audits one file. A file that cannot be opened or read to the end
// is an I/O error, not a game: it is named on stderr (and on out, so the
// listing shows where it stopped) and makes the exit status 3.
func checkFile(out, errOut io.Writer, in io.Reader, file string, opt checkOptions, n *checkCounts) {
	fallback, claims := opt.fallback, opt.claims
	f, err := openRecord(file, in)
	if err != nil {
		n.failed++
		fmt.Fprintf(out, "%s: cannot read the file: %v\n", file, err)
		fmt.Fprintf(errOut, "arbiter: check: %v\n", err)
		return
	}
	defer f.Close()
	if file == "-" {
		file = "stdin"
	}
	games := 0
	pr := pdn.NewReader(f, file)
	pr.SetEncoding(opt.encoding)
	err = pdn.AuditReader(pr, fallback, func(rep pdn.Report) {
		games++
		n.games++
		switch rep.Status {
		case pdn.OK:
			n.ok++
		case pdn.Illegal:
			n.illegal++
			explainIllegal(rep)
		default:
			n.unreadable++
		}
		if !claims || rep.Status != pdn.OK {
			fmt.Fprintf(out, "%s: %s\n", file, rep)
			return
		}
		findings := arbiter.AuditClaims(rep.Game, rep.Replayed)
		// One verdict line per game: the first record the rules
		// contradict replaces its "ok"; the other findings follow.
		verdict := -1
		for i, f := range findings {
			switch f.What {
			case arbiter.Claimed:
				n.claims++
			case arbiter.Drawn:
				n.draws++
			}
			if f.Wrong {
				n.wrong++
				if verdict < 0 {
					verdict = i
				}
			}
		}
		if verdict < 0 {
			fmt.Fprintf(out, "%s: %s\n", file, rep)
		} else {
			fmt.Fprintf(out, "%s: %s\n", file, wrongVerdict(rep, oneLine(findings[verdict].Text)))
		}
		for i, f := range findings {
			if i == verdict {
				continue
			}
			mark := ""
			if f.Wrong {
				mark = "WRONG: "
			}
			fmt.Fprintf(out, "%s: game %d: %s%s\n", file, rep.Number, mark, oneLine(f.Text))
		}
	})
	if err != nil {
		n.failed++
		fmt.Fprintf(out, "%s: cannot read the file to the end, stopped reading: %v\n", file, err)
		fmt.Fprintf(errOut, "arbiter: check: %v\n", err)
		return
	}
	if line := encodingLine(pr); line != "" {
		fmt.Fprintf(out, "%s: %s\n", file, line)
	}
	if games == 0 {
		// Nothing was checked: say so, rather than an "ok" by silence.
		fmt.Fprintf(out, "%s: no game in the file (empty, or not PDN)\n", file)
	}
}

// encodingLine says which encoding a file was read in when the reader
// chose one a person would not assume: Cyrillic from the letters of a file
// that is not UTF-8, or UTF-16 from its first bytes. Windows-1252, the
// reading of such files before, goes unsaid.
func encodingLine(pr *pdn.Reader) string {
	enc, guessed := pr.Encoding()
	switch {
	case !guessed || enc == pdn.Windows1252:
		return ""
	case enc == pdn.UTF16LE || enc == pdn.UTF16BE:
		return fmt.Sprintf("read as %s, from its first bytes", enc)
	}
	return fmt.Sprintf("read as %s: the file is not UTF-8 and its letters read as Russian in it; "+
		"if names look wrong, name the encoding with --encoding (%s)", enc, strings.Join(pdn.EncodingNames[1:], ", "))
}

// wrongVerdict is the verdict line of a game whose moves are legal but
// whose record the rules contradict: "game N (White: ..., Black: ...):
// WRONG: <the finding>" in place of "ok", notes kept.
func wrongVerdict(rep pdn.Report, finding string) string {
	full := rep.String()
	bare := rep
	bare.Game = nil // "game N: ok ..." without the players
	tail := strings.TrimPrefix(bare.String(), fmt.Sprintf("game %d: ", rep.Number))
	head, ok := strings.CutSuffix(full, tail)
	if !ok || !strings.HasPrefix(tail, "ok") {
		return full + " WRONG: " + finding
	}
	return head + "WRONG: " + finding + strings.TrimPrefix(tail, "ok")
}

// explainIllegal names the rule an illegal move breaks, in the referee's
// words: the explanation the web referee gives a player (arbiter.Explain),
// for the squares the record's move names, and the article of the FMJD or
// WCDF rulebook it stands in where one is cited (Explanation.Cited).
func explainIllegal(rep pdn.Report) {
	var me *pdn.MoveError
	if !errors.As(rep.Err, &me) || !errors.Is(me.Err, rules.ErrIllegal) || rep.Variant == nil {
		return
	}
	var before rules.Position
	if r := rep.Replayed; r != nil && me.Index < len(r.Positions) {
		before = r.Positions[me.Index]
	} else {
		p, err := rules.ParseFEN(rep.Variant, me.FEN)
		if err != nil {
			return
		}
		before = p
	}
	sqs, err := rules.MoveSquares(before.Variant(), me.Text)
	if err != nil || len(sqs) < 2 {
		return
	}
	m := rules.Move{From: sqs[0], To: sqs[len(sqs)-1], Path: sqs[1:]}
	// "not legal here; the legal moves are ..." says nothing the report's
	// own list of legal moves does not: it was the same list twice.
	if x := arbiter.Explain(before, m); x.Code != "" && x.Code != arbiter.CodeLegal && x.Code != arbiter.CodeNotLegal {
		me.Why = x.Cited()
	}
}

// oneLine keeps a finding on one line whatever a comment held.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}
