package store

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gositemap/sitemap"
)

// stateFormat names the format of a state file, so that a file of some
// other program is told apart from one of this package: a journal of
// JSON lines, the first the header ({"format":"gositemap-state/2"}), each
// other a record. stateFormatV1, one JSON object of every record, is the
// format of the state files written before change detection: it is read,
// and written anew as a journal at the first Put.
const (
	stateFormat   = "gositemap-state/2"
	stateFormatV1 = "gositemap-state/1"
)

// journalLine is one record of a journal: the header line has Format set
// and no Key.
type journalLine struct {
	Format string          `json:"format,omitempty"`
	Key    string          `json:"key,omitempty"`
	Record *sitemap.Record `json:"record,omitempty"`
}

// MaxFileSize is the largest state file, in bytes, that [OpenFile] reads
// and [File.Sync] writes: 256 MiB, room for records of millions of
// sitemaps. A larger file is refused, never read into memory.
const MaxFileSize = 256 << 20

// stateFile is the content of a state file of stateFormatV1.
type stateFile struct {
	Format  string                    `json:"format"`
	Records map[string]sitemap.Record `json:"records"`
}

// File is a [sitemap.Store] in a file of JSON lines: the store of the
// command's -state flag. It reads the file when opened and holds the
// records in memory. Each record put is appended to the file at once, one
// line written by one write(2), so that a process killed (SIGKILL
// included) loses none of the records it put: a run that resumes finds
// them. The appends are not synced to the disk one by one (a sync per
// document would cost more than reading it), but in the background every
// few megabytes: when the machine itself is lost, the records appended
// since the last sync may be lost with it, and their documents are read
// again. A line cut in the middle of its write is left out when the file
// is read, with nothing after it; and a store whose append failed (a disk
// full in the middle of a line) appends nothing more after it: its next
// Put or Sync writes the file anew, that record with the others.
//
// The file holds every line appended since it was last written whole, and
// is written anew, one line per record, once more than half of it is of
// records put again: by Sync (a call syncs the store when it ends), or
// once more than a third of it is: by Close, and in the background by the
// first Put after a sync (a run that puts every record again), so that the
// file stays under about twice the size of its records. It is written to a
// temporary file in the same directory, which is synced and renamed over
// the file, so a crash mid-write leaves the last good state. Two processes that sync one file do not corrupt it: on Unix
// a sync holds an exclusive flock on the file path+".lock", reads the file
// again, lays its own records over what it finds and writes the result, so
// that records put by the other process are kept; elsewhere the writes are
// atomic but not locked, and the last sync wins. (The records a process
// appends after another one has written the file anew go to the file the
// rename replaced, until that process syncs.) It is safe for concurrent
// use.
type File struct {
	path string
	mem  *Memory

	mu      sync.Mutex
	dirty   map[string]sitemap.Record // put since the last sync
	app     *os.File                  // the journal, opened for appends at the first Put
	journal bool                      // the file is of stateFormat, no line cut: Put may append to it
	size    int64                     // its size, appends included
	lines   map[string]span           // the last line of each key in it
	live    int64                     // the size of the header and of those lines
	known   os.FileInfo               // the file as last read or written whole, nil when none

	// The appends are synced in the background as they pile up (Put):
	// synced is the size of the file when the last of those syncs began.
	synced   int64
	bg       sync.WaitGroup
	bgSyncs  atomic.Bool // a sync in the background has not returned
	bgFailed bool        // one failed: the next Sync writes the file anew

	// The file written anew in the background (compact.go): putSince
	// is set by the first Put after a sync, compacting is closed when the
	// file written anew replaced the journal or was given up.
	putSince   bool
	compacting chan struct{}

	held func() // releases the lock of a store opened Exclusive, nil for another
}

// bgSyncEvery is how many bytes appended to the journal since the last
// sync start one in the background.
const bgSyncEvery = 4 << 20

// FileOptions are the options of [OpenFile]. A nil *FileOptions is the
// zero value.
type FileOptions struct {
	// DiscardCorrupt, when true, opens a state file that is corrupt or of
	// another program as an empty store, which the next sync writes anew,
	// instead of failing with [ErrCorrupt].
	DiscardCorrupt bool
	// Exclusive, when true, holds the file for this store alone until
	// Close (on Unix, an flock on path+".lock"): OpenFile fails with
	// [ErrInUse] while another store holds it so, and the syncs of a
	// store that does not wait for its Close. It is the option of the
	// command, whose run takes a state file whose last run is still going
	// for one cut short, and would resume it. Elsewhere than on Unix it
	// does nothing.
	Exclusive bool
}

// ErrInUse is wrapped by the error of [OpenFile] for a state file that
// another store opened with [FileOptions.Exclusive] holds.
var ErrInUse = errors.New("in use by another run")

// ErrCorrupt is wrapped by the error of [OpenFile] for a state file that
// is not one this package wrote, or that it cannot make sense of.
var ErrCorrupt = errors.New("store: state file cannot be read")

// OpenFile opens the state file at path: it reads its records, or starts
// empty when there is no file yet. A file that is not a state file of this
// package (corrupt, or of another program) is an error naming the file and
// wrapping [ErrCorrupt], unless o.DiscardCorrupt is true: then the store
// starts empty and the next sync writes the file anew. A path that is not a
// regular file (a directory, a named pipe, a device, or a symbolic link to
// one of them) is an error naming the file whatever o says, found without
// waiting for a writer or reading a byte; so is a file larger than
// [MaxFileSize], and a directory where the file cannot be written.
func OpenFile(path string, o *FileOptions) (*File, error) {
	if o == nil {
		o = &FileOptions{}
	}
	var held func()
	if o.Exclusive {
		unlock, err := lockState(path+".lock", false)
		if err != nil {
			return nil, fmt.Errorf("state file %s: %w", path, err)
		}
		held = unlock
	}
	f, err := openFile(path, o)
	if err != nil {
		if held != nil {
			held()
		}
		return nil, err
	}
	if held != nil {
		removeLeftTemps(path)
	}
	f.held = held
	return f, nil
}

// removeLeftTemps removes the temporary files of the state file at path
// that a process killed while it wrote the file anew left behind (as large
// as the file, one a kill). It is called with the file held (Exclusive),
// where the hold is one across processes (locksAcross): no store of this
// package writes one then but one that does not wait for the hold, which
// gives up the file it was writing when it is gone.
func removeLeftTemps(path string) {
	if !locksAcross {
		return
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		// os.CreateTemp's name: base, a dot, random digits, ".tmp".
		mid, ok := strings.CutPrefix(e.Name(), base+".")
		mid, ok2 := strings.CutSuffix(mid, ".tmp")
		if ok && ok2 && mid != "" && strings.Trim(mid, "0123456789") == "" && e.Type().IsRegular() {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// openFile is OpenFile, once the file is held when o.Exclusive.
func openFile(path string, o *FileOptions) (*File, error) {
	records, info, err := readStateFile(path)
	if err != nil && !(o.DiscardCorrupt && errors.Is(err, ErrCorrupt)) {
		return nil, err
	}
	f := &File{path: path, mem: NewMemory(), dirty: map[string]sitemap.Record{}, lines: map[string]span{}}
	if err == nil {
		f.mem.records = records
		f.journal, f.size, f.known = info.journal, info.size, info.fi
		f.lines, f.live, f.synced = info.lines, info.live, info.size
	}
	// The file can be written: a store that cannot be is told now, not at
	// the end of a call.
	if err := f.checkWritable(); err != nil {
		return nil, err
	}
	return f, nil
}

// Path returns the path of the state file.
func (f *File) Path() string { return f.path }

// Get returns the record of key.
func (f *File) Get(ctx context.Context, key string) (sitemap.Record, bool, error) {
	return f.mem.Get(ctx, key)
}

// Put sets the record of key and appends it to the file. A file that
// cannot take appends (none yet, one of format 1, or one whose last line
// was cut) is written anew first, as Sync does.
func (f *File) Put(ctx context.Context, key string, r sitemap.Record) error {
	f.mem.Put(ctx, key, r)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.dirty[key] = cloneRecord(r)
	first := !f.putSince
	f.putSince = true
	if f.app == nil {
		wrote := false
		if !f.journal {
			if err := f.syncLocked(); err != nil {
				return err
			}
			wrote = true
		}
		app, err := os.OpenFile(f.path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return fmt.Errorf("state file %s: %w", f.path, err)
		}
		f.app = app
		if fi, err := app.Stat(); err != nil || f.known == nil || !os.SameFile(fi, f.known) || fi.Size() != f.size {
			f.known = nil // written by another process since: not the store's alone
		}
		if wrote {
			return nil // the record is in the file written just now
		}
	}
	if first {
		f.compactLater()
	}
	line, err := json.Marshal(journalLine{Key: key, Record: &r})
	if err != nil {
		return fmt.Errorf("state file %s: %w", f.path, err)
	}
	n, err := f.app.Write(append(line, '\n'))
	f.live -= f.lines[key].n
	delete(f.lines, key)
	if err == nil {
		f.lines[key] = span{f.size, int64(n)}
		f.live += int64(n)
	}
	f.size += int64(n)
	if err != nil {
		// The journal may end in a cut line now: it takes no more
		// appends, so that no record ever follows a cut one (a reader
		// keeps nothing after it); the next Put or Sync writes the file
		// anew, this record with the others.
		f.bg.Wait()
		f.app.Close()
		f.app, f.journal = nil, false
		return fmt.Errorf("state file %s: %w", f.path, err)
	}
	if f.size-f.synced >= bgSyncEvery && !f.bgSyncs.Load() {
		// The disk writes the lines while the call reads on, so that
		// Sync has the last of them alone to wait for.
		f.synced = f.size
		f.bgSyncs.Store(true)
		app := f.app
		f.bg.Go(func() {
			if app.Sync() != nil {
				f.bgFailed = true // read after bg.Wait
			}
			f.bgSyncs.Store(false)
		})
	}
	return nil
}

// Sync makes the records put since the last sync durable. While no more
// than half the file is of records put again since it was written whole,
// and it is still the file the records were appended to, that is an fsync
// of it (after the file written anew in the background, if one is being
// written); otherwise it is written anew, with the records put since the
// last sync laid over those it holds by then, and synced.
func (f *File) Sync() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.waitCompaction()
	if len(f.dirty) == 0 {
		return nil
	}
	err := f.syncLocked()
	if err == nil {
		f.putSince = false
	}
	return err
}

// appendedAlone reports whether the file open for appends is of the size
// this store knows: no other process appended to it.
func (f *File) appendedAlone() bool {
	fi, err := f.app.Stat()
	return err == nil && f.known != nil && fi.Size() == f.size
}

// writeFromMemory writes the file anew with the records in memory, and
// closes the file open for appends, which it replaces. The file holds the
// last line of each of them: those lines are copied, not encoded again.
func (f *File) writeFromMemory() error {
	f.app.Close()
	f.app = nil
	from, _, err := openRegular(f.path)
	if err != nil {
		return fmt.Errorf("state file %s: %w", f.path, err)
	}
	defer from.Close()
	f.mem.mu.Lock()
	size, lines, err := writeStateFile(f.path, f.mem.records, from, f.lines)
	f.mem.mu.Unlock()
	if err != nil {
		return err
	}
	f.wroteWhole(size, lines)
	return nil
}

// wroteWhole notes that the file was written anew, of size bytes and the
// lines given.
func (f *File) wroteWhole(size int64, lines map[string]span) {
	f.journal, f.size, f.synced, f.lines, f.live = true, size, size, lines, size
	f.known, _ = os.Stat(f.path)
	f.bgFailed = false
}

// appendedHere reports whether the file at the path is the one the records
// were appended to: another process may have written it anew since.
func (f *File) appendedHere() bool {
	a, err1 := f.app.Stat()
	b, err2 := os.Stat(f.path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// syncLocked is Sync, with f.mu held. A file it writes anew replaces the
// one open for appends, which is closed: the next Put opens the new one.
func (f *File) syncLocked() error {
	// Under the lock, so that no other process writes the file anew
	// between the check and the fsync.
	unlock, err := f.lock()
	if err != nil {
		return fmt.Errorf("state file %s: %w", f.path, err)
	}
	defer unlock()
	f.bg.Wait()
	here := f.app != nil && f.appendedHere() && !f.bgFailed
	if here && f.size <= 2*f.live {
		if err := f.app.Sync(); err != nil {
			return fmt.Errorf("state file %s: %w", f.path, err)
		}
		f.dirty, f.synced = map[string]sitemap.Record{}, f.size
		return nil
	}
	if here && f.appendedAlone() {
		// The file holds what this store read and appended, and nothing
		// else: it is written anew from memory, not read again.
		if err := f.writeFromMemory(); err != nil {
			return err
		}
		f.dirty = map[string]sitemap.Record{}
		return nil
	}
	if f.app != nil {
		f.app.Close()
		f.app = nil
	}
	onDisk, _, err := readStateFile(f.path)
	switch {
	case errors.Is(err, ErrCorrupt):
		onDisk = map[string]sitemap.Record{} // opened with DiscardCorrupt
	case err != nil:
		return err // the path became something that is no state file at all
	}
	maps.Copy(onDisk, f.dirty)
	size, lines, err := writeStateFile(f.path, onDisk, nil, nil)
	if err != nil {
		return err
	}
	f.dirty = map[string]sitemap.Record{}
	f.wroteWhole(size, lines)
	// The file holds what it held, this store's records over it: so does
	// memory from now on, and the next write needs no read.
	f.mem.mu.Lock()
	f.mem.records = onDisk
	f.mem.mu.Unlock()
	return nil
}

// Close syncs the store and closes the file. A file of which more than a
// third is of records put again is written anew first, so that the next
// OpenFile reads little more than the records.
func (f *File) Close() error {
	err := f.Sync()
	f.mu.Lock()
	f.waitCompaction()
	f.bg.Wait()
	if err == nil && f.app != nil && f.known != nil && 2*f.size > 3*f.live {
		err = f.compactNow()
	}
	if f.app != nil {
		f.app.Close()
		f.app = nil
	}
	if f.held != nil {
		f.held()
		f.held = nil
	}
	f.mu.Unlock()
	return err
}

// lock takes the lock of the state across processes for a sync, and
// returns what releases it: nothing to take for a store that holds it
// until its Close.
func (f *File) lock() (unlock func(), err error) {
	if f.held != nil {
		return func() {}, nil
	}
	return lockState(f.path+".lock", true)
}

// checkWritable creates and removes a temporary file in the directory of
// the state file.
func (f *File) checkWritable() error {
	tmp, err := os.CreateTemp(filepath.Dir(f.path), filepath.Base(f.path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("state file %s cannot be written: %w", f.path, err)
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}

// openRegular opens the file at path for reading, and refuses it unless it
// is a regular file. The open itself does not wait: a named pipe is opened
// without waiting for a writer (openFlags), and then refused by the
// descriptor's own mode, so that nothing can swap the file between the
// check and the read.
func openRegular(path string) (*os.File, os.FileInfo, error) {
	f, err := os.OpenFile(path, openFlags, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("not a regular file (%s)", fileKind(fi.Mode()))
	}
	return f, fi, nil
}

// fileKind names the type of a file that is not a regular one.
func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "mode " + m.String()
}

// stateInfo is what reading a state file tells of it.
type stateInfo struct {
	journal bool            // of stateFormat, with no line cut: records may be appended
	size    int64           // its size
	lines   map[string]span // of a journal, the last line of each key
	live    int64           // the size of its header and of those lines
	fi      os.FileInfo     // the file read
}

// readStateFile reads the records of the state file at path: none when it
// does not exist. A journal is read a line at a time, never whole.
func readStateFile(path string) (map[string]sitemap.Record, stateInfo, error) {
	f, fi, err := openRegular(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]sitemap.Record{}, stateInfo{}, nil
	}
	if err != nil {
		return nil, stateInfo{}, fmt.Errorf("state file %s: %w", path, err)
	}
	defer f.Close()
	if size := fi.Size(); size > MaxFileSize {
		return nil, stateInfo{}, fmt.Errorf("state file %s: %d bytes, more than the %d a state file may hold", path, size, MaxFileSize)
	}
	// The size may have grown since the stat: read one byte past the cap
	// at most to tell.
	br := bufio.NewReaderSize(io.LimitReader(f, MaxFileSize+1), 64<<10)
	header := []byte(`{"format":"` + stateFormat + `"}` + "\n")
	head, _ := br.Peek(len(header))
	if bytes.Equal(head, header) {
		br.Discard(len(header))
		records, info, err := readJournal(path, br, int64(len(header)))
		info.fi = fi
		return records, info, err
	}
	if len(head) < len(header) && bytes.HasPrefix(header, head) {
		// Empty (made by mktemp, or touch), or a journal cut within its
		// header: no record yet, and the first Put writes the file anew.
		return map[string]sitemap.Record{}, stateInfo{size: int64(len(head)), lines: map[string]span{}, fi: fi}, nil
	}
	data, err := io.ReadAll(br)
	if err != nil {
		return nil, stateInfo{}, fmt.Errorf("state file %s: %w", path, err)
	}
	if len(data) > MaxFileSize {
		return nil, stateInfo{}, fmt.Errorf("state file %s: more than the %d bytes a state file may hold", path, MaxFileSize)
	}
	var st stateFile
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&st); err != nil {
		return nil, stateInfo{}, fmt.Errorf("state file %s: %w: %v", path, ErrCorrupt, err)
	}
	// The format first: a journal of another version has lines after its
	// header, and is told by its format.
	if st.Format != stateFormatV1 {
		return nil, stateInfo{}, fmt.Errorf("state file %s: %w: format %q, want %q (or %q)", path, ErrCorrupt, st.Format, stateFormat, stateFormatV1)
	}
	if dec.More() {
		return nil, stateInfo{}, fmt.Errorf("state file %s: %w: data after the state", path, ErrCorrupt)
	}
	if st.Records == nil {
		st.Records = map[string]sitemap.Record{}
	}
	return st.Records, stateInfo{size: int64(len(data)), lines: map[string]span{}, fi: fi}, nil
}

// readJournal reads the records of a state file of stateFormat from br,
// after its header: each line a record, a later one of a key over an
// earlier one. A last line without its line feed was cut in the middle of
// its write, and is left out; any other line that is not a record makes
// the file corrupt.
func readJournal(path string, br *bufio.Reader, header int64) (map[string]sitemap.Record, stateInfo, error) {
	records := map[string]sitemap.Record{}
	info := stateInfo{journal: true, size: header, live: header, lines: map[string]span{}}
	for n := 2; ; n++ {
		line, err := br.ReadBytes('\n')
		if err == io.EOF {
			if len(line) > 0 {
				info.journal = false // cut mid-write: what came before stands
			}
			break
		}
		if err != nil {
			return nil, info, fmt.Errorf("state file %s: %w", path, err)
		}
		info.size += int64(len(line))
		if info.size > MaxFileSize {
			return nil, info, fmt.Errorf("state file %s: more than the %d bytes a state file may hold", path, MaxFileSize)
		}
		var jl journalLine
		if err := json.Unmarshal(line, &jl); err != nil || jl.Key == "" || jl.Record == nil {
			if err == nil {
				err = errors.New("no key or no record")
			}
			return nil, info, fmt.Errorf("state file %s: %w: line %d: %v", path, ErrCorrupt, n, err)
		}
		records[jl.Key] = *jl.Record
		info.live += int64(len(line)) - info.lines[jl.Key].n
		info.lines[jl.Key] = span{info.size - int64(len(line)), int64(len(line))}
	}
	return records, info, nil
}

// span is where a line of a record is in a journal: its offset and its
// size, line feed included.
type span struct{ off, n int64 }

// writeStateFile writes records to path atomically: to a temporary file in
// its directory, synced, then renamed over path. The line of a record
// that at places in the file from (the journal the records were put in,
// nil when none) is copied from there, not encoded again. It returns the
// size of the file and the place of the line of each record in it.
func writeStateFile(path string, records map[string]sitemap.Record, from *os.File, at map[string]span) (size int64, lines map[string]span, err error) {
	tmp, size, lines, err := newStateFile(path, slices.Sorted(maps.Keys(records)), records, from, at)
	if err != nil {
		return 0, nil, err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return 0, nil, fmt.Errorf("state file %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return 0, nil, fmt.Errorf("state file %s: %w", path, err)
	}
	return size, lines, nil
}

// newStateFile writes the lines of keys, in their order, to a temporary
// file in the directory of path, synced, and returns it open: the line of
// a key that at places in the file from is copied from there, the others
// encoded from records. It returns the size of the file and the place of
// each line in it.
func newStateFile(path string, keys []string, records map[string]sitemap.Record, from *os.File, at map[string]span) (tmp *os.File, size int64, lines map[string]span, err error) {
	header := []byte(`{"format":"` + stateFormat + `"}` + "\n")
	// The lines encoded here, and the size of the file, known before a
	// byte is written.
	encoded := make(map[string][]byte)
	lines = make(map[string]span, len(keys))
	size = int64(len(header))
	for _, key := range keys {
		sp, ok := at[key]
		if !ok || from == nil {
			r := records[key]
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(journalLine{Key: key, Record: &r}); err != nil {
				return nil, 0, nil, fmt.Errorf("state file %s: %w", path, err)
			}
			encoded[key] = buf.Bytes()
			sp.n = int64(buf.Len())
		}
		lines[key] = span{size, sp.n}
		size += sp.n
	}
	if size > MaxFileSize {
		return nil, 0, nil, fmt.Errorf("state file %s: the records take %d bytes, more than the %d a state file may hold", path, size, MaxFileSize)
	}
	tmp, err = os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, 0, nil, fmt.Errorf("state file %s: %w", path, err)
	}
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
		// The file written anew keeps the permissions of the one it
		// replaces (a temporary file is made for its owner alone).
		tmp.Chmod(fi.Mode().Perm())
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			tmp, err = nil, fmt.Errorf("state file %s: %w", path, err)
		}
	}()
	w := bufio.NewWriterSize(tmp, 1<<20)
	w.Write(header)
	for _, key := range keys {
		if line, ok := encoded[key]; ok {
			w.Write(line)
			continue
		}
		sp := at[key]
		if n, err := io.Copy(w, io.NewSectionReader(from, sp.off, sp.n)); err != nil || n != sp.n {
			if err == nil {
				err = fmt.Errorf("the line of %q cut short in the journal", key)
			}
			return tmp, 0, nil, err
		}
	}
	if err := w.Flush(); err != nil {
		return tmp, 0, nil, err
	}
	if err := tmp.Sync(); err != nil {
		return tmp, 0, nil, err
	}
	return tmp, size, lines, nil
}
