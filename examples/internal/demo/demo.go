// Package demo holds what the example programs share: a web site on the
// loopback interface to read, and the check that a program showed what it
// is meant to show. It is no part of the library.
package demo

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
)

// Serve answers with the documents of site, by path, as a web site would;
// any other path is 404 Not Found. It listens on the loopback interface
// only.
func Serve(site map[string]string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		doc, ok := site[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, doc)
	}))
}

// Expect ends the program with status 1 when ok is false: the program did
// not show what it is meant to show (want), and CI notices.
func Expect(ok bool, want string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "unexpected outcome, want", want)
		os.Exit(1)
	}
}
