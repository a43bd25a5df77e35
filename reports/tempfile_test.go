package reports

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/internal/filelock"
)

// killedWriterEnv makes TestKilledWriterHelper, in a child test binary,
// start writing a report file into the directory it names and hang there.
const killedWriterEnv = "REPORTS_TEST_KILLED_WRITER_DIR"

// TestKilledWriterHelper is the child of TestKillNineLeavesNoTempFile.
func TestKilledWriterHelper(t *testing.T) {
	dir := os.Getenv(killedWriterEnv)
	if dir == "" {
		t.Skip("helper process only")
	}
	writeFile(filepath.Join(dir, HTMLFile), func(w io.Writer) error {
		io.WriteString(w, "<!doctype html> half a report")
		if f, ok := w.(interface{ Flush() error }); ok {
			f.Flush()
		}
		os.Stdout.WriteString("writing\n")
		for {
			time.Sleep(time.Hour) // until kill -9 (a bare select{} would be a deadlock)
		}
	})
}

// dotFiles lists dir's hidden files.
func dotFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	return out
}

// A writer killed with SIGKILL in the middle of report.html leaves its
// temporary file; the next WriteAll removes it (and leaves no file of its
// own), and the previous report stays whole until then.
func TestKillNineLeavesNoTempFile(t *testing.T) {
	dir := t.TempDir()
	ev := synthEvent(2, 10, 1)
	if err := WriteAll(dir, ev); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, HTMLFile))

	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWriterHelper$")
	cmd.Env = append(os.Environ(), killedWriterEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "writing\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("helper said %q", line)
	}
	if len(dotFiles(t, dir)) != 1 {
		t.Fatalf("while writing: hidden files %v, want the writer's temporary file", dotFiles(t, dir))
	}
	// A live writer's temporary file is not taken for a stale one.
	removeStaleTemps(filepath.Join(dir, HTMLFile))
	if len(dotFiles(t, dir)) != 1 {
		t.Fatalf("the live writer's temporary file was removed")
	}
	cmd.Process.Kill() // SIGKILL on Unix, TerminateProcess on Windows
	cmd.Wait()
	if got, _ := os.ReadFile(filepath.Join(dir, HTMLFile)); string(got) != string(before) {
		t.Error("the killed writer damaged report.html")
	}
	left := dotFiles(t, dir)
	if len(left) != 1 || !isTempOf(left[0], filepath.Join(dir, HTMLFile)) {
		t.Fatalf("after kill -9: hidden files %v, want one stale temporary file", left)
	}

	if err := WriteAll(dir, ev); err != nil {
		t.Fatal(err)
	}
	if left := dotFiles(t, dir); len(left) != 0 {
		t.Errorf("after the next write: hidden files %v, want none", left)
	}
}

// Only files of the temporary name (the file's name, a dot, digits) are
// removed, and only when no writer holds them.
func TestStaleTempsOnly(t *testing.T) {
	dir := t.TempDir()
	names := []string{".report.html.12345", ".games.pdn.7", ".report.html.keep", ".report.html.", "report.html.123", ".results.json.88"}
	want := []string{".report.html.", ".report.html.keep", ".results.json.88", "games.pdn", "report.html", "report.html.123", "results.json"}
	if runtime.GOOS == "windows" {
		// Windows drops a name's trailing dot: ".report.html." cannot be made.
		names = slices.DeleteFunc(names, func(n string) bool { return n == ".report.html." })
		want = want[1:]
	}
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	held, err := openTemp(filepath.Join(dir, ".results.json.88"))
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := filelock.TryLock(held); err != nil {
		t.Fatal(err)
	}
	if err := WriteAll(dir, synthEvent(2, 4, 1)); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if !slices.Equal(got, want) {
		t.Errorf("directory holds %v, want %v", got, want)
	}
}
