package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/gositemap/sitemap/internal/printable"
)

const usageHead = `Usage: sitemap [flags] URL|FILE|-
       sitemap tree [flags] URL|FILE|-
       sitemap discover [flags] SITE
       sitemap report [flags] URL|FILE|- > report.html

sitemap reads a robots.txt, a sitemap index, a sitemap, an RSS or Atom feed
or a text sitemap, gzip compressed or not, follows the sitemaps it lists and
prints the URLs of the pages it finds, as they come. sitemap tree prints
the documents it read instead: one a line, indented under the one that
listed it, with its status, format, URLs, errors, size and time.

"sitemap tree" takes the same flags but -sitemaps; to read a file named
tree, write ./tree.

A URL is fetched; one with no path, such as https://example.com, names a
site, whose sitemaps are discovered first (see sitemap discover -h), and
standard error says which were found. A FILE, or standard input (-), is
read as the document located at -base, against which relative locations
are resolved: the sitemaps it lists are fetched from there.

Without -base, a FILE stands for itself: the sitemaps it lists by relative
locations are read from its directory or below it, never from above it (a
path with .., a path from the root such as /sitemap.xml, and a symbolic link
that leads out are refused), and a page it lists by a relative location is
reported rather than guessed. In strict mode, which wants every location
absolute and on the site of its sitemap, the FILE is taken to be on the site
of its first location. Standard input without -base is located at
file:///dev/stdin, where relative locations are errors.

A document whose URL (or -base) ends in robots.txt is read as a robots.txt;
-robots reads any FILE or standard input as one. Flags may stand before or
after the argument.

Examples:
  The URLs of a site, from the sitemaps its robots.txt names:
    sitemap https://example.com/robots.txt

  The URLs of a site, from every sitemap discovery finds (a URL with no
  path: robots.txt, the home page's links and feeds, the well-known paths):
    sitemap https://example.com

  Where the sitemaps of a site are, and what every place tried came to:
    sitemap discover https://example.com

  The URLs of a sitemap index and of every sitemap it lists:
    sitemap https://example.com/sitemap-index.xml

  Every field (dates, priorities, images, news, videos, hreflang links),
  one JSON object a line:
    sitemap -format jsonl https://example.com/sitemap.xml

  A table for a spreadsheet:
    sitemap -format csv https://example.com/sitemap.xml > urls.csv

  The sitemaps an index lists, with their dates, without fetching them:
    sitemap -sitemaps -no-follow https://example.com/sitemap-index.xml

  The tree of a site's sitemaps, and the health of each; as JSON:
    sitemap tree https://example.com/robots.txt
    sitemap tree -format json https://example.com/robots.txt

  A saved index and the saved sitemaps beside it:
    sitemap sitemaps/sitemap-index.xml

  A robots.txt saved under another name:
    sitemap -robots robots-2024.txt

  Only the product pages, from the product sitemaps only:
    sitemap -follow 'products' -rules '/products/' https://example.com/sitemap-index.xml

  A file saved from a site, its relative locations resolved against it:
    sitemap -base https://example.com/sitemap.xml sitemap.xml

  A compressed sitemap from standard input:
    curl -s https://example.com/sitemap.xml.gz | sitemap -base https://example.com/sitemap.xml.gz -

  Check a sitemap against the protocol, showing only what is wrong:
    sitemap -strict https://example.com/sitemap.xml > /dev/null

  A bounded run on a site you do not trust:
    sitemap -max-urls 100000 -max-sitemaps 100 -max-response-size 10485760 -timeout 10s URL

  Politely, one request at a time, with a user agent of your own:
    sitemap -sequential -user-agent 'mybot/1.0 (+https://example.org/bot)' URL

Flags:
`

const usageTail = `
Output:
  text    one URL a line; with -sitemaps, the sitemap's URL and, after a tab,
          its date when it has one.
  jsonl   one JSON object a line. A URL: loc, lastmod, changefreq and priority
          (null when the document gives none), images, news, videos and
          hreflangs when the page has them, and sitemap, the URL of the
          sitemap that lists it. A sitemap: loc, lastmod. Dates are in
          RFC 3339.
  csv     a header row, then a row a URL: loc, lastmod, changefreq, priority,
          images, news, videos, hreflangs as the number of each the page has
          (use jsonl for their fields), and sitemap. With -sitemaps: loc,
          lastmod.
  The URLs are written as they are found, in batches, so a pipe gets the
  first ones as soon as the first sitemap is read, and memory stays flat
  however many there are. A sitemap read from a local file is shown by its
  path.

  With -state, each URL is compared with the last run's: jsonl gives it a
  "change" field (new, lastmod, unchanged, or gone), csv a change column.
  The text output stays the list of the URLs the site has: the gone are
  left out of it, and counted in the summary; -changes prints the changes
  only, marked + ~ and -. The listing of -sitemaps, and sitemap tree, carry
  no change.

  With -no-follow, the document given is read (and fetched when it is a
  URL), the sitemaps it lists are listed and none is fetched: the listing
  has the URLs of the document given only, -sitemaps prints the sitemaps
  and sitemap tree shows them, not followed.

sitemap tree:
  text    a line a document, in the order the call came to know them,
          indented two spaces a level under the one that listed it:
            URL (FORMAT, STATUS[, from HOW]): N URLs, N errors, SIZE, TIME
          then what the listing limit left out of what it lists, and after a
          dash the error that failed it or left it out, after the name of its
          type. HOW is robots for a sitemap a robots.txt names. STATUS is one
          of parsed, partial, failed, not-followed (-follow, -no-follow),
          limited (-max-depth, -max-sitemaps, -max-urls), not-reached (the run
          was cut short) or duplicate (a redirect led to another document).
  json    a JSON array of the documents: url, found (root, robots, index),
          parent (the index in the array of the document that listed it, -1
          for the first), depth, status, error (null, or its line as above),
          format, final_url, http_status, content_type, etag,
          last_modified, wire_bytes, decoded_bytes, urls, errors,
          duration_ms, lastmod and left_out (the sitemaps it listed that
          the listing limit left out).

Standard error gets one line an error, after the name of its type
(ConfigError, NetworkError, ParseError, ValidationError, or Error for one
that is not the library's), then a summary line: the documents fetched (the
FILE or standard input counts as one), the URLs, the sitemaps listed and
the errors. Lines that begin with Note: are no errors: hints about the
input. When standard error is a terminal, a progress line is redrawn there
while the run lasts: the documents done, being read and waiting, and the
URLs found.

Exit status: 0 when the document given was read, even if sitemaps it lists
or entries in it were not; 1 when it was not read, or the run was
interrupted; 2 when the flags or the argument are wrong.
`

// usage writes the usage text to w.
func (c *command) usage(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprint(w, usageHead)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	fmt.Fprint(w, usageTail)
}

// usageError writes the line of a usage error of the command name
// (sitemap, sitemap lint...), escaped as every line of standard error is:
// it may quote the user's own argument, an unknown flag as it was given
// among them. It returns the exit status of a usage error.
func (c *command) usageError(name string, err error) int {
	fmt.Fprintf(c.stderr, "%s: %s\nRun '%s -h' for usage.\n", name, printable.Escape(err.Error()), name)
	return exitUsage
}
