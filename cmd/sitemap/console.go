package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

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

// errorLine writes a line to standard error.
func (c *console) errorLine(line string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.clearLocked()
	fmt.Fprintln(c.stderr, line)
}

// draw draws the progress line, in place of the one on the screen.
func (c *console) draw(line string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.progress {
		return
	}
	fmt.Fprintf(c.stderr, "\r\x1b[K%s", strings.ReplaceAll(line, "\n", " "))
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
