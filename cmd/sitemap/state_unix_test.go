//go:build unix

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue 31, bug 3: sitemap -state on a named pipe that no one writes hung
// in open(2), and Ctrl-C did not end it. It now stops at once with exit 2
// and an error naming the file, before any request.
func TestHostileStateFlagFIFO(t *testing.T) {
	srv, bodies, _ := etagServer(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "state.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(fifo, link); err != nil {
		t.Skip(err)
	}
	for _, args := range [][]string{
		{"-state", fifo, srv.URL + "/index.xml"},
		{"-state", fifo, "-state-reset", srv.URL + "/index.xml"},
		{"-state", link, srv.URL + "/index.xml"},
		{"-state", dir, srv.URL + "/index.xml"},
	} {
		path := args[1]
		done := make(chan result, 1)
		go func() { done <- runCLI(t, "", args...) }()
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		var r result
		select {
		case r = <-done:
		case <-ctx.Done():
			// Release the reader stuck in open(2), then fail.
			if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
			<-done
			cancel()
			t.Fatalf("%q: the command blocked", args)
		}
		cancel()
		if r.code != 2 || !strings.Contains(r.stderr, path) || !strings.Contains(r.stderr, "not a regular file") || r.stdout != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and an error naming the file", args, r.code, r.stdout, r.stderr)
		}
	}
	if n := bodies.Load(); n != 0 {
		t.Errorf("%d documents fetched, want none", n)
	}
}

// A sibling: a local index that lists a named pipe in its directory hung
// the command in open(2), as -state did. The pipe is refused as no regular
// file, and the rest of the index is read.
func TestHostileLocalChildFIFO(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"index.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
			<sitemap><loc>pipe.xml</loc></sitemap>
			<sitemap><loc>ok.xml</loc></sitemap>
		</sitemapindex>`,
		"ok.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/ok</loc></url></urlset>`,
	})
	pipe := filepath.Join(dir, "pipe.xml")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skip(err)
	}
	done := make(chan result, 1)
	go func() { done <- runCLI(t, "", "-sequential", filepath.Join(dir, "index.xml")) }()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		if w, err := os.OpenFile(pipe, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		<-done
		t.Fatal("the command blocked on the pipe")
	}
	if r.code != 0 || r.stdout != "https://example.com/ok\n" || !strings.Contains(r.stderr, pipe) || !strings.Contains(r.stderr, "not a regular file") {
		t.Errorf("exit %d, stdout %q, stderr %q; want the URL of ok.xml and an error naming the pipe", r.code, r.stdout, r.stderr)
	}
}
