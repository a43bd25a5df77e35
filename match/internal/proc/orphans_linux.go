package proc

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Every engine carries ARBITER_ENGINE=<arbiter pid>:<its start time>:<seq>
// in its environment, and so do its descendants, whatever they do to
// their process group or session (setsid): the kernel's process table in
// /proc then names every process an engine made, and only those. An
// unprivileged arbiter needs nothing else (no cgroup, no subreaper).
const markerVar = "ARBITER_ENGINE"

// self identifies this arbiter: its pid and its start time, so that a
// reused pid is not taken for it. It is read when an engine first starts,
// not at every start of the program (most of its commands start none).
var self = sync.OnceValue(func() string { return strconv.Itoa(os.Getpid()) + ":" + startTime(os.Getpid()) })

func sysProcAttr() *syscall.SysProcAttr {
	// Its own process group (a kill reaches the engine's children), and
	// SIGKILL when the arbiter dies (see spawn for the thread it is tied to).
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// marker is the environment entry of engine seq.
func marker(seq uint64) string { return fmt.Sprintf("%s=%s:%d", markerVar, self(), seq) }

// startTime is field 22 of /proc/pid/stat ("" when pid is gone).
func startTime(pid int) string {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	i := bytes.LastIndexByte(stat, ')') // the command name may hold spaces
	if i < 0 {
		return ""
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 20 {
		return ""
	}
	return f[19]
}

// marked calls f for every process readable here that carries a marker,
// with the marker's value.
//
// It runs at every engine's stop, and reads the environment of every
// process on the machine: a desktop has hundreds. Each is read with bare
// read(2) calls into a buffer kept for the scan (os.ReadFile would stat
// the file, read it in growing steps and allocate every time: four times
// the CPU, 30 µs a process against 8 on the project's machine with 366
// processes).
func marked(f func(pid int, value string)) {
	entries, _ := os.ReadDir("/proc")
	key := []byte(markerVar + "=")
	buf := make([]byte, 32<<10)
	path := make([]byte, 0, 32)
	me := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == me {
			continue
		}
		path = append(append(append(path[:0], "/proc/"...), e.Name()...), "/environ"...)
		var env []byte
		env, buf = readEnviron(string(path), buf)
		if env == nil {
			continue // another user's process, or gone
		}
		for kv := range bytes.SplitSeq(env, []byte{0}) {
			if v, ok := bytes.CutPrefix(kv, key); ok {
				f(pid, string(v))
				break
			}
		}
	}
}

// readEnviron reads the environ file at path into buf, grown if the
// environment is larger, and returns its contents (nil if it cannot be
// read) and the buffer to use next.
func readEnviron(path string, buf []byte) (env, next []byte) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, buf
	}
	defer syscall.Close(fd)
	n := 0
	for {
		m, err := syscall.Read(fd, buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, buf
		}
		if m == 0 {
			return buf[:n], buf
		}
		n += m
		if n == len(buf) {
			buf = append(buf, make([]byte, len(buf))...)
		}
	}
}

// killMarked kills every process of the engines seqs that is still alive:
// the children that left their engine's process group. One scan serves
// them all (see HoldScans).
func killMarked(seqs []uint64) {
	want := make(map[string]bool, len(seqs))
	for _, seq := range seqs {
		want[self()+":"+strconv.FormatUint(seq, 10)] = true
	}
	var pids []int
	marked(func(pid int, v string) {
		if want[v] {
			pids = append(pids, pid)
		}
	})
	killAll(pids)
}

// sweepDead kills the engines of arbiters that are gone (killed with -9,
// or by the kernel out of memory): the parent-death signal reaches an
// engine, not the children it detached. Without this a resumed event
// could play a DXP engine still listening from the last run.
func sweepDead() {
	var pids []int
	marked(func(pid int, v string) {
		parts := strings.Split(v, ":")
		if len(parts) != 3 {
			return
		}
		ppid, err := strconv.Atoi(parts[0])
		if err != nil || parts[0]+":"+parts[1] == self() {
			return
		}
		if st := startTime(ppid); st != "" && st == parts[1] {
			return // that arbiter is alive: its engines are its own business
		}
		pids = append(pids, pid)
	})
	killAll(pids)
}

// killAll sends SIGKILL to pids and waits a moment for them to go.
func killAll(pids []int) {
	for _, pid := range pids {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	deadline := time.Now().Add(time.Second)
	for _, pid := range pids {
		for alive(pid) && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// alive reports whether pid exists and is not a zombie.
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}
