package sitemap

import "runtime/debug"

// This file is the selection in code of Selection.FollowSitemap and
// Selection.KeepURL: a feature of the hook surface, attached in call.run
// when either is set, through the call's follow hook (fired in admit,
// after the follow rules) and each document's url hook (after the URL
// rules).

// attachSelection attaches the hooks of the selection functions, when the
// configuration of the call has either.
func (c *call) attachSelection() {
	sel := c.cfg.selection
	if sel.FollowSitemap == nil && sel.KeepURL == nil {
		return
	}
	var h hooks
	if f := sel.FollowSitemap; f != nil {
		h.follow = func(ch child) bool {
			return callerCode(func() bool { return f(c.s.candidate(ch)) })
		}
	}
	if f := sel.KeepURL; f != nil {
		dh := docHooks{url: func(u URL) (bool, Source) {
			return callerCode(func() bool { return f(u) }), Source{}
		}}
		h.document = func(child, int, *doc) docHooks { return dh }
	}
	c.attach(h)
}

// callerCode runs f, code of the caller's, and raises a panic of it as a
// *PanicError, on whichever goroutine of the call it runs.
func callerCode(f func() bool) bool {
	ended := false
	defer func() {
		if !ended {
			newPanicError(recover(), debug.Stack()).raise()
		}
	}()
	ok := f()
	ended = true
	return ok
}

// candidate is what the call knows of the sitemap ch before its request,
// as a Document: the tree's record when it has one.
func (s *S) candidate(ch child) Document {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := s.docs.at(ch.node); n != nil {
		d := *n
		return d
	}
	depth := 0
	if p := s.docs.at(ch.parent); p != nil {
		depth = p.Depth + 1
	}
	return Document{URL: ch.loc, Found: ch.found, Parent: ch.parent, Depth: depth, Status: StatusQueued}
}
