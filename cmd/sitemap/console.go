package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gositemap/sitemap/internal/printable"
)

// What the command prints of a server's or a document's (a URL, a message
// quoting a status line or a location, a header value) may hold bytes that
// a terminal obeys: an escape sequence that retitles the window, clears the
// screen or colours what follows, a carriage return that overwrites a line,
// a bidirectional override that reorders it. The command writes every line
// of its text output, every CSV field and every line of standard error
// through printable.Escape, which writes those characters as escapes such
// as \x1b and \u202e, and every JSON value through jsonWriter, which
// writes the ones JSON leaves raw as \u escapes.

// flushInterval is how often the URLs written so far are handed on to
// standard output while a run lasts, so that a reader of the output sees
// the URLs of a sitemap soon after it is parsed, while the next ones are
// still being fetched.
const flushInterval = 100 * time.Millisecond

// console is where a run writes: standard output, through a buffer, and
// standard error, with the progress line. Its lock keeps the lines of the
// two from cutting into each other and into the progress line, which is
// cleared before anything else is written to the terminal.
type console struct {
	mu       sync.Mutex
	stdout   *bufio.Writer
	stderr   io.Writer
	progress bool // a progress line is drawn on stderr
	drawn    bool // the progress line is on the screen now
}

func newConsole(stdout, stderr io.Writer, progress bool) *console {
	c := &console{stderr: stderr, progress: progress}
	c.stdout = bufio.NewWriterSize(clearingWriter{c, stdout}, 64<<10)
	return c
}

// clearingWriter is standard output under the buffer: it clears the
// progress line before the buffer writes to the terminal. It is called
// with the console's lock held.
type clearingWriter struct {
	c *console
	w io.Writer
}

func (cw clearingWriter) Write(p []byte) (int, error) {
	cw.c.clearLocked()
	return cw.w.Write(p)
}

// clearLocked clears the progress line if it is drawn.
func (c *console) clearLocked() {
	if c.drawn {
		fmt.Fprint(c.stderr, "\r\x1b[K")
		c.drawn = false
	}
}

// errorLine writes a line to standard error, escaped; a tab stays a tab,
// the separator of the fields of a line, which no terminal acts on beyond
// moving to the next stop.
func (c *console) errorLine(line string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.clearLocked()
	fields := strings.Split(line, "\t")
	for i, f := range fields {
		fields[i] = printable.Escape(f)
	}
	fmt.Fprintln(c.stderr, strings.Join(fields, "\t"))
}

// draw draws the progress line, in place of the one on the screen.
func (c *console) draw(line string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.progress {
		return
	}
	fmt.Fprintf(c.stderr, "\r\x1b[K%s", printable.Escape(line))
	c.drawn = true
}

// locked runs f with the console's lock held: f may write to c.stdout.
func (c *console) locked(f func() error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return f()
}

// ticker calls tick every interval until the function it returns is
// called, which waits for the goroutine to end.
func ticker(interval time.Duration, tick func()) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				tick()
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
	}
}

// jsonWriter is the writer under a JSON encoder of the command: it writes
// DEL, the C1 controls and the bidirectional controls, which encoding/json
// leaves as they are, as \u escapes. The value is the same to a JSON reader;
// a terminal sees no control. They can only be inside a string, where a \u
// escape means the same character: every byte of JSON's own syntax is
// printable ASCII or its white space (the line break after a record, the
// indentation), which is left as it is, as encoding/json escapes every
// control below DEL in a string.
type jsonWriter struct{ w io.Writer }

func (jw jsonWriter) Write(p []byte) (int, error) {
	i := 0
	for i < len(p) && p[i] < 0x7f {
		i++
	}
	if i == len(p) {
		return jw.w.Write(p)
	}
	out := make([]byte, 0, len(p)+16)
	out = append(out, p[:i]...)
	for i < len(p) {
		r, n := utf8.DecodeRune(p[i:])
		if r >= 0x7f && r != utf8.RuneError && printable.IsControl(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, p[i:i+n]...)
		}
		i += n
	}
	if _, err := jw.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
