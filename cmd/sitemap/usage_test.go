package main

import (
	"strings"
	"testing"
)

// A usage error quotes the user's own argument, which may hold what a
// terminal obeys (an escape sequence pasted by mistake, or written by a
// script): its line on standard error is escaped as every other line is,
// by each subcommand. An unknown flag is named by the flag package as it
// was given.
func TestUsageErrorEscaped(t *testing.T) {
	const flag = "-\x1b]0;owned\x07\x1b[2J"
	const shown = `-\x1b]0;owned\a\x1b[2J`
	for _, name := range []string{"sitemap", "sitemap tree", "sitemap lint", "sitemap report", "sitemap discover"} {
		t.Run(name, func(t *testing.T) {
			args := append(strings.Fields(name)[1:], flag, "https://example.com/")
			r := runCLI(t, "", args...)
			want := name + ": flag provided but not defined: " + shown + "\nRun '" + name + " -h' for usage.\n"
			if name == "sitemap tree" {
				want = "sitemap: flag provided but not defined: " + shown + "\nRun 'sitemap -h' for usage.\n"
			}
			if r.code != exitUsage || r.stderr != want {
				t.Errorf("exit status %d, stderr %q; want 2 and %q", r.code, r.stderr, want)
			}
		})
	}
}
