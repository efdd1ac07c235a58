package store

import (
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
)

// This file is the state file written anew before its time: when Close
// finds more than a third of it put again, and in the background: when the
// first Put after a sync finds more than a third of the journal made of
// lines put again since (a run that puts every record again leaves half),
// the last line of each record is copied to a new file while the call
// goes on appending to the journal; once that is synced, the lines
// appended meanwhile are copied after them and the new file replaces the
// journal. Sync then finds a file of about twice its records, and syncs
// it as it is, instead of writing it anew as the call ends.

// compactLater starts writing the file anew in the background when the
// journal, appended to by this store alone, holds more than a third of
// lines put again. f.mu is held.
func (f *File) compactLater() {
	if f.app == nil || f.known == nil || f.compacting != nil || 2*f.size <= 3*f.live {
		return
	}
	done := make(chan struct{})
	f.compacting = done
	app, at, upTo := f.app, maps.Clone(f.lines), f.size
	go func() {
		defer close(done)
		f.compact(app, at, upTo)
	}()
}

// waitCompaction waits, with f.mu held, until the file written anew in
// the background, if any, replaced the journal or was given up.
func (f *File) waitCompaction() {
	for f.compacting != nil {
		done := f.compacting
		f.mu.Unlock()
		<-done
		f.mu.Lock()
	}
}

// compact writes the lines at (those of the journal app when it was upTo
// bytes long) to a new file, then, under f.mu and the lock of the state,
// the lines the journal gained since, and renames it over the journal,
// which this store then appends to. It gives up, leaving the journal as it
// is, when the journal was written anew or appended to by another process
// meanwhile, and on any error: Sync writes the file anew then.
func (f *File) compact(app *os.File, at map[string]span, upTo int64) {
	var tmp *os.File
	defer func() {
		if tmp != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	from, _, err := openRegular(f.path)
	if err != nil {
		f.endCompaction()
		return
	}
	defer from.Close()
	fi, err1 := from.Stat()
	ai, err2 := app.Stat()
	if err1 != nil || err2 != nil || !os.SameFile(fi, ai) {
		f.endCompaction()
		return
	}
	tmp, size, lines, err := newStateFile(f.path, slices.Sorted(maps.Keys(at)), nil, from, at)
	f.mu.Lock()
	defer f.mu.Unlock()
	defer func() { f.compacting = nil }()
	if err != nil {
		return
	}
	unlock, err := f.lock()
	if err != nil {
		return
	}
	defer unlock()
	if f.app != app || !f.appendedHere() || !f.appendedAlone() {
		return
	}
	tail := f.size - upTo
	if n, err := io.Copy(tmp, io.NewSectionReader(from, upTo, tail)); err != nil || n != tail {
		return
	}
	if tmp.Close() != nil {
		return
	}
	if os.Rename(tmp.Name(), f.path) != nil {
		return
	}
	tmp = nil
	f.bg.Wait() // a sync of the journal replaced
	f.app.Close()
	f.app, err = os.OpenFile(f.path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		f.app, f.known = nil, nil // the next Put opens it, the next Sync reads it again
		return
	}
	// The lines of at are where the new file put them; those appended
	// since follow them.
	for key, sp := range f.lines {
		if sp.off >= upTo {
			sp.off += size - upTo
		} else {
			sp = lines[key]
		}
		f.lines[key] = sp
	}
	f.size, f.synced = size+tail, size
	f.known, _ = os.Stat(f.path)
}

// endCompaction notes that the file written anew in the background was
// given up before it began.
func (f *File) endCompaction() {
	f.mu.Lock()
	f.compacting = nil
	f.mu.Unlock()
}

// compactNow writes the file anew from the lines of the journal, under the
// lock of the state, when this store alone appended to it since it was
// read or written whole. f.mu is held.
func (f *File) compactNow() error {
	unlock, err := f.lock()
	if err != nil {
		return fmt.Errorf("state file %s: %w", f.path, err)
	}
	defer unlock()
	if !f.appendedHere() || !f.appendedAlone() {
		return nil
	}
	return f.writeFromMemory()
}
