package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/internal/urlnorm"
)

// localHost is the host of the URLs a local file and the sitemaps it
// lists are located at when no -base is given. The .invalid top-level
// domain is reserved (RFC 2606): no name under it resolves, so no request
// for it can reach a server; the command's transport answers them from the
// directory of the file, and only when the document given is a file.
const localHost = "local.invalid"

// errAboveDir is the cause of a sitemap a local file lists above the
// directory of the file given.
var errAboveDir = errors.New("a local file may only list files in its own directory or below it: not read (give -base to read the sitemaps it lists from the site)")

// localDir is the directory of a local file given without -base: the
// sitemaps the file lists by relative locations are read from it, and
// from nowhere else.
//
// The file is located at https://local.invalid/ followed by its absolute
// path, so that the library resolves a relative location as a file
// system would (../../etc/passwd climbs two directories) and requests
// HTTPS URLs only. The transport reads a request for local.invalid from
// the directory through an [os.Root], which refuses every path that leads
// out of it, by .. or by a symbolic link.
type localDir struct {
	root *os.Root
	dir  string // the directory as the argument names it, for the output
	abs  string // its absolute path, with slashes, ending in a slash
	name string // the file given, as the argument names it
	loc  string // the URL it is located at
}

// openLocal opens the directory of the file at name and returns it with
// the URL the file is located at. asRobots locates it at robots.txt in its
// directory, so that it is read as a robots.txt.
func openLocal(name string, asRobots bool) (*localDir, string, error) {
	abs, err := filepath.Abs(name)
	if err != nil {
		return nil, "", err
	}
	root, err := os.OpenRoot(filepath.Dir(abs))
	if err != nil {
		return nil, "", err
	}
	l := &localDir{root: root, dir: filepath.Dir(name), abs: filepath.ToSlash(filepath.Dir(abs)), name: name}
	if !strings.HasPrefix(l.abs, "/") {
		l.abs = "/" + l.abs // a Windows drive
	}
	if !strings.HasSuffix(l.abs, "/") {
		l.abs += "/"
	}
	base := filepath.Base(abs)
	if asRobots {
		base = "robots.txt"
	}
	l.loc = l.url(base)
	return l, l.loc, nil
}

// url returns the URL of the file at rel, a slash-separated path in the
// directory.
func (l *localDir) url(rel string) string {
	return (&url.URL{Scheme: "https", Host: localHost, Path: l.abs + rel}).String()
}

// close closes the directory.
func (l *localDir) close() {
	if l != nil {
		l.root.Close()
	}
}

// isLocal reports whether u is a URL of local.invalid.
func isLocal(u string) bool {
	if !strings.Contains(u, localHost) {
		return false // a relative location is resolved against the base, which is in lower case
	}
	p, err := url.Parse(u)
	return err == nil && strings.EqualFold(p.Hostname(), localHost)
}

// display returns how the output shows the URL u: a URL of the directory
// as the path of its file, as the argument names the directory; any other
// URL as it is.
func (l *localDir) display(u string) string {
	if l == nil || !strings.Contains(u, localHost) {
		return u
	}
	if u == l.loc {
		return l.name
	}
	p, err := url.Parse(u)
	if err != nil || !strings.EqualFold(p.Hostname(), localHost) {
		return u
	}
	shown := filepath.FromSlash(p.Path)
	if rel, ok := strings.CutPrefix(p.Path, l.abs); ok {
		shown = filepath.Join(l.dir, filepath.FromSlash(rel))
	}
	if p.RawQuery != "" {
		shown += "?" + p.RawQuery
	}
	return shown
}

// message rewrites the URLs of the directory in an error message as the
// paths of their files.
func (l *localDir) message(msg string) string {
	if l == nil || !strings.Contains(msg, localHost) {
		return msg
	}
	msg = strings.ReplaceAll(msg, l.url(""), filepath.ToSlash(l.dir)+"/")
	return strings.ReplaceAll(msg, "https://"+localHost, "")
}

// transport returns a RoundTripper that answers the requests for
// local.invalid from the directory and hands every other one to next.
func (l *localDir) transport(next http.RoundTripper) http.RoundTripper {
	return &localTransport{l: l, next: next}
}

type localTransport struct {
	l    *localDir
	next http.RoundTripper
}

// RoundTrip reads the file a request for local.invalid names, within the
// directory; it refuses a path above the directory, or one that a
// symbolic link leads out of, with a *ValidationError, having read
// nothing.
func (t *localTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !strings.EqualFold(req.URL.Hostname(), localHost) {
		return t.next.RoundTrip(req)
	}
	if req.Body != nil {
		req.Body.Close()
	}
	p := path.Clean(req.URL.Path)
	shown := t.l.display(req.URL.String())
	rel, ok := strings.CutPrefix(p+"/", t.l.abs)
	if !ok {
		return nil, &sitemap.ValidationError{URL: shown, Err: errAboveDir}
	}
	rel = strings.TrimSuffix(rel, "/")
	if rel == "" {
		rel = "."
	}
	if req.URL.RawQuery != "" {
		return nil, fmt.Errorf("open %s: a local file has no query (?%s)", shown, req.URL.RawQuery)
	}
	// The file is opened without waiting (a named pipe would wait for a
	// writer in open(2)) and read only when it is a regular file.
	f, err := t.l.root.OpenFile(filepath.FromSlash(rel), os.O_RDONLY|openNonblock, 0)
	if err != nil {
		// os.Root names no sentinel for a path that leads out of it;
		// its message is "path escapes from parent".
		if strings.Contains(err.Error(), "escapes from parent") {
			return nil, &sitemap.ValidationError{URL: shown, Err: fmt.Errorf("%w (%v)", errAboveDir, err)}
		}
		return nil, fmt.Errorf("open %s: %w", shown, errors.Unwrap(err))
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
	case fi.IsDir():
		err = errors.New("is a directory")
	case !fi.Mode().IsRegular():
		err = fmt.Errorf("is not a regular file (%v)", fi.Mode().Type())
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open %s: %w", shown, err)
	}
	return &http.Response{
		Status:        "200 OK",
		StatusCode:    http.StatusOK,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        http.Header{},
		Body:          f,
		ContentLength: fi.Size(),
		Request:       req,
	}, nil
}

// localURLError is the error of a page that a local file lists by a
// relative location: without -base, the command has no site to resolve it
// against, and reports it rather than guess.
func (l *localDir) localURLError(loc string) error {
	return &sitemap.ValidationError{URL: l.display(loc),
		Err: errors.New("a relative location in a local file: give -base to resolve it against the site")}
}

// looksLikeRobots reports whether the start of a document reads as a
// robots.txt: a line that begins with one of its fields.
func looksLikeRobots(head []byte) bool {
	for line := range bytes.Lines(head) {
		line = bytes.ToLower(bytes.TrimSpace(line))
		for _, field := range []string{"user-agent:", "disallow:", "allow:", "sitemap:", "crawl-delay:"} {
			if bytes.HasPrefix(line, []byte(field)) {
				return true
			}
		}
	}
	return false
}

// bareURLHint returns the hint for an argument that is no file and reads
// as a URL without its scheme, such as example.com/sitemap.xml, or "" when
// it does not read as one.
func bareURLHint(target string) string {
	host, _, _ := strings.Cut(target, "/")
	if !strings.Contains(host, ".") || strings.ContainsAny(host, " \\:") || strings.HasPrefix(host, ".") {
		return ""
	}
	if !strings.Contains(target, "/") {
		// A name alone: a host, unless it ends as the name of a file does.
		switch strings.ToLower(path.Ext(host)) {
		case ".xml", ".txt", ".gz", ".rss", ".atom", ".rdf", ".json", ".html", ".htm":
			return ""
		}
	}
	return "to fetch it, add its scheme: https://" + target
}

// readHead reads up to n bytes of r and returns them with a reader of the
// whole of r.
func readHead(r io.Reader, n int) ([]byte, io.Reader, error) {
	head := make([]byte, n)
	k, err := io.ReadFull(r, head)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = nil
	}
	head = head[:k]
	return head, io.MultiReader(bytes.NewReader(head), r), err
}

// firstSite finds the first absolute location in the start of a document:
// a <loc>, an RSS <link>, an Atom href, a Sitemap: line or a line of a
// text sitemap. It returns its origin, such as https://example.com, as the
// library builds one (urlnorm.Origin), or "" when there is none.
func firstSite(head []byte) string {
	m := firstLocation.FindSubmatch(head)
	if m == nil {
		return ""
	}
	site, err := urlnorm.Origin(string(m[1]) + "://" + string(m[2]))
	if err != nil {
		return ""
	}
	return site
}

var firstLocation = regexp.MustCompile(`(?im)(?:<loc>\s*|<link>\s*|href=["']|^sitemap:\s*|^)(https?)://([^\s<>"'/?#]+)`)
