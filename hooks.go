package sitemap

import (
	"bufio"
	"io"
	"time"

	"github.com/gositemap/sitemap/internal/xmlscan"
)

// This file is the hook surface of the read path, in the manner of
// net/http/httptrace: a set of optional functions per call (hooks) and per
// document (docHooks), each called where the pipeline reaches what it
// names, when it is set. A feature that observes a call, or decides about
// its documents, attaches its functions when the call starts (call.attach);
// several may be attached at once, and each of their functions is called
// in the order they were attached (of the hooks that answer, a false or an
// error from any stands; instead and notModified are the first attached
// that reads the document). The stages hold no field of any feature: a call without hooks pays one nil check where each would fire,
// and allocates nothing for them.
//
// The hooks run on the goroutine that reads the document they are about,
// several documents at once when the call reads in parallel: what a
// feature keeps across documents it guards itself.

// hooks are the hooks of one call.
type hooks struct {
	// root, when set, reads the root of the call in the place of
	// call.runRoot and returns its error: a discovery, whose root is a
	// site, not a document. One feature takes the root: the first
	// attached.
	root func() error

	// opened is told what the request of the document ch yielded (its
	// response, or the error it failed with), or that ch was given as a
	// reader: call.read, once the tree has recorded it.
	opened func(ch child, src source, err error)

	// document is told that the document ch, at level, is about to be
	// read into d (call.readSource, and a sitemap replayed from the
	// store), with d's place in the tree and its source set. The docHooks
	// it returns observe that document alone.
	document func(ch child, level int, d *doc) docHooks

	// instead is asked, before the sitemap ch is requested, whether a
	// feature reads it itself: conditional fetching from the record of a
	// sitemap whose index gives it the same <lastmod>, a discovery each of
	// its candidates. done tells it did, and children are the sitemaps to
	// follow (call.read, once the tree says the document is being read).
	instead func(ch child, level int, robots bool, start time.Time) (children []child, err error, done bool)

	// notModified reads the sitemap ch, which its server answered with
	// resp, 304 Not Modified, from what the feature that sent the
	// validators holds, and returns the sitemaps to follow (call.read).
	// One feature sends validators: the first attached is the one.
	notModified func(ch child, level int, robots bool, resp response, start time.Time) []child

	// whole is told that the document ch, served with resp, was read
	// whole into d and committed, nothing of it cut (call.readSource).
	whole func(ch child, d *doc, resp response)

	// follow is asked, once the follow rules let the sitemap ch through,
	// whether it is read; false leaves it out, StatusNotFollowed
	// (scheduler.go: admit).
	follow func(ch child) bool

	// finish is told that the call has read everything it will, on the
	// call's goroutine once its other goroutines have ended, and whether
	// it read everything it was to (false when it was cut short or halted):
	// change detection hands on what is gone then, and the run records
	// itself complete (call.run). A goroutine of the call that panicked
	// leaves it uncalled.
	finish func(complete bool)
}

// docHooks are the hooks of one document.
type docHooks struct {
	// body is given the decoded body before its format is told (a
	// robots.txt by its URL, XML or text); an error refuses the document
	// with it (detect.go).
	body func(r *bufio.Reader) error

	// robotsLine is given each line of a robots.txt, its comment and
	// indentation cut, before the line is read for a Sitemap: (robots.go).
	robotsLine func(line []byte)

	// numberLines asks the parse stage of a text sitemap to number its
	// lines, so that each raw entry carries its line (rawEntry.line), as
	// that of a robots.txt always does: lint's, whose findings are placed
	// at them. Unasked, the lines of a text sitemap are not counted
	// (parse_text.go).
	numberLines bool

	// text is given the UTF-8 text the XML parse stage is to read, and
	// whether it comes out of a transcoder; the parse stage reads what it
	// returns (detect.go).
	text func(r io.Reader, transcoded bool) io.Reader

	// xml are the hooks of the XML parse stage (parse_xml.go).
	xml xmlHooks

	// entry is given each raw entry, before it is translated
	// (translate.go). It must not change it.
	entry func(e *rawEntry)

	// url is given each URL of a page the document is about to keep,
	// with every field, once it has passed the rules and before it is
	// counted; false leaves it out, uncounted (translate.go). A Source
	// other than the zero one replaces the URL's (change detection's,
	// which carries the change). It takes the URL as a value: a pointer
	// to it would move every URL of every call to the heap, hooks or not.
	url func(u URL) (keep bool, src Source)

	// listed is told the location of each URL of a page the document
	// lists that is not handed on all the same: left out by the URL rules
	// or Since (translate.go), or by the url hook of a feature attached
	// before (join). Change detection counts it as still listed.
	listed func(loc string)

	// failed is told the error the document failed with, before it is
	// recorded, and returns whether it is recorded (false: the tree counts
	// no error for it) and the status the document ends with, StatusFailed
	// or one that says more (a discovery's StatusNotSitemap)
	// (call.readSource).
	failed func(err error) (record bool, st Status)

	// keep is asked, once the document has been parsed without failing,
	// whether it is committed; false discards it (call.readSource). final
	// is the URL it was served from. A document with a keep hook in a
	// streaming call holds its URLs until it is kept (doc.holds).
	keep func(final string) bool

	// follow is asked of each sitemap the document lists that the call's
	// rules follow (doc.follows): false lists it without fetching it, as
	// a discovery with Selection.RootOnly does with what a sitemap found
	// lists.
	follow func(loc string) bool

	// ended is told how the document ended: its status and the error
	// about it (call.parsed, before the tree records it).
	ended func(st Status, err error)
}

// xmlHooks are the hooks of the XML parse stage.
type xmlHooks struct {
	// scanner is given the scanner of the document before the first
	// token; what it returns is called once the parse stage is done
	// with the scanner, before it is released. While it is set the parse
	// stage reads every element, skipping none unread.
	scanner func(sc *xmlscan.Scanner) (done func())
	// root is told the format and the namespace of the root element.
	root func(f docFormat, space []byte)
	// rootChild is told of an element right below the root that is no
	// entry, in the root's namespace (own) or not.
	rootChild func(local []byte, own bool, f docFormat)
	// entryStart is told that an entry starts.
	entryStart func()
	// child is told of an element of an entry of a urlset or an index,
	// depth levels below the entry.
	child func(local []byte, depth int, own bool, f docFormat)
}

// attach adds the hooks of a feature to those of the call, after the
// ones attached before. It is called when the call starts, before any
// document is read.
func (c *call) attach(o hooks) {
	h := &c.hooks
	switch a, b := h.opened, o.opened; {
	case a == nil:
		h.opened = b
	case b != nil:
		h.opened = func(ch child, src source, err error) { a(ch, src, err); b(ch, src, err) }
	}
	switch a, b := h.instead, o.instead; {
	case a == nil:
		h.instead = b
	case b != nil:
		h.instead = func(ch child, level int, robots bool, start time.Time) ([]child, error, bool) {
			if children, err, done := a(ch, level, robots, start); done {
				return children, err, true
			}
			return b(ch, level, robots, start)
		}
	}
	if h.root == nil {
		h.root = o.root
	}
	if h.notModified == nil {
		// One feature sends validators and reads what a 304 leaves out.
		h.notModified = o.notModified
	}
	switch a, b := h.whole, o.whole; {
	case a == nil:
		h.whole = b
	case b != nil:
		h.whole = func(ch child, d *doc, resp response) { a(ch, d, resp); b(ch, d, resp) }
	}
	switch a, b := h.finish, o.finish; {
	case a == nil:
		h.finish = b
	case b != nil:
		h.finish = func(complete bool) { a(complete); b(complete) }
	}
	switch a, b := h.follow, o.follow; {
	case a == nil:
		h.follow = b
	case b != nil:
		h.follow = func(ch child) bool { return a(ch) && b(ch) }
	}
	switch a, b := h.document, o.document; {
	case a == nil:
		h.document = b
	case b != nil:
		h.document = func(ch child, level int, d *doc) docHooks {
			return a(ch, level, d).join(b(ch, level, d))
		}
	}
}

// observe attaches the document hooks of the call to d, the document ch
// at level.
func (c *call) observe(ch child, level int, d *doc) {
	if h := c.hooks.document; h != nil {
		dh := h(ch, level, d)
		d.hooks = &dh
	}
}

// noDocHooks are the hooks of a document no feature observes, shared by
// every such document: a word of each, where a set of its own would cost
// every document of every call a hundred bytes. Nothing writes to it.
var noDocHooks docHooks

// join returns the hooks of a and of b together, a's first. Of the hooks
// that answer, an error or a false from either stands.
func (a docHooks) join(b docHooks) docHooks {
	j := a
	if f, g := a.body, b.body; f == nil {
		j.body = g
	} else if g != nil {
		j.body = func(r *bufio.Reader) error {
			if err := f(r); err != nil {
				return err
			}
			return g(r)
		}
	}
	if f, g := a.robotsLine, b.robotsLine; f == nil {
		j.robotsLine = g
	} else if g != nil {
		j.robotsLine = func(line []byte) { f(line); g(line) }
	}
	j.numberLines = a.numberLines || b.numberLines
	if f, g := a.text, b.text; f == nil {
		j.text = g
	} else if g != nil {
		j.text = func(r io.Reader, transcoded bool) io.Reader { return g(f(r, transcoded), transcoded) }
	}
	j.xml = a.xml.join(b.xml)
	if f, g := a.entry, b.entry; f == nil {
		j.entry = g
	} else if g != nil {
		j.entry = func(e *rawEntry) { f(e); g(e) }
	}
	if f, g := a.url, b.url; f == nil {
		j.url = g
	} else if g != nil {
		listed := b.listed
		j.url = func(u URL) (bool, Source) {
			keep, src := f(u)
			if !keep {
				if listed != nil {
					listed(u.Loc)
				}
				return false, Source{}
			}
			if src.doc != nil {
				u.Source = src
			}
			keep, src2 := g(u)
			if src2.doc != nil {
				src = src2
			}
			return keep, src
		}
	}
	if f, g := a.listed, b.listed; f == nil {
		j.listed = g
	} else if g != nil {
		j.listed = func(loc string) { f(loc); g(loc) }
	}
	if f, g := a.failed, b.failed; f == nil {
		j.failed = g
	} else if g != nil {
		j.failed = func(err error) (bool, Status) {
			x, st := f(err)
			y, st2 := g(err)
			if st == StatusFailed {
				st = st2
			}
			return x && y, st
		}
	}
	if f, g := a.keep, b.keep; f == nil {
		j.keep = g
	} else if g != nil {
		j.keep = func(final string) bool { return f(final) && g(final) }
	}
	if f, g := a.follow, b.follow; f == nil {
		j.follow = g
	} else if g != nil {
		j.follow = func(loc string) bool { return f(loc) && g(loc) }
	}
	if f, g := a.ended, b.ended; f == nil {
		j.ended = g
	} else if g != nil {
		j.ended = func(st Status, err error) { f(st, err); g(st, err) }
	}
	return j
}

// join returns the hooks of a and of b together, a's first.
func (a xmlHooks) join(b xmlHooks) xmlHooks {
	j := a
	if f, g := a.scanner, b.scanner; f == nil {
		j.scanner = g
	} else if g != nil {
		j.scanner = func(sc *xmlscan.Scanner) func() {
			df, dg := f(sc), g(sc)
			return func() { dg(); df() }
		}
	}
	if f, g := a.root, b.root; f == nil {
		j.root = g
	} else if g != nil {
		j.root = func(fm docFormat, space []byte) { f(fm, space); g(fm, space) }
	}
	if f, g := a.rootChild, b.rootChild; f == nil {
		j.rootChild = g
	} else if g != nil {
		j.rootChild = func(local []byte, own bool, fm docFormat) { f(local, own, fm); g(local, own, fm) }
	}
	if f, g := a.entryStart, b.entryStart; f == nil {
		j.entryStart = g
	} else if g != nil {
		j.entryStart = func() { f(); g() }
	}
	if f, g := a.child, b.child; f == nil {
		j.child = g
	} else if g != nil {
		j.child = func(local []byte, depth int, own bool, fm docFormat) {
			f(local, depth, own, fm)
			g(local, depth, own, fm)
		}
	}
	return j
}
