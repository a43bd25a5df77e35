package reports

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/windows"
)

// The temporary files' primitives on Windows (see writeFile). The lock
// (internal/filelock) is LockFileEx's exclusive lock of the whole file,
// which Windows, like flock on Unix, drops when the process that holds it
// dies, however it dies. Windows adds a rule of its own: a file open without
// FILE_SHARE_DELETE can be neither renamed nor removed. So the writer's
// and the cleaner's handles both share deletion: the writer renames its
// file while it still holds it (as on Unix), and the cleaner removes a
// stale file under its own lock.

// shareAll lets other handles read, write, rename and remove the file.
const shareAll = windows.FILE_SHARE_READ | windows.FILE_SHARE_WRITE | windows.FILE_SHARE_DELETE

// createTemp is os.CreateTemp (a new file named by pattern with digits
// for its last "*"), opened so that it can be renamed while open.
func createTemp(dir, pattern string) (*os.File, error) {
	prefix, suffix := pattern, ""
	if i := strings.LastIndexByte(pattern, '*'); i >= 0 {
		prefix, suffix = pattern[:i], pattern[i+1:]
	}
	for range 10000 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10)+suffix)
		p, err := windows.UTF16PtrFromString(name)
		if err != nil {
			return nil, &os.PathError{Op: "createtemp", Path: name, Err: err}
		}
		h, err := windows.CreateFile(p, windows.GENERIC_READ|windows.GENERIC_WRITE, shareAll, nil,
			windows.CREATE_NEW, windows.FILE_ATTRIBUTE_NORMAL, 0)
		if errors.Is(err, windows.ERROR_FILE_EXISTS) {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "createtemp", Path: name, Err: err}
		}
		return os.NewFile(uintptr(h), name), nil
	}
	return nil, &os.PathError{Op: "createtemp", Path: filepath.Join(dir, pattern), Err: os.ErrExist}
}

// openTemp opens a temporary file that may be stale, to try its lock,
// sharing deletion so that the file can be removed under the lock.
func openTemp(name string) (*os.File, error) {
	p, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	h, err := windows.CreateFile(p, windows.GENERIC_READ, shareAll, nil, windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	return os.NewFile(uintptr(h), name), nil
}

// replaceFile is os.Rename, waiting a moment for a reader of newpath: a
// file open without FILE_SHARE_DELETE (a browser's or a web server's read
// of the old report, a virus scanner's) cannot be replaced until it is
// closed, where Unix replaces it under the reader.
func replaceFile(oldpath, newpath string) error {
	wait := 10 * time.Millisecond
	for deadline := time.Now().Add(3 * time.Second); ; wait *= 2 {
		err := os.Rename(oldpath, newpath)
		if err == nil || !(errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_SHARING_VIOLATION)) ||
			time.Now().Add(wait).After(deadline) {
			return err
		}
		time.Sleep(wait)
	}
}
