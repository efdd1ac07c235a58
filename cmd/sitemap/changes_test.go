package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/gositemap/sitemap/internal/testsite"
)

// TestMain runs the test binary as the command when asked to: the resume
// test kills it with SIGKILL.
func TestMain(m *testing.M) {
	if os.Getenv("SITEMAP_TEST_AS_COMMAND") == "1" {
		main()
	}
	os.Exit(m.Run())
}

// marks counts the lines of out by their first two bytes.
func marks(out string) map[string]int {
	n := map[string]int{}
	for _, l := range lines(out) {
		if len(l) >= 2 {
			n[l[:2]]++
		}
	}
	return n
}

// The scenario of issue 32 through the command: sitemap -state FILE
// -changes over a site of an index and 200 sitemaps of 25 URLs, then over
// the site changed (10 added, 5 removed, 20 moved, 7 lastmods moved), then
// with sitemap 9 failing, then with 40% of the URLs gone.
func TestChangesCommand(t *testing.T) {
	cs := testsite.New(t, 200, 25)
	state := filepath.Join(t.TempDir(), "state")
	root := cs.URL + "/index.xml"

	r := runCLI(t, "", "-state", state, "-changes", root)
	if n := marks(r.stdout); r.code != exitOK || n["+ "] != 5000 || len(lines(r.stdout)) != 5000 {
		t.Fatalf("first run: exit %d, %v; stderr %s", r.code, n, r.stderr)
	}
	if !strings.Contains(r.stderr, "URLs: 5000 new, 0 changed, 0 gone, 0 unchanged, 0 unknown") {
		t.Errorf("first run summary: %s", r.stderr)
	}

	cs.Reshape()
	r = runCLI(t, "", "-state", state, "-changes", root)
	n := marks(r.stdout)
	if r.code != exitOK || n["+ "] != 10 || n["~ "] != 7 || n["- "] != 5 || len(lines(r.stdout)) != 22 {
		t.Errorf("second run: exit %d, %v:\n%s", r.code, n, r.stdout)
	}
	if moved := regexp.MustCompile(`/p/2-`).FindString(r.stdout); moved != "" {
		t.Errorf("a URL moved is printed:\n%s", r.stdout)
	}
	if got := cs.NotModified(); got != 196 {
		t.Errorf("%d documents answered 304, want 196", got)
	}
	if !strings.Contains(r.stderr, "URLs: 10 new, 7 changed, 5 gone, 4988 unchanged, 0 unknown") {
		t.Errorf("second run summary: %s", r.stderr)
	}

	cs.Change(func() { cs.Status[9] = http.StatusInternalServerError })
	r = runCLI(t, "", "-state", state, "-changes", "-format", "jsonl", root)
	if r.stdout != "" || !strings.Contains(r.stderr, "0 gone, 4980 unchanged, 25 unknown") {
		t.Errorf("sitemap 9 failing: stdout %q, stderr %s", r.stdout, r.stderr)
	}

	cs.Change(func() {
		delete(cs.Status, 9)
		for i := 100; i < 180; i++ {
			cs.Maps[i] = nil
		}
	})
	r = runCLI(t, "", "-state", state, "-changes", "-format", "csv", root)
	if got := lines(r.stdout); len(got) != 1 || !strings.HasSuffix(got[0], ",change") {
		t.Errorf("40%% gone: stdout %q, want the header alone", r.stdout)
	}
	if want := "2000 of 5005 URLs (40%) gone at once, over the 30% set"; !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "0 gone") {
		t.Errorf("40%% gone: stderr %s, want %q and none gone", r.stderr, want)
	}

	// Everything handed on, with -state alone: jsonl says each change.
	other := filepath.Join(t.TempDir(), "other")
	runCLI(t, "", "-state", other, cs.URL+"/s/0.xml")
	cs.Change(func() {
		cs.Maps[0] = append(cs.Maps[0], testsite.Page{Loc: cs.URL + "/p/one-more", Lastmod: "2026-03-01"})
	})
	r = runCLI(t, "", "-state", other, "-format", "jsonl", cs.URL+"/s/0.xml")
	if n := strings.Count(r.stdout, `"change":"unchanged"`); n != 35 || !strings.Contains(r.stdout, `/p/one-more","lastmod":"2026-03-01T00:00:00Z"`) ||
		strings.Count(r.stdout, `"change":"new"`) != 1 {
		t.Errorf("-state alone, jsonl: %d unchanged, want 35 and one new:\n%s", n, r.stdout)
	}
}

// A first run killed with SIGKILL halfway and started again with the same
// -state: the union of the outputs has every URL, and the only URLs printed
// twice are of the documents being written out when the first run ended.
// Sitemap 100 answers half its URLs and waits; the test kills the command
// once it has seen one of them on the command's standard output.
func TestResumeAfterSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command twice")
	}
	for _, args := range [][]string{{"-sequential"}, {"-sequential", "-changes"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			cs := testsite.New(t, 200, 25)
			release := make(chan struct{})
			t.Cleanup(func() { close(release) })
			var body string
			cs.Change(func() {
				var b strings.Builder
				b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
				for _, p := range cs.Maps[100][:12] {
					fmt.Fprintf(&b, "<url><loc>%s</loc></url>", p.Loc)
				}
				body = b.String()
				cs.Gate[100] = func(w http.ResponseWriter) {
					w.Write([]byte(body))
					w.(http.Flusher).Flush()
					<-release
				}
			})
			state := filepath.Join(t.TempDir(), "state")
			args := append([]string{"-state", state}, args...)
			args = append(args, cs.URL+"/index.xml")

			cmd := exec.Command(os.Args[0], args...)
			cmd.Env = append(os.Environ(), "SITEMAP_TEST_AS_COMMAND=1")
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var first []string
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				first = append(first, sc.Text())
				if strings.Contains(sc.Text(), "/p/100-") {
					break // sitemap 100 is being written out: kill now
				}
			}
			cmd.Process.Signal(syscall.SIGKILL)
			rest, _ := io.ReadAll(out)
			first = append(first, lines(string(rest))...)
			cmd.Wait()

			cs.Change(func() { delete(cs.Gate, 100) })
			second := runCLI(t, "", args...)
			if second.code != exitOK {
				t.Fatalf("second run: exit %d, %s", second.code, second.stderr)
			}
			seen := map[string]int{}
			for _, l := range append(first, lines(second.stdout)...) {
				seen[strings.TrimPrefix(l, "+ ")]++
			}
			var twice []string
			docs := map[string]bool{}
			for _, sm := range cs.Maps {
				for _, p := range sm {
					switch seen[p.Loc] {
					case 0:
						t.Errorf("%s printed by neither run", p.Loc)
					case 1:
					default:
						twice = append(twice, p.Loc)
						docs[regexp.MustCompile(`/p/(\d+)-`).FindStringSubmatch(p.Loc)[1]] = true
					}
				}
			}
			sort.Strings(twice)
			// Sitemap 100 was being written out; the one before it may
			// have been written out and not yet recorded.
			for d := range docs {
				if d != "100" && d != "99" {
					t.Errorf("URLs of sitemap %s printed twice", d)
				}
			}
			t.Logf("first run %d lines, second %d, union %d URLs, %d twice, of sitemaps %v",
				len(first), len(lines(second.stdout)), len(seen), len(twice), docs)
		})
	}
}

// A run with -state that put every record again leaves a file of a line a
// record (the store closed writes it anew, issue 32), so that the next run
// reads its records alone.
func TestStateFileLeftWhole(t *testing.T) {
	cs := testsite.New(t, 20, 25)
	state := filepath.Join(t.TempDir(), "state")
	key := regexp.MustCompile(`^\{"key":"([^"]*)"`)
	for run := range 3 {
		cs.Change(func() {
			for i := range cs.Maps {
				cs.Maps[i][0].Lastmod = fmt.Sprintf("2026-04-%02d", run+1)
			}
		})
		if r := runCLI(t, "", "-state", state, "-changes", cs.URL+"/index.xml"); r.code != exitOK {
			t.Fatalf("run %d: exit %d, %s", run, r.code, r.stderr)
		}
		if run == 0 {
			continue // the record of the run, put as it began and as it ended
		}
		data, err := os.ReadFile(state)
		if err != nil {
			t.Fatal(err)
		}
		keys := map[string]int{}
		for _, l := range lines(string(data))[1:] {
			keys[key.FindStringSubmatch(l)[1]]++
		}
		for k, n := range keys {
			if n > 1 {
				t.Errorf("run %d: the record of %s %d times in the state file", run, k, n)
			}
		}
	}
}
