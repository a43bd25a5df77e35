package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Every command's --help is short and points on (issue 27): a synopsis of
// at most 15 lines naming its guide (an existing docs/*.md file), and at
// least two examples, each of which names this command and parses: the
// words find the command, its flags are the command's own (with values of
// their type) and its arguments are as many as the command takes. The long
// explanations live in the guides.
func TestHelpSynopsesExamples(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	guide := regexp.MustCompile(`docs/[a-z0-9-]+\.md`)
	var all []*cobra.Command
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.Name() == "help" || sub.Name() == "completion" || sub.Hidden {
				continue
			}
			all = append(all, sub)
			walk(sub)
		}
	}
	walk(newRoot())
	if len(all) < 15 {
		t.Fatalf("%d commands; the CLI has at least 15 (with egdb's three)", len(all))
	}
	for _, c := range all {
		path := c.CommandPath()
		t.Run(strings.TrimPrefix(path, "arbiter "), func(t *testing.T) {
			if n := strings.Count(strings.TrimSpace(c.Long), "\n") + 1; n > 15 {
				t.Errorf("%s: Long is %d lines; a synopsis is at most 15, the rest goes to the guide", path, n)
			}
			names := guide.FindAllString(c.Long, -1)
			if len(names) == 0 {
				t.Errorf("%s: Long names no guide (docs/....md):\n%s", path, c.Long)
			}
			for _, g := range names {
				if _, err := os.Stat(filepath.Join(root, g)); err != nil {
					t.Errorf("%s: Long names %s: %v", path, g, err)
				}
			}
			examples := 0
			for _, line := range strings.Split(c.Example, "\n") {
				line = strings.TrimSpace(line)
				if line == "" {
					continue
				}
				if !strings.HasPrefix(line, path+" ") && line != path {
					t.Errorf("%s: example %q does not run this command", path, line)
					continue
				}
				examples++
				checkExample(t, c, line)
			}
			if examples < 2 {
				t.Errorf("%s: %d examples, want at least 2", path, examples)
			}
		})
	}
}

// checkExample parses one example line against a fresh command tree: the
// words must find cmd, the flags parse, the arguments fit its Args.
func checkExample(t *testing.T, cmd *cobra.Command, line string) {
	t.Helper()
	words := shellWords(t, line)[1:]
	root := newRoot()
	found, rest, err := root.Find(words)
	within := found.CommandPath() == cmd.CommandPath() ||
		(!cmd.Runnable() && found.Parent() != nil && found.Parent().CommandPath() == cmd.CommandPath())
	if err != nil || !within {
		t.Errorf("example %q finds %v (%v), not %s", line, found.CommandPath(), err, cmd.CommandPath())
		return
	}
	if found.DisableFlagParsing {
		// pair parses its own arguments, as bbpPairings does.
		if found.Name() != "pair" {
			t.Fatalf("%s parses its own flags: teach this test its parser", found.CommandPath())
		}
		if _, err := parsePairArgs(rest); err != nil {
			t.Errorf("example %q: %v", line, err)
		}
		return
	}
	if err := found.ParseFlags(rest); err != nil {
		t.Errorf("example %q: %v", line, err)
		return
	}
	if err := found.ValidateArgs(found.Flags().Args()); err != nil {
		t.Errorf("example %q: %v", line, err)
	}
}

// The binary prints the help as the tests read it: the synopsis, the
// guide's name and the examples, for a command with cobra's flags and for
// pair with its own.
func TestHelpShowsExamples(t *testing.T) {
	for _, args := range [][]string{{"match", "--help"}, {"egdb", "probe", "--help"}, {"pair", "-h"}} {
		out, err := exec.Command(arbiterBin, args...).CombinedOutput()
		s := string(out)
		if err != nil || !strings.Contains(s, "Guide: docs/") || !strings.Contains(s, "Examples:\n  arbiter "+args[0]) {
			t.Errorf("arbiter %s: %v\n%s", strings.Join(args, " "), err, s)
		}
	}
}

// Every picture the README and the guides show exists, is a PNG and is
// small (issue 27: made by `make doc-shots`, at most 160 KB each).
func TestDocsPictures(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append(files, filepath.Join(root, "README.md"))
	image := regexp.MustCompile(`!\[[^\]]+\]\(([^)]+\.png)\)`)
	seen := 0
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range image.FindAllStringSubmatch(string(text), -1) {
			seen++
			p := filepath.Join(filepath.Dir(f), m[1])
			data, err := os.ReadFile(p)
			switch {
			case err != nil:
				t.Errorf("%s shows %s: %v", filepath.Base(f), m[1], err)
			case !strings.HasPrefix(string(data), "\x89PNG"):
				t.Errorf("%s shows %s: not a PNG", filepath.Base(f), m[1])
			case len(data) > 160<<10:
				t.Errorf("%s shows %s: %d KB, over 160 KB", filepath.Base(f), m[1], len(data)>>10)
			}
		}
	}
	if seen < 6 {
		t.Errorf("README.md and docs/ show %d pictures; want the game page and a report in the README, the director's page, the live view and the game page in the guides", seen)
	}
}

// The README is the front door (issue 27): short; its serve synopsis names
// both databases; its table of guides lists every guide in docs/; its
// command list gives every command one line.
func TestReadmeShape(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(text)
	if n := strings.Count(s, "\n"); n > 160 {
		t.Errorf("README.md is %d lines; the front door is about 150 at most, the rest goes to docs/", n)
	}
	if !regexp.MustCompile(`(?m)^    arbiter serve \[.*--db FILE.*--events-db FILE`).MatchString(s) {
		t.Error("README.md's serve synopsis does not name --db and --events-db")
	}
	guides, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	for _, g := range guides {
		row := "| [docs/" + filepath.Base(g) + "](docs/" + filepath.Base(g) + ") |"
		if !strings.Contains(s, row) {
			t.Errorf("README.md's table of guides has no row for docs/%s", filepath.Base(g))
		}
	}
	i := strings.Index(s, "\n## Commands\n")
	if i < 0 {
		t.Fatal(`README.md: no "## Commands" section`)
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(s[i:], "\n") {
		if f := strings.Fields(line); strings.HasPrefix(line, "    arbiter ") && len(f) > 1 {
			listed[f[1]] = true
		}
	}
	for _, c := range newRoot().Commands() {
		if c.Name() != "help" && c.Name() != "completion" && !c.Hidden && !listed[c.Name()] {
			t.Errorf("README.md's command list has no line for `arbiter %s`", c.Name())
		}
	}
}

// Wrong arguments, as a newcomer types them, say what the command takes:
// its usage line and an example, where cobra said only "accepts 1 arg(s),
// received 0" or `unknown command "x" for "arbiter serve"`.
func TestArgumentErrorsSayWhatToWrite(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"report"}, []string{"arbiter: report: accepts 1 arg(s), received 0 (usage: arbiter report DIR", "e.g. arbiter report out/demo)"}},
		{[]string{"serve", "8080"}, []string{`arbiter: serve: takes no arguments (got "8080") (usage: arbiter serve [--addr 127.0.0.1:8080]`}},
		{[]string{"egdb", "build", "english"}, []string{`egdb build: takes no arguments (got "english")`, "--variant V --pieces N", "e.g. arbiter egdb build --variant english --pieces 4"}},
		{[]string{"cb-host"}, []string{"cb-host: accepts 1 arg(s), received 0 (usage: arbiter cb-host LIB"}},
	} {
		_, stderr, code := runArbiter(t, dir, tt.args...)
		if code != exitUsage {
			t.Errorf("arbiter %v: exit %d, want %d\n%s", tt.args, code, exitUsage, stderr)
		}
		for _, w := range tt.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("arbiter %v: stderr lacks %q:\n%s", tt.args, w, stderr)
			}
		}
	}
}

// A mistyped flag, as docs/cluster.md's reader types it, names the flag
// meant and where the flags are listed; pflag said only "unknown flag:
// --engine".
func TestFlagTyposSayWhatToWrite(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"worker", "--nats", "nats://127.0.0.1:4222", "--engine", "event.yaml"}, `arbiter: worker: unknown flag --engine: did you mean --engines? ("arbiter worker --help" lists its flags)`},
		{[]string{"tournament", "-c", "event.yaml", "--nat", "embedded"}, `arbiter: tournament: unknown flag --nat: did you mean --nats? ("arbiter tournament --help" lists its flags)`},
		{[]string{"nats-server", "--lisen", "127.0.0.1:4222"}, `arbiter: nats-server: unknown flag --lisen: did you mean --listen?`},
		{[]string{"serve", "--wach", "out/demo"}, `arbiter: serve: unknown flag --wach: did you mean --watch?`},
		{[]string{"match", "--frobnicate"}, `arbiter: match: unknown flag --frobnicate ("arbiter match --help" lists its flags)`},
		{[]string{"worker", "--concurrency", "two"}, `invalid argument "two" for "--concurrency" flag`},
	} {
		_, stderr, code := runArbiter(t, dir, tt.args...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("arbiter %v: exit %d, stderr %q; want exit %d and %q", tt.args, code, stderr, exitUsage, tt.want)
		}
	}
}

// A flag that overrides a config key states the key's default where users
// look (--help): "override config key concurrency (default 1)".
func TestOverrideFlagsStateDefaults(t *testing.T) {
	root := newRoot()
	for _, name := range []string{"match", "tournament"} {
		cmd, _, err := root.Find([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		for flag, want := range map[string]string{"concurrency": "(default 1)", "games-per-encounter": "(default 2)", "variant": "(default english)",
			"openings-order": "(default sequential)", "margin": "(default 100ms)"} {
			f := cmd.Flags().Lookup(flag)
			if f == nil || !strings.HasSuffix(f.Usage, want) {
				t.Errorf("%s --%s: usage %q, want it to end %q", name, flag, f.Usage, want)
			}
		}
		if f := cmd.Flags().Lookup("name"); f == nil || strings.Contains(f.Usage, "(default") {
			t.Errorf("%s --name: a key without a default states one", name)
		}
	}
}
