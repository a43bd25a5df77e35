package progsum

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// program writes a file of n bytes (a large one is cached) and returns
// its path and real sum.
func program(t *testing.T, dir string, n int, fill byte) (string, string) {
	t.Helper()
	data := []byte(strings.Repeat(string(fill), n))
	path := filepath.Join(dir, "engine")
	if err := os.WriteFile(path, data, 0o755); err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(data)
	return path, hex.EncodeToString(s[:])
}

func TestSum(t *testing.T) {
	for _, n := range []int{0, 100, cachedFrom - 1, cachedFrom, 3 * cachedFrom} {
		path, want := program(t, t.TempDir(), n, 'x')
		if got := sumWith(path, nil); got != want {
			t.Errorf("%d bytes: %s, want %s", n, got, want)
		}
	}
	if got := Sum(filepath.Join(t.TempDir(), "none")); got != "" {
		t.Errorf("a missing file: %q, want none", got)
	}
}

// A large program's sum is remembered on disk and used by a later run
// (here: a new cache over the same file, as a new process would read it),
// for as long as the file is unchanged; a changed file is hashed again.
func TestRememberedAcrossRuns(t *testing.T) {
	defer func(d time.Duration) { settle = d }(settle)
	settle = 0
	dir, cacheDir := t.TempDir(), t.TempDir()
	path, want := program(t, dir, 2*cachedFrom, 'a')
	first := &diskCache{file: filepath.Join(cacheDir, "checksums")}
	if got := sumWith(path, first); got != want {
		t.Fatalf("first run: %s, want %s", got, want)
	}
	data, err := os.ReadFile(first.file)
	if err != nil || !strings.Contains(string(data), want+" "+path+"\n") {
		t.Fatalf("the cache file holds %q, %v; want the sum and the path", data, err)
	}
	// A later run takes the line as it stands: a line with another sum
	// for the very same file proves that it was read, not hashed.
	fake := strings.Repeat("0", 64)
	if err := os.WriteFile(first.file, []byte(strings.Replace(string(data), want, fake, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	sums.Clear() // a new process
	if got := sumWith(path, &diskCache{file: first.file}); got != fake {
		t.Errorf("second run: %s, want the remembered %s", got, fake)
	}
	// Rewritten (same size, same name): hashed again.
	sums.Clear()
	path, want = program(t, dir, 2*cachedFrom, 'b')
	if got := sumWith(path, &diskCache{file: first.file}); got != want {
		t.Errorf("after a rebuild: %s, want %s", got, want)
	}
}

// A file that changed just before its hash is not remembered (its next
// change could keep the same times).
func TestRecentFileNotRemembered(t *testing.T) {
	defer func(d time.Duration) { settle = d }(settle)
	settle = time.Hour // "just before", however slow the machine
	cache := &diskCache{file: filepath.Join(t.TempDir(), "checksums")}
	path, want := program(t, t.TempDir(), cachedFrom, 'c')
	if got := sumWith(path, cache); got != want {
		t.Fatalf("%s, want %s", got, want)
	}
	if _, err := os.Stat(cache.file); !os.IsNotExist(err) {
		t.Errorf("a file written a moment ago was remembered (%v)", err)
	}
}

// Lines that are not the cache's own are skipped, and the file keeps at
// most maxRemembered of them.
func TestSettled(t *testing.T) {
	now := time.Now()
	ns := func(d time.Duration) int64 { return now.Add(-d).UnixNano() }
	for _, c := range []struct {
		k    key
		want bool
	}{
		{key{mtimeNs: ns(time.Hour), ctimeNs: ns(time.Hour) + 1}, true},
		{key{mtimeNs: ns(time.Hour), ctimeNs: ns(10 * time.Millisecond)}, false}, // changed just now (chmod, a rename)
		{key{mtimeNs: ns(10 * time.Millisecond), ctimeNs: ns(time.Hour)}, false},
		{key{mtimeNs: ns(time.Hour), ctimeNs: -1}, false},                                 // no change time known
		{key{mtimeNs: 1_700_000_000e9, ctimeNs: 1_700_000_000e9}, true},                   // whole seconds, long ago
		{key{mtimeNs: now.Unix()*1e9 - 1e9, ctimeNs: now.Unix()*1e9 - 1e9}, false},        // whole seconds, a second ago
		{key{mtimeNs: now.Unix()*1e9 - 1e9 + 1, ctimeNs: now.Unix()*1e9 - 1e9 + 1}, true}, // fine times, a second ago
	} {
		if got := settled(c.k, now); got != c.want {
			t.Errorf("%+v: settled = %v, want %v", c.k, got, c.want)
		}
	}
}

func TestCacheFileLines(t *testing.T) {
	good := "12 2097152 1700000000000000000 1700000000000000001 " + strings.Repeat("ab", 32) + " /opt/engines/kingsrow x"
	for _, line := range []string{"", "garbage", "1 2 3 4 zz /p", "1 2 3 -1 " + strings.Repeat("ab", 32) + " /p",
		strings.Replace(good, "ab", "g", 1), "x" + good} {
		if _, _, ok := parseLine(line); ok {
			t.Errorf("%q parsed", line)
		}
	}
	k, sum, ok := parseLine(good)
	if !ok || k.path != "/opt/engines/kingsrow x" || k.ino != 12 || k.ctimeNs != 1700000000000000001 || sum != strings.Repeat("ab", 32) {
		t.Errorf("%q: %+v %s %v", good, k, sum, ok)
	}
	// A line of its own, then megabytes that are not: the line is read,
	// the rest is not read past.
	junk := &diskCache{file: filepath.Join(t.TempDir(), "checksums")}
	if err := os.WriteFile(junk.file, []byte(good+"\n"+strings.Repeat("x", 3*maxRead)), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := junk.lookup(k); got != sum {
		t.Errorf("a file of junk after a good line: lookup %q, want %q", got, sum)
	}
	d := &diskCache{file: filepath.Join(t.TempDir(), "checksums")}
	for i := range maxRemembered + 10 {
		d.remember(key{path: "/p", ino: uint64(i)}, strings.Repeat("cd", 32))
	}
	data, _ := os.ReadFile(d.file)
	if n := strings.Count(string(data), "\n"); n != maxRemembered || !strings.HasPrefix(string(data), "10 ") {
		t.Errorf("%d lines, starting %.20q; want %d, the oldest dropped", n, data, maxRemembered)
	}
}

// FuzzParseLine: whatever the cache file holds, a line is read whole or
// not at all, and a line read is written back the same.
func FuzzParseLine(f *testing.F) {
	f.Add("12 2097152 1700000000000000000 1700000000000000001 " + strings.Repeat("ab", 32) + " /opt/e")
	f.Add("1 2 3 4 5 6")
	f.Fuzz(func(t *testing.T, line string) {
		k, sum, ok := parseLine(line)
		if !ok {
			return
		}
		if len(sum) != 64 || k.path == "" || k.ctimeNs < 0 {
			t.Fatalf("%q read as %+v %q", line, k, sum)
		}
		again := fmt.Sprintf("%d %d %d %d %s %s", k.ino, k.size, k.mtimeNs, k.ctimeNs, sum, k.path)
		if k2, sum2, ok := parseLine(again); !ok || k2 != k || sum2 != sum {
			t.Fatalf("%q read as %+v, written as %q, read back as %+v %v", line, k, again, k2, ok)
		}
	})
}
