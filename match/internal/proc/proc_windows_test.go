package proc

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/windows"
)

// helperEnv makes TestHelperEngine, in a child test binary, act as the
// engine the mode names.
const helperEnv = "PROC_TEST_HELPER"

// helper starts the test binary itself as an engine in mode.
func helper(t *testing.T, mode string) *Process {
	t.Helper()
	p, err := Start([]string{os.Args[0], "-test.run=^TestHelperEngine$"}, "", []string{helperEnv + "=" + mode}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Stop(0) })
	return p
}

// TestHelperEngine is the engine of the tests below: "echo" answers each
// line with itself, "spawn" starts a child of its own ("sleep"), says its
// pid and waits; "orphan" starts a child that holds its stdout, says
// "last" and exits.
func TestHelperEngine(t *testing.T) {
	mode := os.Getenv(helperEnv)
	switch mode {
	case "":
		t.Skip("helper process only")
	case "echo":
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			fmt.Println(sc.Text())
		}
	case "sleep":
		time.Sleep(time.Hour)
	case "spawn", "orphan":
		c := exec.Command(os.Args[0], "-test.run=^TestHelperEngine$")
		c.Env = append(os.Environ(), helperEnv+"=sleep")
		if mode == "orphan" {
			c.Stdout = os.Stdout
		}
		if err := c.Start(); err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		if mode == "orphan" {
			fmt.Println("last")
			os.Exit(0)
		}
		fmt.Println(c.Process.Pid)
		time.Sleep(time.Hour)
	}
	os.Exit(0)
}

func TestWindowsEchoAndDeadline(t *testing.T) {
	p := helper(t, "echo")
	if _, err := p.ReadLine(time.Now().Add(200 * time.Millisecond)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("ReadLine of a silent engine: %v, want a deadline", err)
	}
	for i := range 3 {
		want := "line " + strconv.Itoa(i)
		if err := p.WriteBytes([]byte(want+"\n"), time.Second); err != nil {
			t.Fatal(err)
		}
		if got, err := p.ReadLine(time.Now().Add(10 * time.Second)); err != nil || got != want {
			t.Fatalf("ReadLine = %q, %v; want %q", got, err, want)
		}
	}
	done := make(chan error, 1)
	go func() {
		_, err := p.ReadLine(time.Time{})
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	p.Interrupt()
	select {
	case err := <-done:
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("interrupted ReadLine: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Interrupt did not end the read")
	}
	p.CloseInput()
	select {
	case <-p.Exited():
	case <-time.After(10 * time.Second):
		t.Fatal("the engine did not exit at the end of its input")
	}
}

// Stop ends the engine's child with it: the job holds both.
func TestWindowsStopKillsTheTree(t *testing.T) {
	p := helper(t, "spawn")
	line, err := p.ReadLine(time.Now().Add(20 * time.Second))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(line)
	if err != nil {
		t.Fatalf("the engine said %q", line)
	}
	child, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		t.Fatal(err)
	}
	defer windows.CloseHandle(child)
	p.Stop(0)
	if ev, err := windows.WaitForSingleObject(child, 10000); err != nil || ev != windows.WAIT_OBJECT_0 {
		t.Fatalf("the engine's child lives on after Stop (%d, %v)", ev, err)
	}
}

// The engine's exit ends its output even while its child holds the pipe.
func TestWindowsExitEndsReadWhileChildHoldsStdout(t *testing.T) {
	p := helper(t, "orphan")
	if got, err := p.ReadLine(time.Now().Add(20 * time.Second)); err != nil || got != "last" {
		t.Fatalf("ReadLine = %q, %v", got, err)
	}
	<-p.Exited()
	if _, err := p.ReadLine(time.Now().Add(10 * time.Second)); !errors.Is(err, io.EOF) {
		t.Fatalf("ReadLine after the exit: %v, want io.EOF", err)
	}
}
