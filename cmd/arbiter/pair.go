package main

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss/pairfile"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss/trf"
)

func init() { subcommands = append(subcommands, newPairCmd) }

// The pair command's exit statuses are bbpPairings' (its README, "Error
// codes"), so that a program that calls bbpPairings can call this instead.
const (
	pairOK        = 0
	pairNoPairing = 1 // no valid pairing (with -c: a round differs)
	pairBug       = 2 // an unexpected error
	pairInvalid   = 3 // the request or the input file is invalid
	pairTooLarge  = 4 // more players than the engine pairs
	pairFile      = 5 // a file could not be read or written
)

const pairUsage = `arbiter pair --dutch|--burstein INPUT.trf -p [OUTPUT] [-l [LIST]]
  arbiter pair --dutch|--burstein INPUT.trf -c [-l [LIST]]
  arbiter pair --dutch|--burstein [CONFIG] -g [CONFIG] -o OUTPUT.trf [-s SEED] [-l [LIST]]
  arbiter pair --dutch|--burstein INPUT.trf -l [LIST]`

// pairLong and pairExample are pair's help: cobra's for "arbiter help
// pair", and what -h prints, since pair parses its own flags.
var pairLong = `pair is the FIDE Dutch (C.04.3, 2025) or Burstein (C.04.4.2) pairing engine, called
as other tournament programs call bbpPairings or JaVaFo, on a TRF16 or TRF-2026 file:

  ` + pairUsage + `

-p pairs the round after the last one (to OUTPUT, or standard output), -c re-pairs every
recorded round and reports each that differs, -g generates a random event from CONFIG
(bbpPairings' KEY=VALUE lines) with -s SEED, -l writes each round's checklist.
Exit status: 0 done; 1 no valid pairing (-c: a round differs); 2 an unexpected error;
3 an invalid request or file; 4 over ` + strconv.Itoa(swiss.MaxPlayers) + ` players; 5 a file unreadable or unwritable.

Guide: docs/human-events.md`

const pairExample = `  arbiter pair --dutch event.trf -p next-round.txt
  arbiter pair --burstein event.trf -p
  arbiter pair --dutch -g -o random.trf -s 7
  arbiter pair --dutch event.trf -c -l`

func newPairCmd() *cobra.Command {
	return &cobra.Command{
		Use:                "pair",
		Short:              "Pair, check or generate a Swiss event in a TRF file, as bbpPairings and JaVaFo are called",
		Long:               pairLong,
		Example:            pairExample,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			code := runPair(args, cmd.OutOrStdout(), cmd.ErrOrStderr())
			if code == pairOK {
				return nil
			}
			return exitError{code}
		},
	}
}

// pairRequest is a parsed pair command line.
type pairRequest struct {
	input, output, config, list string
	pair, check, generate       bool
	listWanted                  bool
	seed                        uint64
	seedGiven                   bool
	system                      swiss.System
}

// pairFail is an error with its exit status.
type pairFail struct {
	code int
	err  error
}

func (f pairFail) Error() string { return f.err.Error() }

func failf(code int, format string, a ...any) error {
	return pairFail{code, fmt.Errorf(format, a...)}
}

func parsePairArgs(args []string) (pairRequest, error) {
	var q pairRequest
	system := ""
	optional := func(i *int) string { // the value of a flag whose value is optional
		if *i+1 < len(args) && !strings.HasPrefix(args[*i+1], "-") {
			*i++
			return args[*i]
		}
		return ""
	}
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "--dutch", "--burstein":
			if system != "" {
				return q, failf(pairInvalid, "%s: the system is given twice", a)
			}
			system = a
			if v := optional(&i); v != "" {
				q.input = v
			}
		case "-p":
			q.pair = true
			q.output = optional(&i)
		case "-c":
			q.check = true
		case "-g":
			q.generate = true
			if v := optional(&i); v != "" {
				q.config = v
			}
		case "-o":
			if i+1 >= len(args) {
				return q, failf(pairInvalid, "-o needs the output file")
			}
			i++
			q.output = args[i]
		case "-s":
			if i+1 >= len(args) {
				return q, failf(pairInvalid, "-s needs a seed")
			}
			i++
			s, err := strconv.ParseUint(args[i], 10, 64)
			if err != nil {
				return q, failf(pairInvalid, "-s %q: the seed is a whole number from 0 to 18446744073709551615", args[i])
			}
			q.seed, q.seedGiven = s, true
		case "-l":
			q.listWanted = true
			q.list = optional(&i)
		case "-r":
			return q, failf(pairInvalid, "-r (pair by ranks instead of start numbers) is not supported: renumber the players in the file")
		case "-h", "--help":
			return q, failf(pairOK, "%s\n\nExamples:\n%s", pairLong, pairExample)
		default:
			if strings.HasPrefix(a, "-") {
				return q, failf(pairInvalid, "unknown option %q\nusage:\n  %s", a, pairUsage)
			}
			if q.input != "" {
				return q, failf(pairInvalid, "a second input file %q (the first is %q)", a, q.input)
			}
			q.input = a
		}
	}
	switch system {
	case "":
		return q, failf(pairInvalid, "name the system: --dutch (FIDE Dutch, C.04.3) or --burstein (C.04.4.2)\nusage:\n  %s", pairUsage)
	case "--burstein":
		q.system = swiss.Burstein
	}
	ops := 0
	for _, b := range []bool{q.pair, q.check, q.generate} {
		if b {
			ops++
		}
	}
	switch {
	case ops > 1:
		return q, failf(pairInvalid, "choose one of -p, -c and -g")
	case ops == 0 && !q.listWanted:
		return q, failf(pairInvalid, "nothing to do: -p pairs, -c checks, -g generates, -l writes the checklist\nusage:\n  %s", pairUsage)
	case q.generate:
		if q.config == "" {
			q.config, q.input = q.input, ""
		}
		if q.input != "" {
			return q, failf(pairInvalid, "-g takes one config file (given %q and %q)", q.input, q.config)
		}
		if q.output == "" {
			return q, failf(pairInvalid, "-g needs -o OUTPUT.trf")
		}
	case q.input == "":
		return q, failf(pairInvalid, "no input TRF file: arbiter pair --dutch INPUT.trf ...")
	}
	return q, nil
}

// runPair runs one pair command line and returns its exit status. Errors
// go to stderr; a panic is a bug (status 2, as bbpPairings says).
func runPair(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(stderr, "arbiter pair: internal error (a bug; please report it with this text): %v\n\n%s", v, debug.Stack())
			code = pairBug
		}
	}()
	err := pairMain(args, stdout, stderr)
	if err == nil {
		return pairOK
	}
	var f pairFail
	if errors.As(err, &f) {
		if f.code == pairOK {
			fmt.Fprintln(stdout, f.err)
			return pairOK
		}
		fmt.Fprintln(stderr, "arbiter pair:", f.err)
		return f.code
	}
	fmt.Fprintln(stderr, "arbiter pair:", err)
	return pairBug
}

func pairMain(args []string, stdout, stderr io.Writer) error {
	q, err := parsePairArgs(args)
	if err != nil {
		return err
	}
	var ev *trf.Event
	if q.generate {
		if ev, err = generateEvent(q, stderr); err != nil {
			return err
		}
	} else if ev, err = readTRF(q.input); err != nil {
		return err
	}
	// The command line's system wins over the file's type (192).
	pairfile.SetSystem(ev, q.system)
	if len(ev.Players) > swiss.MaxPlayers {
		return failf(pairTooLarge, "%s: %d players, more than the %d the engine pairs", q.input, len(ev.Players), swiss.MaxPlayers)
	}
	switch {
	case q.pair:
		if err := pairNext(q, ev, stdout); err != nil {
			return err
		}
	case q.check:
		if err := checkEvent(q, ev, stdout); err != nil {
			// The checklist is still wanted for the rounds that differ.
			if q.listWanted {
				_ = writeList(q, ev)
			}
			return err
		}
	}
	if q.listWanted {
		return writeList(q, ev)
	}
	return nil
}

func readTRF(path string) (*trf.Event, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, failf(pairFile, "%v", err)
	}
	ev, err := trf.Read(bytes.NewReader(data))
	if err != nil {
		return nil, failf(pairInvalid, "%s: %v", path, err)
	}
	return ev, nil
}

func writePairFile(path string, data []byte) error {
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return failf(pairFile, "%v", err)
	}
	return nil
}

// engineFail gives a pairfile or swiss error its exit status.
func engineFail(what string, err error) error {
	switch {
	case errors.Is(err, swiss.ErrNoPairing):
		return failf(pairNoPairing, "%s: no valid pairing: no pairing satisfies the absolute criteria (C.04.3 C.1-C.3, C.04.4.2 [C1]-[C3]); pair this round by hand", what)
	case errors.Is(err, pairfile.ErrInput):
		return failf(pairInvalid, "%s: %v", what, err)
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission):
		return failf(pairFile, "%s: %v", what, err)
	}
	return failf(pairInvalid, "%s: %v", what, err)
}

func pairNext(q pairRequest, ev *trf.Event, stdout io.Writer) error {
	r, err := pairfile.Next(ev)
	if err != nil {
		return engineFail(q.input, err)
	}
	var b bytes.Buffer
	if err := pairfile.WritePairs(&b, r); err != nil {
		return err
	}
	if q.output == "" {
		_, err := stdout.Write(b.Bytes())
		return err
	}
	return writePairFile(q.output, b.Bytes())
}

func checkEvent(q pairRequest, ev *trf.Event, stdout io.Writer) error {
	diffs, err := pairfile.Check(ev)
	if err != nil {
		return engineFail(q.input, err)
	}
	for _, d := range diffs {
		fmt.Fprintf(stdout, "round %d: %s\n", d.Round, d.Reason())
	}
	if len(diffs) > 0 {
		return failf(pairNoPairing, "%s: %d round(s) differ from the engine's pairing", q.input, len(diffs))
	}
	return nil
}

func generateEvent(q pairRequest, stderr io.Writer) (*trf.Event, error) {
	var c pairfile.Config
	if q.config != "" {
		f, err := os.Open(q.config)
		if err != nil {
			return nil, failf(pairFile, "%v", err)
		}
		defer f.Close()
		if c, err = pairfile.ReadConfig(f); err != nil {
			return nil, engineFail(q.config, err)
		}
	}
	if !q.seedGiven {
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, err
		}
		q.seed = binary.LittleEndian.Uint64(b[:])
		fmt.Fprintf(stderr, "arbiter pair: seed %d (give -s %d to make the same event again)\n", q.seed, q.seed)
	}
	c.System = q.system
	ev, err := pairfile.Generate(c, q.seed)
	if err != nil {
		return nil, engineFail("generating", err)
	}
	var b bytes.Buffer
	if err := trf.Write(&b, ev); err != nil {
		return nil, err
	}
	if err := writePairFile(q.output, b.Bytes()); err != nil {
		return nil, err
	}
	q.input = q.output
	return ev, nil
}

func writeList(q pairRequest, ev *trf.Event) error {
	path := q.list
	if path == "" {
		base := q.input
		if q.generate {
			base = q.output
		}
		path = strings.TrimSuffix(base, filepath.Ext(base)) + ".list"
	}
	var b bytes.Buffer
	if err := pairfile.Checklist(&b, ev); err != nil {
		return engineFail(q.input, err)
	}
	return writePairFile(path, b.Bytes())
}
