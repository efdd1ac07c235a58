// Package sitemap reads the sitemaps of the web: XML urlsets and sitemap
// indexes, the Sitemap: lines of a robots.txt, RSS and Atom feeds and
// plain-text sitemaps, gzip compressed or not, in any encoding an XML
// declaration can name, with the Google image, news and video extensions and
// xhtml hreflang links.
//
// # Getting started
//
//	s, err := sitemap.New().ParseContext(ctx, "https://example.com/robots.txt", nil)
//	if err != nil {
//		// The document at the URL itself could not be fetched or parsed.
//		log.Fatal(err)
//	}
//	for u := range s.URLs() {
//		fmt.Println(u.Loc, u.LastMod)
//	}
//	for err := range s.Errors() {
//		// A sitemap it leads to, or an entry, was skipped, or a limit was reached.
//		log.Print(err)
//	}
//
// A call reads the document at the URL it is given, then every sitemap that
// document lists, and every sitemap those list in turn, to the depth
// configured. The error it returns is about the first document only: what
// goes wrong further on is recorded, and read with [S.GetErrors] or
// [S.Errors]. A call never fails over one bad sitemap or one bad entry.
//
// [S.ParseReader] and [S.StreamReader] read a document the caller fetched
// itself, from an io.Reader, and never fetch it; with [Selection.RootOnly]
// they fetch nothing at all. Every URL tells the sitemap it came from
// ([URL.Source]), and [S.GetDocuments] is the tree of a call: every
// document it came to know of, how it was found and what became of it.
//
// [S.Discover] and [S.DiscoverStream] start from a site rather than a
// document: they find the sitemaps that the site's robots.txt names, that
// its home page links to or announces as feeds, and that lie at the paths
// sitemap generators write to, then read them as the sitemaps a robots.txt
// names. Every place tried is a document of [S.GetDocuments]; with
// [Selection.RootOnly] discovery finds without reading further.
//
// # Beyond the spec
//
// What the package does beyond the sitemaps.org protocol is off by
// default, and each feature is set with one value: [Politeness] (the
// limits per host and the retries, [S.SetPoliteness]), [Incremental] (what
// changed since a time or since the last run, [S.SetIncremental]),
// [Selection] (which documents are read, [S.SetSelection]), the guard
// against internal addresses ([S.SetBlockPrivate], and
// [BlockPrivateDialer] for a client of one's own) and the [Store] of
// conditional fetching ([S.SetStore]; the package store holds one in
// memory and one in a file). A value that cannot be used is a
// *ConfigError naming its field, as for the other setters.
//
// # Formats
//
// The format of a document is told by its content, never by its name or its
// Content-Type: gzip by its magic bytes (every member of a multi-member
// file is read, and bytes after the last member that are no member are
// ignored); XML by its first character, and then by its root element
// (urlset, sitemapindex, rss, RDF for RSS 1.0, feed for Atom); anything else
// is a text sitemap. Only a robots.txt is told by its URL: the document
// passed to Parse is read as one when the last segment of its path is
// robots.txt, in any letter case.
//
//   - urlset: the <loc>, <lastmod>, <changefreq> and <priority> of every
//     <url>, and its extensions.
//   - sitemapindex: the <loc> and <lastmod> of every <sitemap>; the sitemaps
//     are listed by [S.GetSitemaps] and fetched in turn.
//   - robots.txt: the Sitemap: lines, in any letter case, indented or not,
//     with # starting a comment. Every other line is ignored.
//   - RSS 2.0 and 0.9x: the <link> of every <item>, with its <pubDate> (RFC
//     822) as the date. RSS 1.0: the <link> of every item, with its
//     <dc:date>.
//   - Atom 1.0 and 0.3: the first <link> of every <entry> whose rel is
//     alternate or missing, with its <updated> (Atom 0.3: <modified>).
//   - Text: every line that begins with http:// or https://.
//
// A feed item or entry without a link is skipped without an error. Only the
// date of the item itself is read, never one of the feed.
//
// A UTF-8 byte order mark at the start of a document is ignored. An XML
// document is transcoded from the encoding its declaration names (any of
// the WHATWG Encoding Standard but UTF-16) while it is read; the charset of
// the HTTP response is not consulted, and text and robots.txt documents are
// never transcoded. A document in UTF-16 or UTF-32, told by its byte order
// mark or by the zero bytes among its first four, is a *ParseError naming
// the encoding, in every format.
//
// # Tolerant and strict mode
//
// By default a call is tolerant: a relative location is resolved against the
// URL the document was served from; a space, a character outside ASCII and,
// outside the query, the characters " < > \ ^ ` { | } are percent-encoded;
// an internationalised host name is returned in Punycode, as a request would
// use it; a <changefreq> in another letter case is read as the value it
// stands for; a <priority> out of range is kept; and XML mistakes that can
// be read past (an unescaped &, an HTML entity, a missing end tag inside
// the document) are read past. A document that ends before its root's end
// tag was cut: its complete entries are kept and the cut is recorded as a
// *ParseError wrapping io.ErrUnexpectedEOF. A character reference to a code point XML forbids (&#0;, &#x1;,
// &#xFFFE;, a surrogate, one past U+10FFFF) costs only the entry it stands
// in, reported as a *ValidationError; strict mode rejects the document.
//
// [S.SetStrict] holds documents to the sitemaps.org protocol: a location
// must be an absolute HTTP or HTTPS URL on the host and protocol of its
// sitemap, free of spaces, control characters and the characters above, of
// at most 2,048 characters; <changefreq> must be one of the protocol's
// values as written, and <priority> a number from 0.0 to 1.0; a document
// that is not well-formed XML is rejected whole. Strict mode returns URLs as
// the document writes them.
//
// In both modes an entry without a location, or with one that names no host,
// is skipped and reported, and a value that cannot be parsed costs only
// itself: the field is left nil and a *ValidationError is recorded.
//
// # Limits
//
// Every call is bounded, whatever the documents say: the size of a
// response, decompressed or not ([S.SetMaxResponseSize], 50 MB), the depth
// of nested indexes ([S.SetMaxDepth], 10), the sitemaps fetched and listed
// ([S.SetMaxSitemaps], 50,000), the URLs kept ([S.SetMaxURLs], ten million),
// the validation errors recorded ([S.SetMaxValidationErrors], 100,000) and
// the sitemaps worked on at the same time ([S.SetMaxConcurrency], 16). A
// limit that is reached is recorded once as a *ParseError wrapping one of
// [ErrMaxResponseSize], [ErrMaxDepth], [ErrMaxSitemaps], [ErrMaxURLs] and
// [ErrMaxValidationErrors]. Documents are streamed from the network through
// decompression and decoding into the parser, never held whole. No DTD is
// processed and no entity it declares is expanded. A deadline on the
// context bounds the time.
//
// # Errors
//
// Every error recorded is one of four types, to be told apart with
// errors.As: *ConfigError (a setter rejected a value), *NetworkError (a
// document could not be fetched), *ParseError (a document could not be
// parsed, a limit was reached, or the context ended the call) and
// *ValidationError (an entry or a value was rejected).
//
// # Concurrency
//
// The methods of an [S] are safe for concurrent use. Calls of Parse on one
// instance run one after the other; the getters return at once, with what a
// running call has collected so far: the URLs of a document appear together,
// when it has been read. For parses that run side by side, use an instance
// each.
package sitemap
