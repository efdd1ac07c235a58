package sitemap

import "math/rand/v2"

// This file is the result set of an instance: what the latest call has
// collected, how a document's yield is committed to it, and the getters
// that read it. Only the functions of this file touch the results, always
// under s.mu; a call reaches them through commit, record and hasSitemap.

// reset discards the results of the previous call. s.mu is held.
func (s *S) reset() {
	s.urls = []URL{}
	s.urlDocs = 0
	s.callErrs = nil
	s.sitemaps = []Sitemap{}
	s.sitemapPos = map[string]int{}
	s.docs = docTree{}
	s.docPos = map[string]int{}
	s.rebuildErrs()
}

// setConfigError records err as the *ConfigError of field, or clears the
// one of field when err is nil. s.mu is held.
func (s *S) setConfigError(field string, err *ConfigError) {
	i := -1
	for j, e := range s.configErrs {
		if e.Field == field {
			i = j
		}
	}
	switch {
	case i < 0 && err == nil:
		return
	case i < 0:
		s.configErrs = append(s.configErrs, err)
	case err == nil:
		s.configErrs = append(s.configErrs[:i:i], s.configErrs[i+1:]...)
	default:
		s.configErrs = append(s.configErrs[:i:i], s.configErrs[i+1:]...)
		s.configErrs = append(s.configErrs, err)
	}
	s.rebuildErrs()
}

// rebuildErrs makes errs anew from the configuration and call errors, in a
// new array, so that a slice handed out before is left as it is.
func (s *S) rebuildErrs() {
	errs := make([]error, 0, len(s.configErrs)+len(s.callErrs))
	for _, e := range s.configErrs {
		errs = append(errs, e)
	}
	s.errs = append(errs, s.callErrs...)
}

// committed is what one document yields, as the call commits it to the
// results.
type committed struct {
	// The URLs of the document: in list, an array that the results may
	// take over as it is, or in chunks, which they copy.
	list   []URL
	chunks [][]URL

	// docsLeft is about how many documents of the call are still to be
	// read, for growURLs.
	docsLeft int

	sitemaps    []Sitemap
	keys        []string // the urlnorm.Key of each of sitemaps
	errs        []error  // the validation errors of the document
	maxSitemaps int      // the listing limit of the call, 0 for none

	// The document in the tree of the call (see tree.go), and how what it
	// lists is found and becomes: queued when it is among children, which
	// are given their place in the tree, or what status says otherwise.
	node     int
	found    Found
	children []child
	status   func(key, loc string) (Status, error)
	leftOut  int // sitemaps the listing limit left out while it was read
}

// commit adds what a document yielded to the results: its URLs together,
// its errors, and those of its sitemaps that the results do not list yet,
// within the listing limit. added is how many of the sitemaps were new to
// the results; listedAll is false when the limit left some out.
func (s *S) commit(cd committed) (added int, listedAll bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.commitURLs(cd.list, cd.chunks, cd.docsLeft)
	if len(cd.errs) > 0 {
		s.callErrs = append(s.callErrs, cd.errs...)
		s.errs = append(s.errs, cd.errs...)
	}
	added, listedAll = s.commitSitemaps(cd)
	for i := range cd.children {
		cd.children[i].node = -1
		if j, ok := s.docPos[cd.children[i].key]; ok {
			cd.children[i].node = j
		}
	}
	return added, listedAll
}

// commitURLs adds the URLs of a document, in list or in chunks, to the
// results. s.mu is held.
func (s *S) commitURLs(list []URL, chunks [][]URL, docsLeft int) {
	n := len(list)
	for _, chunk := range chunks {
		n += len(chunk)
	}
	switch {
	case n == 0:
	case len(s.urls) == 0 && len(list) > 0 && cap(list)-len(list) <= len(list)/4:
		// The document's array becomes the list of the results, room to
		// spare included: what is appended next goes there. One with more
		// room than that is copied, so as not to keep the room.
		s.urlDocs++
		s.urls = list
	default:
		s.urlDocs++
		s.growURLs(n, docsLeft)
		s.urls = append(s.urls, list...)
		for _, chunk := range chunks {
			s.urls = append(s.urls, chunk...)
		}
	}
}

// commitSitemaps adds the sitemaps a document lists to the results: a
// sitemap listed before keeps its place and the later of the dates, and no
// more than the listing limit (when above 0) are listed. Each one new to
// the results is a document of the tree too, unless the call knows it
// already (the document given). s.mu is held.
func (s *S) commitSitemaps(cd committed) (added int, listedAll bool) {
	listedAll = true
	left := cd.leftOut
	for i, sm := range cd.sitemaps {
		key := cd.keys[i]
		if j, ok := s.sitemapPos[key]; ok {
			if old := s.sitemaps[j].LastMod; sm.LastMod != nil && (old == nil || sm.LastMod.After(old.Time)) {
				s.sitemaps[j].LastMod = sm.LastMod
				if k, ok := s.docPos[key]; ok {
					s.docs.at(k).LastMod = sm.LastMod
				}
			}
			continue
		}
		if cd.maxSitemaps > 0 && len(s.sitemaps) >= cd.maxSitemaps {
			listedAll = false
			left++
			continue
		}
		s.sitemapPos[key] = len(s.sitemaps)
		s.sitemaps = append(s.sitemaps, sm)
		added++
		if _, ok := s.docPos[key]; !ok && cd.node >= 0 {
			s.addListed(cd, sm, key)
		}
	}
	if left > 0 && cd.node >= 0 {
		s.docs.at(cd.node).LeftOut += left
	}
	return added, listedAll
}

// addListed adds the sitemap sm, listed by the document cd and new to the
// call, to the tree. s.mu is held.
func (s *S) addListed(cd committed, sm Sitemap, key string) {
	st, err := StatusQueued, error(nil)
	if cd.status != nil {
		st, err = cd.status(key, sm.Loc)
	}
	s.addDoc(key, Document{URL: sm.Loc, Found: cd.found, Parent: cd.node,
		Depth: s.docs.at(cd.node).Depth + 1, Status: st, Err: err, LastMod: sm.LastMod})
}

// hasSitemap reports whether a committed document of the call listed the
// sitemap with key.
func (s *S) hasSitemap(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.sitemapPos[key]
	return ok
}

// hasDoc reports whether the tree of the call has a document of the
// request key.
func (s *S) hasDoc(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.docPos[key]
	return ok
}

// addURLs adds URLs to the results after every document's (change
// detection's URLs gone).
func (s *S) addURLs(us []URL) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.urls = append(s.urls, us...)
}

// growURLs makes room in s.urls for the n URLs of a document, where about
// docsLeft documents are still to come. s.mu is held.
//
// The list is one array, since GetURLs hands it out as it is, so each
// growth copies it and leaves the old array to the garbage collector: for a
// call of a million URLs, the last growths alone leave tens of megabytes and
// most of the memory the call touches. The list therefore grows toward what
// the documents still to come are expected to add: as many URLs each as the
// documents so far, or as this one if it has fewer. It grows by a quarter at
// the least, so that an estimate too low costs a few more copies, and four
// times over at the most, so that one too high (a large sitemap among small
// ones) leaves room bounded by what the list already holds. When this
// sitemap is about the size of those before it (within a factor of two of
// their mean), the estimate is borne out and the list may grow sixteen
// times over: the copies of the growths and the arrays they leave behind
// were a quarter of the time and the memory of a call of 200 sitemaps of
// 5,000 URLs, where it now grows twice. When all the sitemaps of an index
// are of one size, as a site's split sitemaps are, the estimate is right
// and the list ends the size of what the call keeps.
func (s *S) growURLs(n, docsLeft int) {
	need := len(s.urls) + n
	if need <= cap(s.urls) {
		return
	}
	mean := need / s.urlDocs
	expect := need + min(mean, n)*docsLeft
	most := 4 * cap(s.urls)
	if s.urlDocs > 1 && mean/2 <= n && n <= 2*mean {
		most = 16 * cap(s.urls)
	}
	size := min(max(expect, cap(s.urls)+cap(s.urls)/4), most)
	grown := make([]URL, len(s.urls), max(size, need))
	copy(grown, s.urls)
	s.urls = grown
}

// record adds one error of the call to the results.
func (s *S) record(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.callErrs = append(s.callErrs, err)
	s.errs = append(s.errs, err)
}

// GetURLs returns the URLs the latest call collected, in the list the
// instance keeps: it must not be changed, the URLs in it included. It has no
// spare capacity, so append copies it, and it never changes afterwards. It
// is never nil, for a nil *S either. For URLs of the caller's own, use
// [S.URLs].
//
// To keep millions of URLs in little memory, the URLs of one document that
// give the same date, priority or change frequency point to one value:
// what a pointer of one URL points to is another's too.
func (s *S) GetURLs() []URL {
	if s == nil {
		return []URL{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.initialise()
	return s.urls[:len(s.urls):len(s.urls)]
}

// GetURLCount returns how many URLs [S.GetURLs] returns. It is an int64, as
// in go-sitemap-parser v1.0.1; 0 for a nil *S.
func (s *S) GetURLCount() int64 {
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return int64(len(s.urls))
}

// GetRandomURLs returns n of the URLs, chosen at random, none twice: all of
// them in random order when n is larger than their number, an empty slice
// when n is 0 or less. Each is a copy that is the caller's own.
func (s *S) GetRandomURLs(n int) []URL {
	urls := s.GetURLs()
	n = min(max(n, 0), len(urls))
	out := make([]URL, 0, n)
	for _, i := range rand.Perm(len(urls))[:n] {
		out = append(out, copyURL(&urls[i]))
	}
	return out
}

// GetSitemaps returns the sitemaps that the documents of the latest call
// list, fetched or not, each once, in the order they were found: the
// Sitemap: lines of a robots.txt and the entries of every sitemap index that
// was read. The slice is a copy, dates included, and is never nil, for a nil
// *S either.
//
// URLs that differ only in what RFC 3986 takes for no difference (the
// letter case of the scheme and of the host, a default port, an escape of
// a letter, a digit or one of - . _ ~, the case of the digits of an escape,
// dot segments) or in a fragment, which no request sends, name one
// sitemap, in strict mode too: it is listed once, under the URL it was
// first found by, and requested once. So is a sitemap that a request for
// another one was redirected to.
func (s *S) GetSitemaps() []Sitemap {
	if s == nil {
		return []Sitemap{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.initialise()
	out := make([]Sitemap, len(s.sitemaps))
	for i, sm := range s.sitemaps {
		out[i] = Sitemap{Loc: sm.Loc, LastMod: copyTime(sm.LastMod)}
	}
	return out
}

// GetSitemapCount returns how many sitemaps [S.GetSitemaps] returns. It is
// an int64, like the other counts; 0 for a nil *S.
func (s *S) GetSitemapCount() int64 {
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return int64(len(s.sitemaps))
}

// GetErrors returns the outstanding *ConfigError values followed by the
// errors of the latest call, in the list the instance keeps: it must not be
// changed. It has no spare capacity, so append copies it, and it never
// changes afterwards. For a list of the caller's own, use [S.Errors]. A nil
// *S has no errors: the result is nil.
func (s *S) GetErrors() []error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.initialise()
	return s.errs[:len(s.errs):len(s.errs)]
}

// GetErrorsCount returns how many errors [S.GetErrors] returns. It is an
// int64, as in go-sitemap-parser v1.0.1; 0 for a nil *S.
func (s *S) GetErrorsCount() int64 {
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return int64(len(s.errs))
}
