// Package cb runs CheckerBoard engines: the shared libraries (a DLL on
// Windows) of Kingsrow, Cake and most English and Italian engines, which
// export getmove and enginecommand (Martin Fierz's CheckerBoard API).
//
// The library is loaded by the arbiter binary itself in a child process,
// `arbiter cb-host LIB`, which speaks Hub (version 2) on its standard input
// and output (Serve). The arbiter plays it with its ordinary Hub player, so
// an engine that crashes takes only the host down (a crash, as for any
// engine), and the clocks, stop and ping, faults, logs and orphan handling
// are those of every Hub engine. The host passes the engine's moves through
// as the engine gave them: an illegal move is the referee's business.
//
// The library is loaded with github.com/ebitengine/purego (no cgo): dlopen
// on Unix, LoadLibraryEx on Windows (dl_unix.go, dl_windows.go).
//
// Imported by cmd/arbiter (the cb host) and the engines' runner; it imports
// the game (match), the Hub protocol and the rules.
package cb

import (
	"errors"
	"fmt"
	"sync/atomic"
	"unsafe"

	"github.com/ebitengine/purego"
)

// Piece values of a CheckerBoard board[8][8] and colours of getmove.
const (
	Free  = 0
	White = 1
	Black = 2
	Man   = 4
	King  = 8
)

// getmove's info bits.
const (
	ResetMoves     = 1 // a new game: forget the history
	ExactTime      = 2 // use maxtime exactly (a fixed time per move)
	IncrTimeShift  = 2 // bits 2-3: the unit of moreinfo's clock (0 = no clock)
	maxEngineReply = 1024
)

// getmove's results.
const (
	Draw    = 0
	Win     = 1
	Loss    = 2
	Unknown = 3
)

// Game types of enginecommand "get gametype".
const (
	GTEnglish   = 21
	GTItalian   = 22
	GTSpanish   = 24
	GTRussian   = 25
	GTBrazilian = 26
	GTCzech     = 29
)

// Coor is a square of board[8][8]: board[X][Y].
type Coor struct{ X, Y int32 }

// Move is the CheckerBoard struct CBmove.
type Move struct {
	Jumps    int32 // pieces captured
	NewPiece int32 // the piece that lands on To
	OldPiece int32 // the piece that leaves From
	From, To Coor
	Path     [12]Coor // the squares jumped to, from Path[1]
	Del      [12]Coor // the captured pieces' squares
	DelPiece [12]int32
}

// Board is getmove's board: Board[x][y].
type Board [8][8]int32

// Lib is a loaded CheckerBoard engine library.
type Lib struct {
	handle   uintptr
	getmove  func(b *Board, color int32, maxtime float64, str *byte, playnow *int32, info, moreinfo int32, m *Move) int32
	command  func(cmd *byte, reply *byte) int32
	hasCmd   bool
	playnow  atomic.Int32 // getmove's *playnow: set by Stop from another goroutine
	str      [1024]byte
	reply    [maxEngineReply]byte
	cmdBuf   [256]byte
	Path     string
	GameType int
}

// Load opens the library at path and finds getmove (required) and
// enginecommand (optional: without it the engine is taken for an English
// one with its file name as its name).
func Load(path string) (*Lib, error) {
	path, _ = LibraryFile(".", path)
	h, err := openLibrary(path)
	if err != nil {
		return nil, fmt.Errorf("cb: loading %s: %w", path, err)
	}
	l := &Lib{handle: h, Path: path, GameType: GTEnglish}
	sym, err := librarySymbol(h, "getmove")
	if err != nil {
		closeLibrary(h)
		return nil, fmt.Errorf("cb: %s has no getmove: it is not a CheckerBoard engine: %w", path, err)
	}
	purego.RegisterFunc(&l.getmove, sym)
	if sym, err := librarySymbol(h, "enginecommand"); err == nil {
		purego.RegisterFunc(&l.command, sym)
		l.hasCmd = true
	}
	return l, nil
}

// ErrNoCommand: the library exports no enginecommand.
var ErrNoCommand = errors.New("cb: the engine has no enginecommand")

// Command sends an enginecommand and returns the engine's reply and whether
// it knew the command (the function's result).
func (l *Lib) Command(cmd string) (string, bool, error) {
	if !l.hasCmd {
		return "", false, ErrNoCommand
	}
	if len(cmd) >= len(l.cmdBuf) {
		return "", false, fmt.Errorf("cb: enginecommand %q: longer than %d bytes", cmd, len(l.cmdBuf)-1)
	}
	n := copy(l.cmdBuf[:], cmd)
	l.cmdBuf[n] = 0
	clear(l.reply[:])
	ok := l.command(&l.cmdBuf[0], &l.reply[0])
	return cString(l.reply[:]), ok != 0, nil
}

// GetMove calls getmove: b is the position (changed by the engine into the
// position after its move), color the side to move. It returns the
// engine's result, its move struct and its status text. A PlayNow since
// the last ResetPlayNow stops it at once.
func (l *Lib) GetMove(b *Board, color int32, maxtime float64, info, moreinfo int32) (int32, Move, string) {
	var m Move
	clear(l.str[:])
	res := l.getmove(b, color, maxtime, &l.str[0], (*int32)(unsafe.Pointer(&l.playnow)), info, moreinfo, &m)
	return res, m, cString(l.str[:])
}

// PlayNow asks a running getmove to move at once (CheckerBoard's *playnow).
func (l *Lib) PlayNow() { l.playnow.Store(1) }

// ResetPlayNow clears PlayNow before a search is started.
func (l *Lib) ResetPlayNow() { l.playnow.Store(0) }

// cString is the text of a NUL-terminated buffer.
func cString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}
