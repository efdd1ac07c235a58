package main

import (
	"flag"
	"fmt"
	"io"
)

const usageHead = `Usage: sitemap [flags] URL|FILE|-
       sitemap discover [flags] SITE

sitemap reads a robots.txt, a sitemap index, a sitemap, an RSS or Atom feed
or a text sitemap, gzip compressed or not, follows the sitemaps it lists and
prints the URLs of the pages it finds.

A URL is fetched. A FILE, or standard input (-), is read as the document
located at -base, against which relative locations are resolved. Without
-base a FILE is located at its own file:// URL, and standard input at
file:///dev/stdin: relative locations are then reported as errors, not
guessed. A document whose URL (or -base) ends in robots.txt is read as a
robots.txt. Flags may stand before or after the argument.

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
    sitemap -sitemaps -follow '^$' https://example.com/sitemap-index.xml

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
          (null when the document gives none), and images, news, videos and
          hreflangs when the page has them. A sitemap: loc, lastmod. Dates are
          in RFC 3339.
  csv     a header row, then a row a URL: loc, lastmod, changefreq, priority,
          and images, news, videos, hreflangs as the number of each the page
          has (use jsonl for their fields). With -sitemaps: loc, lastmod.

Standard error gets one line an error, after the name of its type
(ConfigError, NetworkError, ParseError, ValidationError, or Error for one
that is not the library's), then a summary line: the documents fetched (the
FILE or standard input counts as one), the URLs, the sitemaps listed and
the errors. When standard error is a terminal, a progress line is redrawn
there while the run lasts.

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
