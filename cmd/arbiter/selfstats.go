package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strings"
	"time"
)

// cpuProfileEnv names a file for a CPU profile of the whole process
// (pprof), for the profiling of the end-to-end benchmark; PATH.allocs is
// the allocations' profile.
const cpuProfileEnv = "ARBITER_CPU_PROFILE"

// startCPUProfile starts the profile cpuProfileEnv asks for and returns
// its stop.
func startCPUProfile() func() {
	path := os.Getenv(cpuProfileEnv)
	if path == "" || len(os.Args) > 1 && os.Args[1] == "engine" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
		if m, err := os.Create(path + ".allocs"); err == nil {
			pprof.Lookup("allocs").WriteTo(m, 0)
			m.Close()
		}
	}
}

// selfStatsEnv names a file to which the process appends, as it exits,
// what it cost itself: CPU (user, system), context switches (voluntary,
// involuntary), its read and write system calls, its minor page faults,
// and the Go allocations and collections. The end-to-end benchmark (match's
// BenchmarkMatchEndToEnd) reads it: the process's own figures, without
// its engines', which getrusage of a waited child would add in.
const selfStatsEnv = "ARBITER_SELF_STATS"

// usage is what the process cost itself, as writeSelfStats reports it
// (ownUsage: getrusage on Unix, GetProcessTimes on Windows).
type usage struct {
	user, sys             time.Duration
	nvcsw, nivcsw, minflt int64 // context switches (voluntary, involuntary), minor faults
}

// writeSelfStats writes the line selfStatsEnv asks for, if it does.
func writeSelfStats() {
	path := os.Getenv(selfStatsEnv)
	if path == "" {
		return
	}
	ru, ok := ownUsage()
	if !ok {
		return
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	syscr, syscw := ownIO()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	cmd := "-"
	if len(os.Args) > 1 {
		cmd = os.Args[1]
	}
	fmt.Fprintf(f, "cmd=%s user_ns=%d sys_ns=%d nvcsw=%d nivcsw=%d syscr=%d syscw=%d mallocs=%d num_gc=%d total_alloc=%d minflt=%d gc_cpu_ns=%d procs=%d\n",
		cmd, ru.user.Nanoseconds(), ru.sys.Nanoseconds(), ru.nvcsw, ru.nivcsw, syscr, syscw, ms.Mallocs, ms.NumGC, ms.TotalAlloc, ru.minflt, gcCPU().Nanoseconds(), runtime.GOMAXPROCS(0))
}

// gcCPU is the runtime's own estimate of the CPU its collector took
// (runtime/metrics: the mark workers, assists and pauses, counted as
// GOMAXPROCS times their wall time). Unlike getrusage's figures it hardly
// moves with the machine's load, which makes the collector's share of a
// run comparable between runs on a shared machine.
func gcCPU() time.Duration {
	s := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64 {
		return 0
	}
	return time.Duration(s[0].Value.Float64() * float64(time.Second))
}

// ownIO is the read and write system calls of this process's threads.
// /proc/self/io would add those of every child already reaped (Linux
// adds a waited-for child's I/O accounting to its parent's), which for
// a match are its engines': each thread's /proc/self/task/TID/io is
// summed instead. A thread that has exited is missed; Go keeps its
// threads.
func ownIO() (syscr, syscw int64) {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return 0, 0
	}
	for _, t := range tasks {
		data, err := os.ReadFile("/proc/self/task/" + t.Name() + "/io")
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(data), "\n") {
			var n int64
			if _, err := fmt.Sscanf(l, "syscr: %d", &n); err == nil {
				syscr += n
			}
			if _, err := fmt.Sscanf(l, "syscw: %d", &n); err == nil {
				syscw += n
			}
		}
	}
	return syscr, syscw
}
