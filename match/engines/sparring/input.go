package sparring

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"time"
)

// maxLine bounds one line of the GUI's input; a longer one ends the input
// with errLongLine (no Hub command comes near it: a "pos" of a full 10x10
// board with a long move list is a few kilobytes).
const maxLine = 1 << 20

var errLongLine = errors.New("sparring: an input line longer than 1 MiB")

// lineSource is where the Hub front ends read the GUI's lines, on the
// goroutine that answers them.
type lineSource interface {
	// next returns the next line (without its line end), waiting for it;
	// io.EOF at the end of the input.
	next() (string, error)
	// ready reports whether next would return at once, waiting up to
	// wait for that (0: only looks).
	ready(wait time.Duration) bool
}

// newLineSource reads in directly when it can (a pipe or a socket on
// Linux: see fdLines), else through a goroutine.
func newLineSource(in io.Reader) lineSource {
	if src, ok := directSource(in); ok {
		return src
	}
	return newChanLines(in)
}

// ReadsDirectly reports whether ServeHub and ServeHub1 read in on the
// goroutine that answers, without a goroutine of their own: the engine
// then needs one processor (its search is single-threaded), and a command
// costs it no wake-up of a second thread. This is how a GUI or the
// arbiter starts it on Linux: its standard input a pipe.
func ReadsDirectly(in io.Reader) bool {
	_, ok := directSource(in)
	return ok
}

// chanLines is the portable lineSource: a goroutine reads the lines into
// a channel.
type chanLines struct {
	lines  chan string
	err    error // after lines is closed: why
	peeked *string
}

func newChanLines(in io.Reader) *chanLines {
	c := &chanLines{lines: make(chan string, 16)}
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 4096), maxLine)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		c.err = sc.Err()
		if errors.Is(c.err, bufio.ErrTooLong) {
			c.err = errLongLine
		}
	}()
	return c
}

func (c *chanLines) next() (string, error) {
	if c.peeked != nil {
		l := *c.peeked
		c.peeked = nil
		return l, nil
	}
	l, ok := <-c.lines
	if !ok {
		if c.err != nil {
			return "", c.err
		}
		return "", io.EOF
	}
	return l, nil
}

func (c *chanLines) ready(wait time.Duration) bool {
	if c.peeked != nil {
		return true
	}
	var l string
	var ok bool
	if wait <= 0 {
		select {
		case l, ok = <-c.lines:
		default:
			return false
		}
	} else {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case l, ok = <-c.lines:
		case <-t.C:
			return false
		}
	}
	if !ok {
		return true // next returns the end at once
	}
	c.peeked = &l
	return true
}

// hubInput is what the Hub front ends read: the GUI's lines, with "ping"
// answered and "stop" taken wherever they come. A search polls it
// (interrupted), so that both work while it runs: a ping is answered at
// once, a stop ends the search, and any other line waits for the search
// to end.
type hubInput struct {
	src   lineSource
	w     *lineWriter
	later []string // lines that came during a search
	stop  bool     // a stop came during the current search
}

func newHubInput(in io.Reader, w *lineWriter) *hubInput {
	return &hubInput{src: newLineSource(in), w: w}
}

// next returns the next command for the front end's loop. A ping is
// answered here; a stop outside a search is stale (the search it was for
// has ended) and dropped.
func (r *hubInput) next() (string, error) {
	for {
		var line string
		if len(r.later) > 0 {
			line, r.later = r.later[0], r.later[1:]
		} else {
			var err error
			if line, err = r.src.next(); err != nil {
				return "", err
			}
		}
		switch strings.TrimSpace(line) {
		case "ping":
			if err := r.w.println("pong"); err != nil {
				return "", err
			}
			continue
		case "stop":
			continue
		}
		return line, nil
	}
}

// startSearch forgets the stop of an earlier search.
func (r *hubInput) startSearch() { r.stop = false }

// maxLater bounds the lines kept during a search: a GUI that sends more
// before the search ends is left waiting on the pipe (its lines stay
// there, in order), as it would with an engine that reads nothing while it
// thinks, rather than growing the engine's memory without end.
const maxLater = 256

// interrupted reads what has come during a search, waiting up to wait for
// it: a ping is answered, a stop noted, any other line kept for next. It
// reports whether the search has been told to stop (or the input ended:
// then no stop can come, and the search had better end too).
func (r *hubInput) interrupted(wait time.Duration) bool {
	for !r.stop && len(r.later) < maxLater && r.src.ready(wait) {
		wait = 0
		line, err := r.src.next()
		if err != nil {
			r.stop = true // the GUI is gone; next returns the error again
			break
		}
		switch strings.TrimSpace(line) {
		case "ping":
			if r.w.println("pong") != nil {
				r.stop = true
			}
		case "stop":
			r.stop = true
		default:
			r.later = append(r.later, line)
		}
	}
	return r.stop
}
