package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README's quick starts are run as written (issue 27): a shell block
// preceded by the marker
//
//	<!-- docs-test: run expect="text" expect="text" -->
//
// is run against the binary the tests built (bin/arbiter in the text), from
// the repository's root, and must exit 0 and print every expected text.
// A block marked `docs-test: skip (why)` is left to other tests (the engine
// check's timing checks, for one, depend on the machine's load). An output
// directory (`--out DIR`) goes under the test's temporary directory, so the
// test leaves nothing in the tree.

// docBlock is one marked shell block of a Markdown file.
type docBlock struct {
	line    int      // of the marker, for messages
	run     bool     // false: marked skip
	expect  []string // texts the output must contain
	command string   // continuation lines joined
}

var (
	docMarker = regexp.MustCompile(`^<!-- docs-test: (run|skip)\b(.*)-->$`)
	docExpect = regexp.MustCompile(`expect="([^"]*)"`)
)

// docBlocks returns the marked shell blocks of a Markdown text.
func docBlocks(t *testing.T, text string) []docBlock {
	t.Helper()
	lines := strings.Split(text, "\n")
	var blocks []docBlock
	for i := 0; i < len(lines); i++ {
		m := docMarker.FindStringSubmatch(strings.TrimSpace(lines[i]))
		if m == nil {
			continue
		}
		b := docBlock{line: i + 1, run: m[1] == "run"}
		for _, e := range docExpect.FindAllStringSubmatch(m[2], -1) {
			b.expect = append(b.expect, e[1])
		}
		if i+1 >= len(lines) || strings.TrimSpace(lines[i+1]) != "```sh" {
			t.Fatalf("line %d: a docs-test marker must be followed by a ```sh block", i+1)
		}
		var cmd strings.Builder
		j := i + 2
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != "```"; j++ {
			l := strings.TrimSpace(lines[j])
			cmd.WriteString(strings.TrimSuffix(l, `\`))
			if !strings.HasSuffix(l, `\`) {
				cmd.WriteString("\n")
			} else {
				cmd.WriteString(" ")
			}
		}
		if j == len(lines) {
			t.Fatalf("line %d: the ```sh block is not closed", i+1)
		}
		b.command = strings.TrimSpace(cmd.String())
		blocks = append(blocks, b)
		i = j
	}
	return blocks
}

// shellWords splits a command line as a shell would for the simple forms
// the README uses: words separated by blanks, 'single' and "double" quotes.
// Anything else a shell would interpret ($, |, ;, redirections) is refused,
// so that a block the test cannot run as written fails rather than passes.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	var words []string
	var w strings.Builder
	inWord := false
	var quote rune
	for _, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				w.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case strings.ContainsRune("$|;&<>`*?(){}", r):
			t.Fatalf("%q: %q is beyond what the docs test runs; mark the block skip", line, r)
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		t.Fatalf("%q: unclosed quote", line)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}

func TestReadmeQuickStartsRun(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := docBlocks(t, string(text))
	ran := 0
	for _, b := range blocks {
		if !b.run {
			continue
		}
		ran++
		for _, line := range strings.Split(b.command, "\n") {
			words := shellWords(t, line)
			if len(words) == 0 || words[0] != "bin/arbiter" {
				t.Fatalf("README.md:%d: %q: a runnable block runs bin/arbiter", b.line, line)
			}
			args := words[1:]
			for k := 0; k+1 < len(args); k++ {
				if args[k] == "--out" {
					args[k+1] = filepath.Join(t.TempDir(), args[k+1])
				}
			}
			cmd := exec.Command(arbiterBin, args...)
			cmd.Dir = root
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				t.Fatalf("README.md:%d: %s: %v\n%s", b.line, line, err, out.String())
			}
			for _, want := range b.expect {
				if !strings.Contains(out.String(), want) {
					t.Errorf("README.md:%d: %s: the README says it shows %q; it printed:\n%s", b.line, line, want, out.String())
				}
			}
		}
	}
	if ran < 2 {
		t.Errorf("README.md: %d runnable blocks; the quick starts mark at least 2", ran)
	}
}

// Every command of the README's command list exists: its --help exits 0.
// Every guide the README links to exists.
func TestReadmeCommandsAndLinks(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(text)
	i := strings.Index(s, "\n## Commands\n")
	if i < 0 {
		t.Fatal(`README.md: no "## Commands" section`)
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(s[i:], "\n") {
		f := strings.Fields(line)
		if !strings.HasPrefix(line, "    arbiter ") || len(f) < 2 || strings.HasPrefix(f[1], "-") || seen[f[1]] {
			continue
		}
		seen[f[1]] = true
		out, err := exec.Command(arbiterBin, f[1], "--help").CombinedOutput()
		if err != nil || !strings.Contains(string(out), "arbiter "+f[1]) {
			t.Errorf("README.md lists `arbiter %s`: its --help: %v\n%s", f[1], err, out)
		}
	}
	if len(seen) < 10 {
		t.Errorf("README.md's command list names %d commands; want the whole list", len(seen))
	}
	links := regexp.MustCompile(`\]\(((?:docs|configs|rules)/[^)#]+)\)`).FindAllStringSubmatch(s, -1)
	if len(links) == 0 {
		t.Fatal("README.md links to no guide")
	}
	for _, l := range links {
		if _, err := os.Stat(filepath.Join(root, l[1])); err != nil {
			t.Errorf("README.md links to %s: %v", l[1], err)
		}
	}
}
