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

// The README's quick starts and the guides' examples (docs/*.md) are run as
// written (issue 27): a shell block
// preceded by the marker
//
//	<!-- docs-test: run expect="text" expect="text" -->
//
// is run against the binary the tests built (bin/arbiter in the text), from
// the repository's root, and must exit 0 and print every expected text.
// A block marked `docs-test: skip (why)` is left to other tests (the engine
// check's timing checks, for one, depend on the machine's load); one marked
// `docs-test: browser TestName` needs a browser or a peer and is followed
// by that test (which must exist). The expected texts are looked for in the
// output of the whole block. Output directories (`--out DIR`, `--dir DIR`)
// go under a temporary directory of the file's, the same for every block of
// it, so the test leaves nothing in the tree.

// docBlock is one marked shell block of a Markdown file.
type docBlock struct {
	line    int      // of the marker, for messages
	run     bool     // false: marked skip or browser
	browser string   // marked browser: the test that follows it
	expect  []string // texts the output must contain
	command string   // continuation lines joined
}

var (
	docMarker = regexp.MustCompile(`^<!-- docs-test: (run|skip|browser)\b(.*)-->$`)
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
		if m[1] == "browser" {
			b.browser = strings.TrimSpace(m[2])
		}
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
	guides, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, file := range append([]string{filepath.Join(root, "README.md")}, guides...) {
		ran += runDocBlocks(t, root, file)
	}
	if ran < 3 {
		t.Errorf("README.md and docs/: %d runnable blocks; the quick starts and the guides mark at least 3", ran)
	}
}

// runDocBlocks runs the runnable blocks of one Markdown file and returns
// how many it ran.
func runDocBlocks(t *testing.T, root, file string) int {
	t.Helper()
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	name, _ := filepath.Rel(root, file)
	ran := 0
	tmp := t.TempDir()
	for _, b := range docBlocks(t, string(text)) {
		if b.browser != "" {
			checkTestExists(t, root, name, b)
		}
		if !b.run {
			continue
		}
		ran++
		var all strings.Builder
		for _, line := range strings.Split(b.command, "\n") {
			words := shellWords(t, line)
			if len(words) == 0 || words[0] != "bin/arbiter" {
				t.Fatalf("%s:%d: %q: a runnable block runs bin/arbiter", name, b.line, line)
			}
			args := words[1:]
			for k := 0; k+1 < len(args); k++ {
				if args[k] == "--out" || args[k] == "--dir" {
					args[k+1] = filepath.Join(tmp, args[k+1])
				}
			}
			cmd := exec.Command(arbiterBin, args...)
			cmd.Dir = root
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				t.Fatalf("%s:%d: %s: %v\n%s", name, b.line, line, err, out.String())
			}
			all.WriteString(out.String())
		}
		for _, want := range b.expect {
			if !strings.Contains(all.String(), want) {
				t.Errorf("%s:%d: the text says the block shows %q; it printed:\n%s", name, b.line, want, all.String())
			}
		}
	}
	return ran
}

// checkTestExists fails unless the test a block marked browser names is a
// test function of the repository.
func checkTestExists(t *testing.T, root, name string, b docBlock) {
	t.Helper()
	if !regexp.MustCompile(`^Test[A-Za-z0-9_]+$`).MatchString(b.browser) {
		t.Errorf("%s:%d: docs-test: browser %q: name the test that follows the block", name, b.line, b.browser)
		return
	}
	files, _ := filepath.Glob(filepath.Join(root, "cmd", "arbiter", "*_test.go"))
	more, _ := filepath.Glob(filepath.Join(root, "match", "web", "*_test.go"))
	for _, f := range append(files, more...) {
		src, err := os.ReadFile(f)
		if err == nil && strings.Contains(string(src), "\nfunc "+b.browser+"(t *testing.T)") {
			return
		}
	}
	t.Errorf("%s:%d: docs-test: browser %s: no such test in cmd/arbiter or match/web", name, b.line, b.browser)
}

// Every command a reader is told to run is accounted for: a line of a code
// block of README.md or docs/*.md that runs `bin/arbiter`, `arbiter` or
// `make` is in a block marked run, skip (why) or browser TestName, unless
// it is a synopsis (a placeholder such as FILE, a [...] option or a | choice
// outside quotes) or a line of a command list (a trailing # comment).
func TestDocsCommandsMarked(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append([]string{filepath.Join(root, "README.md")}, files...)
	command := regexp.MustCompile(`^(bin/arbiter|arbiter|make)( |$)`)
	quoted := regexp.MustCompile(`"[^"]*"|'[^']*'`)
	synopsis := regexp.MustCompile(`\b[A-Z][A-Z0-9_]+\b|\[|\||\.\.\.`)
	checked := 0
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(root, f)
		lines := strings.Split(string(text), "\n")
		fence, marked := false, false
		for i, l := range lines {
			s := strings.TrimSpace(l)
			if strings.HasPrefix(s, "```") {
				if !fence {
					marked = i > 0 && docMarker.MatchString(strings.TrimSpace(lines[i-1]))
				}
				fence = !fence
				continue
			}
			if !fence && !strings.HasPrefix(l, "    ") || !command.MatchString(s) {
				continue
			}
			if strings.Contains(s, " # ") || synopsis.MatchString(quoted.ReplaceAllString(s, "")) {
				continue
			}
			checked++
			if fence && strings.HasPrefix(s, "arbiter ") {
				// The reader has the binary make build wrote, not one on
				// the PATH: "arbiter egdb build" was "command not found".
				t.Errorf("%s:%d: %q: write bin/arbiter, the binary make build writes (README)", name, i+1, s)
			}
			if !fence || !marked {
				t.Errorf("%s:%d: %q is told to run but no docs-test marker says who runs it (run, skip (why), browser TestName)", name, i+1, s)
			}
		}
	}
	if checked < 5 {
		t.Errorf("%d commands found in README.md and docs/; the parser misses them", checked)
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
