package main

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gositemap/sitemap/internal/testsite"
)

// Two runs of the command with one state file at once: the second does
// not take the first, still going, for a run cut short and resume it (it
// would leave out every sitemap the first has written out); it stops with
// an error naming the file, and the first ends as if alone.
func TestStateFileTwoRunsAtOnce(t *testing.T) {
	cs := testsite.New(t, 20, 5)
	state := filepath.Join(t.TempDir(), "state")
	root := cs.URL + "/index.xml"
	reached, release := make(chan struct{}), make(chan struct{})
	cs.Change(func() {
		cs.Gate[10] = func(http.ResponseWriter) {
			select {
			case <-reached:
				return // the second run
			default:
			}
			close(reached)
			<-release
		}
	})
	done := make(chan result)
	go func() { done <- runCLI(t, "", "-state", state, "-sequential", root) }()
	<-reached
	second := runCLI(t, "", "-state", state, "-sequential", root)
	close(release)
	first := <-done
	if first.code != exitOK || len(lines(first.stdout)) != 100 {
		t.Errorf("first run: exit %d, %d lines; stderr %s", first.code, len(lines(first.stdout)), first.stderr)
	}
	if n := len(lines(second.stdout)); n != 100 && (second.code == exitOK || !strings.Contains(second.stderr, state)) {
		t.Errorf("second run at once: exit %d, %d lines, stderr %s; want every URL, or an error naming the file", second.code, n, second.stderr)
	}
	t.Logf("second run: exit %d, %d lines, stderr %s", second.code, len(lines(second.stdout)), second.stderr)
}
