package sqlitefile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// CheckPath says, before SQLite opens path, what would stop it in words a
// person can act on: a directory, a missing or unwritable directory, a
// FIFO, a device or a socket (not regular files: a FIFO would block the
// start), a file that cannot be written, or one that is not SQLite (a
// foreign or half-written file). A missing file in a writable directory is
// fine: it is created.
func CheckPath(path string) error {
	if path == "" {
		return errors.New("no database file given")
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return checkDir(path)
	}
	if err := checkKind(path); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return fmt.Errorf("%s cannot be written (permission denied); the server writes every move to it", path)
		}
		return fmt.Errorf("%s cannot be opened: %w", path, err)
	}
	head := make([]byte, len(magic))
	n, _ := io.ReadFull(f, head)
	f.Close()
	if n > 0 && (n < len(head) || !bytes.Equal(head, magic)) {
		return fmt.Errorf("%s is not an SQLite database (a foreign or half-written file); refusing to use it", path)
	}
	return checkDir(path)
}

// checkKind refuses a path that exists but is not a regular file (a
// directory, a FIFO, a device, a socket), before anything opens it.
func checkKind(path string) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("%s cannot be read: %w", path, err)
	case st.IsDir():
		return fmt.Errorf("%s is a directory, not a database file; name a file (it is created if missing), e.g. %s",
			path, filepath.Join(path, "arbiter.db"))
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s is %s, not a regular file; the database must be an ordinary file", path, kindOf(st.Mode()))
	}
	return nil
}

// checkDir checks that path's directory exists and takes new files: SQLite
// creates the database and its -wal and -shm files there.
func checkDir(path string) error {
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: the directory %s does not exist; create it first", path, dir)
	case err != nil:
		return fmt.Errorf("%s: the directory %s cannot be read: %w", path, dir, err)
	case !st.IsDir():
		return fmt.Errorf("%s: %s is not a directory", path, dir)
	}
	f, err := os.CreateTemp(dir, ".arbiter-write-check-*")
	if err != nil {
		return fmt.Errorf("%s: the directory %s is not writable (%v); the database and its -wal and -shm journals are created there",
			path, dir, errors.Unwrap(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "a special file (" + m.String() + ")"
}
