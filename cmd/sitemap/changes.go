package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/store"
)

// The changes between runs of -state (issue 32): -changes prints only
// what changed, -no-resume starts afresh after a run cut short, and the
// state file's records are appended once what came before them is
// written to standard output and flushed.

func changeFlags(fs *flag.FlagSet, o *options) {
	fs.BoolVar(&o.changes, "changes", false, "with -state, print only what changed since the last complete run, one a line:\n+ URL new, ~ URL lastmod moved, - URL gone (jsonl: the \"change\" field, csv: the change column)")
	fs.BoolVar(&o.noResume, "no-resume", false, "with -state, start a full run even when the last one was cut short\n(by default the sitemaps it wrote out whole are not read again)")
}

// changeMarks are the marks of -changes in text output.
var changeMarks = map[sitemap.Change]string{sitemap.ChangeNew: "+ ", sitemap.ChangeLastMod: "~ ", sitemap.ChangeGone: "- "}

// flushingStore is the state file of -state, whose records are put once
// the output is flushed: a record tells the next run that the URLs of its
// sitemap were handed on, which for the command means written out.
type flushingStore struct {
	*store.File
	flush func() error
}

// Put flushes the output, then puts the record.
func (f *flushingStore) Put(ctx context.Context, key string, r sitemap.Record) error {
	if err := f.flush(); err != nil {
		return fmt.Errorf("write the output: %w", err)
	}
	return f.File.Put(ctx, key, r)
}

// changeSummary writes the counts of the changes, after the summary.
func (c *command) changeSummary(s *sitemap.S) {
	docs := s.GetDocuments()
	if len(docs) == 0 || docs[0].Changes == nil {
		return
	}
	n := docs[0].Changes
	fmt.Fprintf(c.stderr, "URLs: %d new, %d changed, %d gone, %d unchanged, %d unknown\n", n.New, n.LastMod, n.Gone, n.Unchanged, n.Unknown)
}

// flushBeforePut makes the state file of s put its records once the URLs
// before them are written out by uw.
func (c *command) flushBeforePut(s *sitemap.S, uw *urlWriter) {
	fs, ok := s.GetStore().(*store.File)
	if !ok {
		return
	}
	s.SetStore(&flushingStore{fs, func() error {
		return c.con.locked(func() error {
			if err := uw.flush(); err != nil {
				return err
			}
			return c.con.stdout.Flush()
		})
	}})
}
