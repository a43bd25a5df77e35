package progsum

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// diskCache is the sums remembered across runs: the file "checksums" in a
// directory, a line per program file, "ino size mtime-ns ctime-ns sum
// path". It is only ever a shortcut: a file it cannot read or write, or a
// line it cannot parse, costs a hash, never a wrong sum (a line is used
// only when the file's every field still matches).
type diskCache struct {
	file string

	mu     sync.Mutex
	loaded bool
	sums   map[key]string
	order  []key // oldest first
}

// maxRemembered bounds the file: the oldest lines go first.
const maxRemembered = 256

// maxRead bounds what load reads of the file.
const maxRead = 1 << 20

var (
	userOnce sync.Once
	user     *diskCache
)

// userCache is the cache in the user's cache directory (os.UserCacheDir:
// $XDG_CACHE_HOME, or ~/.cache, on Linux), nil when there is none.
func userCache() *diskCache {
	userOnce.Do(func() {
		if dir, err := os.UserCacheDir(); err == nil {
			user = &diskCache{file: filepath.Join(dir, "arbiter", "checksums")}
		}
	})
	return user
}

func (d *diskCache) lookup(k key) string {
	if d == nil {
		return ""
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.load()
	return d.sums[k]
}

// load reads the file once.
func (d *diskCache) load() {
	if d.loaded {
		return
	}
	d.loaded, d.sums, d.order = true, map[key]string{}, nil
	f, err := os.Open(d.file)
	if err != nil {
		return
	}
	defer f.Close()
	// The file holds maxRemembered short lines: more than maxRead is not
	// what remember wrote, and is not read past.
	sc := bufio.NewScanner(io.LimitReader(f, maxRead))
	for sc.Scan() {
		if k, sum, ok := parseLine(sc.Text()); ok {
			d.add(k, sum)
		}
	}
}

func (d *diskCache) add(k key, sum string) {
	if _, ok := d.sums[k]; !ok {
		d.order = append(d.order, k)
	}
	d.sums[k] = sum
	for len(d.order) > maxRemembered {
		delete(d.sums, d.order[0])
		d.order = d.order[1:]
	}
}

// remember adds k's sum and writes the file again (a new file renamed
// over the old one: a reader sees the old lines or the new ones).
func (d *diskCache) remember(k key, sum string) {
	if d == nil || k.ctimeNs < 0 || strings.ContainsAny(k.path, "\n\r") {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.loaded = false // read again: another run may have added lines since
	d.load()
	d.add(k, sum)
	var b bytes.Buffer
	for _, k := range d.order {
		fmt.Fprintf(&b, "%d %d %d %d %s %s\n", k.ino, k.size, k.mtimeNs, k.ctimeNs, d.sums[k], k.path)
	}
	if err := os.MkdirAll(filepath.Dir(d.file), 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(d.file), ".checksums-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b.Bytes())
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), d.file) != nil {
		os.Remove(tmp.Name())
	}
}

// parseLine reads one line of the file.
func parseLine(line string) (key, string, bool) {
	f := strings.SplitN(line, " ", 6)
	if len(f) != 6 || len(f[4]) != 64 || f[5] == "" {
		return key{}, "", false
	}
	var k key
	var err [4]error
	k.ino, err[0] = strconv.ParseUint(f[0], 10, 64)
	k.size, err[1] = strconv.ParseUint(f[1], 10, 64)
	k.mtimeNs, err[2] = strconv.ParseInt(f[2], 10, 64)
	k.ctimeNs, err[3] = strconv.ParseInt(f[3], 10, 64)
	for _, e := range err {
		if e != nil {
			return key{}, "", false
		}
	}
	if _, e := hex.DecodeString(f[4]); e != nil || k.ctimeNs < 0 {
		return key{}, "", false
	}
	k.path = f[5]
	return k, f[4], true
}
