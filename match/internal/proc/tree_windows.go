package proc

import (
	"errors"
	"fmt"
	"os/exec"
	"sync"
	"unsafe"

	"golang.org/x/sys/windows"
)

// tree is what Kill reaches beyond the engine itself: on Windows a job
// object of its own, which holds the engine and every process started
// from it (children of job members join the job; the job does not allow
// breaking away).
//
// Covered: the engine's descendants, however deep and whether or not
// their parent has exited, die at Kill or Stop (TerminateJobObject) and,
// through JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE, when the arbiter dies in
// any way, kill included, since the kernel then closes its handle of the
// job (what the parent-death signal and sweepDead do on Linux). A crash
// of an engine ends its process instead of waiting on the error dialog
// (JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION), so that it is reported
// as a crash, not a hang.
//
// Not covered: a process the engine has another service start for it
// (the Task Scheduler, WMI, a COM server: none of them is its child), and
// a process already in a job that allows breaking away.
type tree struct {
	job      windows.Handle
	closeJob func() // once: a second Stop must not close a reused handle
}

// attach puts the started, still suspended, cmd into a new job and lets
// it run. On an error the caller kills the process: it has not run yet.
func (t *tree) attach(cmd *exec.Cmd) error {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return fmt.Errorf("job object: %w", err)
	}
	t.job = job
	t.closeJob = sync.OnceFunc(func() { windows.CloseHandle(job) })
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{
			LimitFlags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | windows.JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION,
		},
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		t.closeJob()
		return fmt.Errorf("job object limits: %w", err)
	}
	pid := uint32(cmd.Process.Pid)
	// The pid cannot name another process yet: the os.Process holds a
	// handle of the engine until it is waited for.
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, pid)
	if err != nil {
		t.closeJob()
		return fmt.Errorf("open the engine's process: %w", err)
	}
	err = windows.AssignProcessToJobObject(job, h)
	windows.CloseHandle(h)
	if err != nil {
		t.closeJob()
		return fmt.Errorf("put the engine in its job: %w", err)
	}
	if err := resume(pid); err != nil {
		t.kill()
		t.closeJob()
		return fmt.Errorf("resume the engine: %w", err)
	}
	return nil
}

// resume lets the threads of the suspended process pid run: a process
// started suspended has one, its main thread, whose handle exec closed.
func resume(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(snap)
	te := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return err
		}
		_, err = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if err != nil {
			return err
		}
		resumed++
	}
	if !errors.Is(err, windows.ERROR_NO_MORE_FILES) {
		return err
	}
	if resumed == 0 {
		return errors.New("no thread of the process found")
	}
	return nil
}

// kill terminates every process of the job.
func (t *tree) kill() {
	if t.job != 0 {
		windows.TerminateJobObject(t.job, 1)
	}
}

// close releases the job (whatever is left in it dies: KILL_ON_JOB_CLOSE).
func (t *tree) close() {
	if t.closeJob != nil {
		t.closeJob()
	}
}
