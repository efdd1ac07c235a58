package sitemap

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/gositemap/sitemap/internal/printable"
)

// A ConfigError records a value that a Set* method rejected. It belongs to
// the instance: it stays in [S.GetErrors] until the same setter is given a
// valid value, and while it is there, Parse parses nothing.
type ConfigError struct {
	Field string // the name of the setting, such as "maxDepth"
	Err   error  // why the value was rejected
}

// Error returns the message, of the form config "field": cause.
func (e *ConfigError) Error() string {
	return printable.Escape(fmt.Sprintf("config %q: %v", e.Field, e.Err))
}

// Unwrap returns the cause.
func (e *ConfigError) Unwrap() error { return e.Err }

// A NetworkError records a document that could not be fetched: the request
// failed, the server answered with a status other than 200 OK, the body
// broke off, or it is larger than the response size limit.
type NetworkError struct {
	URL string // the URL that was requested
	Err error  // the cause
}

// Error returns the message, of the form fetch "URL": cause. A password
// in a URL of the message is redacted, see [ParseError.Error].
func (e *NetworkError) Error() string { return shown(fmt.Sprintf("fetch %q: %v", e.URL, e.Err)) }

// Unwrap returns the cause.
func (e *NetworkError) Unwrap() error { return e.Err }

// A ParseError records a document that could not be parsed, a limit of a
// call that was reached, or a call that its context cut short.
//
// For a document, URL is the URL the document was served from (after
// redirects); for the depth limit, the sitemap index whose sitemaps were not
// followed; for the other limits and for a call cut short, the URL passed to
// Parse or ParseContext.
type ParseError struct {
	URL string
	Err error // the cause
}

// Error returns the message, of the form parse "URL": cause.
//
// A URL with a password in its user information is named with the
// password replaced by xxxxx, as net/url's URL.Redacted writes it
// (https://user:xxxxx@example.com/sitemap.xml), and so is every such URL
// the cause quotes; the URL is otherwise as written. The URL field keeps
// the URL as it is, password included. This goes for the messages of
// [NetworkError] and [ValidationError] too.
//
// What the cause quotes of a server or a document (the reason phrase of a
// status line, a name in an XML syntax error) is written with the
// characters a terminal would act on escaped, as strconv.Quote writes them
// (\x1b, \u202e): C0 and C1 controls, DEL, the bidirectional controls,
// the line and paragraph separators, and bytes that are not UTF-8. A
// message of plain text is unchanged. This goes for the messages of the
// four error types.
func (e *ParseError) Error() string { return shown(fmt.Sprintf("parse %q: %v", e.URL, e.Err)) }

// Unwrap returns the cause.
func (e *ParseError) Unwrap() error { return e.Err }

// A ValidationError records an entry or a value that was rejected, or a
// value that could not be parsed. URL is the rejected URL, or the page or
// sitemap the rejected value belongs to.
//
// The cause of an entry or a value wraps the [Code] of the rule it broke,
// so that errors.Is(err, CodeLocTooLong) tells a location that is too
// long; the message is the cause's own, the code adds nothing to it. The
// table of Code says which rules these are.
type ValidationError struct {
	URL string
	Err error // the cause
}

// Error returns the message, of the form validate "URL": cause. A password
// in a URL of the message is redacted, see [ParseError.Error].
func (e *ValidationError) Error() string {
	return shown(fmt.Sprintf("validate %q: %v", e.URL, e.Err))
}

// Unwrap returns the cause.
func (e *ValidationError) Unwrap() error { return e.Err }

// shown is the message msg of one of the package's error types: a
// password redacted, and what a terminal would act on escaped.
func shown(msg string) string { return printable.Escape(redact(msg)) }

// redactedPassword is what a password is replaced by in a message, as
// net/url's URL.Redacted writes it.
const redactedPassword = "xxxxx"

// redact returns msg with the password of every URL in it replaced by
// redactedPassword. It reads the text, not a parsed URL, so that a URL
// that net/url cannot parse has its password redacted as well: after each
// //, the authority runs to the first /, ?, # or space, or to a " that is
// not escaped with a backslash (a URL quoted with %q); the user
// information is what comes before its last @, and the password what
// follows the first : of that, as url.Parse reads them. The rest of the
// URL, to a space (in a URL quoted with %q, to its closing quote), is
// left as written, a // in its path or query included: that is part of the
// URL, whose path and query the redaction keeps. A password that holds a /, ? or # is no password to
// url.Parse either, which ends the authority there.
func redact(msg string) string {
	var b strings.Builder
	done := 0 // msg[:done] is in b, or b is empty and nothing changed
	// scan returns the index in msg from k of the first byte that stop
	// tells of, past bytes escaped with a backslash.
	scan := func(k int, stop func(c byte) bool) int {
		for k < len(msg) {
			c := msg[k]
			if c == '\\' && k+1 < len(msg) {
				k += 2
				continue
			}
			if stop(c) {
				break
			}
			k++
		}
		return min(k, len(msg))
	}
	for i := strings.Index(msg, "//"); i >= 0; {
		start := i + 2
		end := scan(start, func(c byte) bool { return c == '/' || c == '?' || c == '#' || c == '"' || c <= ' ' })
		auth := msg[start:end]
		if at := strings.LastIndexByte(auth, '@'); at >= 0 {
			if colon := strings.IndexByte(auth[:at], ':'); colon >= 0 && auth[colon+1:at] != redactedPassword {
				b.WriteString(msg[done : start+colon+1])
				b.WriteString(redactedPassword)
				done = start + at
			}
		}
		// The rest of the URL: to a space, or in a URL quoted with %q to
		// its closing quote (%q leaves a space as it is).
		if quotedAt(msg, i) {
			end = scan(end, func(c byte) bool { return c == '"' || c < ' ' })
		} else {
			end = scan(end, func(c byte) bool { return c <= ' ' })
		}
		j := strings.Index(msg[end:], "//")
		if j < 0 {
			break
		}
		i = end + j
	}
	if done == 0 {
		return msg
	}
	b.WriteString(msg[done:])
	return b.String()
}

// quotedAt reports whether the URL whose // is at msg[i] opens with a
// quote: the byte before its scheme, or before the // of a URL without
// one, is a ".
func quotedAt(msg string, i int) bool {
	k := i
	if k > 0 && msg[k-1] == ':' {
		k--
		for k > 0 && isSchemeByte(msg[k-1]) {
			k--
		}
	}
	return k > 0 && msg[k-1] == '"'
}

// isSchemeByte tells whether c may be in a URL's scheme.
func isSchemeByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'
}

// A PanicError is what Parse, ParseContext and Stream panic with when code
// of the caller's that runs on a goroutine of the call panicked: a
// RoundTripper, a CheckRedirect, the Read of a response body. It is raised
// on the caller's goroutine once the other goroutines of the call have
// ended, so that a recover there works as it would had the code run on that
// goroutine. It is never recorded in [S.GetErrors].
type PanicError struct {
	Value any    // what the code panicked with
	Stack []byte // the stack of the goroutine that panicked, when it did

	goexit bool // the goroutine called runtime.Goexit instead: see raise
}

// Error returns the value and the stack of the goroutine that panicked.
func (e *PanicError) Error() string {
	return fmt.Sprintf("sitemap: panic in a goroutine of the call: %v\n\n%s", e.Value, e.Stack)
}

// Unwrap returns the value when it is an error, so that [errors.Is] tells
// it, as it does http.ErrAbortHandler.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// newPanicError returns the *PanicError of v, recovered on a goroutine of a
// call whose stack is stack; v is kept as it is when it is a *PanicError
// already, raised again on its way up. A nil v is a runtime.Goexit, as
// recover gives nil for nothing else since Go 1.21.
func newPanicError(v any, stack []byte) *PanicError {
	if p, ok := v.(*PanicError); ok {
		return p
	}
	return &PanicError{Value: v, Stack: stack, goexit: v == nil}
}

// raise goes on with what ended the goroutine that panicked, on the
// goroutine that calls it: the panic, or runtime.Goexit (which a t.FailNow
// in a RoundTripper of a test calls).
func (e *PanicError) raise() {
	if e.goexit {
		runtime.Goexit()
	}
	panic(e)
}

// causedError is an error whose message is its own and whose cause, found
// by errors.Is and errors.As, is another: the sentinel of a limit
// (ErrMaxURLs and the rest), io.ErrUnexpectedEOF behind a document cut
// short, the *urlnorm.SiteError behind a URL on another host.
type causedError struct {
	msg   string
	cause error
}

func (e *causedError) Error() string { return e.msg }
func (e *causedError) Unwrap() error { return e.cause }

// tagged is an error that a later stage tells apart by where it arose,
// with errors.As and a *tagged[T]; its message and its chain are err's.
// Each T names the place, and holds in v what the later stage reads of
// it: see readerError, bodyError, partialError and ctxEndedError (of an
// empty T), statusError, notSitemapError and encodingError. One generic
// type serves them all, so that each is one line, not a type with its
// methods.
type tagged[T any] struct {
	err error
	v   T
}

func (e *tagged[T]) Error() string { return e.err.Error() }
func (e *tagged[T]) Unwrap() error { return e.err }
