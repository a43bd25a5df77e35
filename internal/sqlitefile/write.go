package sqlitefile

import "errors"

// SQLite's primary result codes that mean the file cannot be written now
// (https://sqlite.org/rescode.html): the extended codes carry them in
// their low byte.
const (
	codeReadOnly = 8  // SQLITE_READONLY
	codeIOErr    = 10 // SQLITE_IOERR
	codeFull     = 13 // SQLITE_FULL
)

// CannotWrite says whether err is the disk refusing a write (full, a file
// size limit, read-only, an I/O error) rather than a bug, and names it in
// a few words for a person: "disk full". Such a write may work later; the
// stores answer it as "the server cannot save", not as an internal error.
func CannotWrite(err error) (reason string, ok bool) {
	if err == nil {
		return "", false
	}
	if reason, ok := systemCannotWrite(err); ok {
		return reason, true
	}
	var coded interface{ Code() int }
	if errors.As(err, &coded) {
		switch coded.Code() & 0xff {
		case codeFull:
			return "disk full", true
		case codeReadOnly:
			return "the database is read-only", true
		case codeIOErr:
			return "disk I/O error", true
		}
	}
	return "", false
}
