// Package progsum is the SHA-256 of an engine's program file, which an
// event records as the engine's identity (a resumed event says when an
// engine was rebuilt in between). A large program is hashed once per
// process and, while its file stays as it was (the same inode, size,
// modification and change times), not again in later runs: its sum is
// remembered in the user's cache directory. Hashing the arbiter binary
// itself, the sparring engines' program (50 MB), was the largest part of
// starting a match.
//
// Imported by the engines' event runner (match/engines/tournament).
package progsum

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// cachedFrom is the size from which a sum is kept: a smaller file (a
// script) hashes at once, and a rewrite of it within the file system's
// clock tick could fool a cache.
const cachedFrom = 1 << 20

// Sum is the hex SHA-256 of the file at path, "" when it cannot be read.
func Sum(path string) string { return sumWith(path, userCache()) }

// sumWith is Sum remembering sums in d (nil: in this process only).
func sumWith(path string, d *diskCache) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs // the cache's lines name files wherever the run was
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return ""
	}
	if fi.Size() < cachedFrom {
		return hash(f)
	}
	// The engines are checked in parallel: the first one hashes, the
	// others wait for its sum.
	key, ok := keyOf(path, fi)
	if !ok {
		return hash(f)
	}
	v, _ := sums.LoadOrStore(key, &entry{})
	e := v.(*entry)
	e.once.Do(func() {
		if e.sum = d.lookup(key); e.sum != "" {
			return
		}
		start := time.Now()
		if e.sum = hash(f); e.sum != "" && settled(key, start) {
			d.remember(key, e.sum)
		}
	})
	return e.sum
}

// hash reads f whole.
func hash(f *os.File) string {
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// key is a file as Sum found it: what a change of its contents changes.
type key struct {
	path             string
	ino, size        uint64
	mtimeNs, ctimeNs int64 // ctimeNs -1: not known (see keyOf)
}

// settle is how long before a hash a file must have last changed for its
// sum to be remembered. A file system stamps a change with a coarse clock
// (a tick of the kernel, 10 ms at most): a file changed in the same tick
// as the hash began could change again without new times, so a file that
// changed just before is hashed again next time (git's "racy" entries,
// the same reasoning). A file system that keeps whole seconds only (FAT,
// some network file systems) needs two.
var settle = 100 * time.Millisecond // a variable for the tests

// coarseSettle is settle where the times are whole seconds.
const coarseSettle = 2 * time.Second

func settled(k key, hashed time.Time) bool {
	if k.ctimeNs < 0 {
		return false
	}
	need := settle
	if k.mtimeNs%1e9 == 0 && k.ctimeNs%1e9 == 0 {
		need = max(need, coarseSettle)
	}
	last := time.Unix(0, max(k.mtimeNs, k.ctimeNs))
	return hashed.Sub(last) >= need
}

// entry is one file's sum, computed once per process.
type entry struct {
	once sync.Once
	sum  string
}

// sums are the sums of this process (*entry), by key.
var sums sync.Map
