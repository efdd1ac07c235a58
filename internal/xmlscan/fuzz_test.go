package xmlscan

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// maxValueLength is the cut of the sitemap package's values, and attrsRead
// its table of the attributes it reads: the fuzz targets read documents
// through the table the scanner's one caller hands it.
const maxValueLength = 64 << 10

var attrsRead = &AttrTable{
	Elems: map[string][]string{
		"link":        {"rel", "hreflang", "href"},
		"restriction": {"relationship"},
		"platform":    {"relationship"},
		"uploader":    {"info"},
	},
	Keep: maxValueLength,
}

// fuzzSeeds are realistic documents of every format the parse stage reads.
var fuzzSeeds = []string{
	`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
        xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"
        xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"
        xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <url>
    <loc>https://example.com/page?a=1&amp;b=2</loc>
    <lastmod>2024-03-01T10:00:00+01:00</lastmod>
    <changefreq>weekly</changefreq>
    <priority>0.5</priority>
    <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/page"/>
    <xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/page" />
    <image:image>
      <image:loc>https://example.com/a.jpg</image:loc>
      <image:caption><![CDATA[A caption & more]]></image:caption>
    </image:image>
    <news:news>
      <news:publication><news:name>The Paper</news:name><news:language>en</news:language></news:publication>
      <news:publication_date>2024-03-01</news:publication_date>
      <news:title>Headline &#8212; &quot;quoted&quot;</news:title>
    </news:news>
    <video:video>
      <video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc>
      <video:title>Grilling steaks</video:title>
      <video:description>Alkis shows you how.</video:description>
      <video:player_loc allow_embed="yes">https://example.com/player?v=1</video:player_loc>
      <video:duration>600</video:duration>
      <video:restriction relationship="allow">IE GB US CA</video:restriction>
      <video:tag>steak</video:tag>
    </video:video>
  </url>
</urlset>`,
	"<?xml version='1.0' encoding='UTF-8'?>\r\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\r\n" +
		"  <sitemap>\r\n    <loc>https://example.com/sitemap1.xml.gz</loc>\r\n    <lastmod>2024-01-01</lastmod>\r\n  </sitemap>\r\n" +
		"  <!-- more to come -->\r\n</sitemapindex>\r\n",
	`<?xml version="1.0"?>
<?xml-stylesheet type="text/xsl" href="/sitemap.xsl"?>
<!DOCTYPE urlset PUBLIC "-//W3C//DTD" "http://example.com/sitemap.dtd" [
  <!ENTITY site "https://example.com">
  <!-- a > comment -->
]>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>&site;/x</loc></url></urlset>`,
	`<?xml version="1.0" encoding="ISO-8859-1"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel>
  <title>News &amp; Views</title>
  <link>https://example.com/</link>
  <atom:link href="https://example.com/feed" rel="self" type="application/rss+xml" />
  <item>
    <title>First post</title>
    <link>https://example.com/1</link>
    <description>&lt;p&gt;Hello&lt;/p&gt;&nbsp;<![CDATA[<b>bold</b>]]></description>
    <pubDate>Mon, 02 Jan 2006 15:04:05 -0700</pubDate>
    <dc:creator>A. Writer</dc:creator>
    <guid isPermaLink="false">id-1</guid>
  </item>
</channel>
</rss>`,
	`<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">
  <title type="text">Example Feed</title>
  <link href="http://example.org/"/>
  <updated>2003-12-13T18:30:02Z</updated>
  <author><name>John Doe</name></author>
  <id>urn:uuid:60a76c80-d399-11d9-b93C-0003939e0af6</id>
  <entry>
    <title>Atom-Powered Robots Run Amok</title>
    <link rel="alternate" href="http://example.org/2003/12/13/atom03"/>
    <id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a</id>
    <updated>2003-12-13T18:30:02Z</updated>
    <summary type="html">Some &lt;b&gt;text&lt;/b&gt;.</summary>
  </entry>
</feed>`,
	`<html><head><title>Not a sitemap</title><meta name=robots content=noindex></head><body><p>Fish &amp chips<br>&copy; 2024</body></html>`,
}

// FuzzScanDifferential feeds the same bytes to encoding/xml and to the
// scanner. In both modes they must accept or reject the document alike, and
// when encoding/xml accepts it they must give the same tokens; the scanner
// must give them through a one-byte reader into a tiny buffer too. Where the
// scanner departs from encoding/xml by design (scanDeparts), it is held to
// what it gives read whole.
func FuzzScanDifferential(f *testing.F) {
	for _, c := range scanCases {
		f.Add([]byte(c.doc))
	}
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		for _, strict := range []bool{true, false} {
			want, wantErr := tokenStream(newStdTokenizer(bytes.NewReader(doc), strict))
			// The buffer goes back to the pool, for a later input to read
			// with what this one left in it.
			tk := newScanner(bytes.NewReader(doc), strict)
			got, gotErr := tokenStream(tk)
			tk.Release()
			if scanDeparts(got, gotErr, strict) || hasLongRef(doc) {
				// By design: the scanner is held to itself instead.
				want, wantErr = got, gotErr
			}
			ok := wantErr == io.EOF
			if (gotErr == io.EOF) != ok {
				t.Fatalf("strict %v: scanner error %v, encoding/xml error %v\ngot  %q\nwant %q", strict, errText(gotErr), errText(wantErr), got, want)
			}
			if ok && !slices.Equal(got, want) {
				t.Fatalf("strict %v: streams differ\ngot  %q\nwant %q", strict, got, want)
			}
			small, smallErr := tokenStream(newScannerSize(iotest.OneByteReader(bytes.NewReader(doc)), strict, 16))
			if (smallErr == io.EOF) != ok {
				t.Fatalf("strict %v, one byte at a time: scanner error %v, encoding/xml error %v", strict, errText(smallErr), errText(wantErr))
			}
			if ok && !slices.Equal(small, want) {
				t.Fatalf("strict %v, one byte at a time: streams differ\ngot  %q\nwant %q", strict, small, want)
			}
		}
	})
}

// fuzzExpand makes doc hostile: each 0x01 after a byte c becomes c repeated
// 200,000 times (past the buffer), at most eight times, so that the fuzzer
// can build a huge name, value, comment, run of space or anything else out
// of a few bytes.
func fuzzExpand(doc []byte) []byte {
	var out []byte
	n := 0
	for i, c := range doc {
		if c == 1 && i > 0 && n < 8 {
			out = append(out, bytes.Repeat(doc[i-1:i], 200_000)...)
			n++
			continue
		}
		out = append(out, c)
	}
	return out
}

// FuzzScanBounded holds the scanner to a heap property (issue 13, item 2):
// whatever the document, however long its tokens, what the scanner holds is
// bounded by its caps, not by the document. Its buffer never grows past
// the size it started at, no text or value it hands out is longer than the
// buffer or its cap, and its side arenas stay under what the caps allow.
func FuzzScanBounded(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		"<a x=\"v\x01\"/>", "<a>&#0\x01;</a>", "<!--c\x01-->", "<?p x\x01?>", "<!DOCTYPE a [<!-- \x01 -->]>",
		"<a \x01/>", "<a></a \x01>", "<a\x01></a>", "<a x=v\x01 />", "<?xml \x01?>", "<a><![CDATA[c\x01]]></a>",
		"<link href=\"h\x01\" rel=\"r\"/>", "<a xmlns:p=\"u\x01\"/>",
	} {
		f.Add([]byte(s))
	}
	// What the caps allow the arenas, twice over for append's growth.
	const tagBound = 2 * (maxNameLength + maxNSDecls*(maxNameLength+maxNSURILength+1) + maxKeptAttrs*(maxNameLength+maxValueLength+1))
	const stkBound = 2 * (MaxNesting*2*maxNameLength + maxNSBindings*(maxNameLength+maxNSURILength+1))
	f.Fuzz(func(t *testing.T, doc []byte) {
		// The attributes the table drops are only those the parse stage
		// does not read: read through the table, the document gives the
		// tokens it gives whole, less those attributes.
		for _, strict := range []bool{true, false} {
			want, wantErr := tokenStream(keptOnly{newScanner(bytes.NewReader(doc), strict)})
			tk := newScannerSize(bytes.NewReader(doc), strict, 16)
			tk.keep = attrsRead
			got, gotErr := tokenStream(tk)
			if gotErr != nil && strings.Contains(gotErr.Error(), "attributes read") {
				continue
			}
			// Text before an error may come in other chunks: the tokens
			// are compared when the document is read to its end.
			if (gotErr == io.EOF) != (wantErr == io.EOF) || wantErr == io.EOF && !slices.Equal(got, want) {
				t.Fatalf("strict %v: through the table %v\n%q\nwhole %v\n%q", strict, gotErr, got, wantErr, want)
			}
		}
		doc = fuzzExpand(doc)
		for _, strict := range []bool{true, false} {
			tk := newScanner(bytes.NewReader(doc), strict)
			tk.keep = attrsRead
			for range 100_000 {
				tok, err := tk.Next()
				if err != nil {
					break
				}
				if len(tk.buf) != scanBufSize {
					t.Fatalf("strict %v: the buffer grew to %d bytes", strict, len(tk.buf))
				}
				if len(tok.Text) > scanBufSize {
					t.Fatalf("strict %v: %d bytes of text at once", strict, len(tok.Text))
				}
				for _, a := range tok.Attrs {
					if len(a.Value) > max(attrsRead.Keep+1, maxNSURILength) {
						t.Fatalf("strict %v: a value of %d bytes kept", strict, len(a.Value))
					}
				}
				if cap(tk.tagArena) > tagBound || cap(tk.arena) > stkBound {
					t.Fatalf("strict %v: arenas of %d and %d bytes", strict, cap(tk.tagArena), cap(tk.arena))
				}
			}
			tk.Release()
		}
	})
}

// keptOnly is a tokenizer that drops the attributes attrsRead does not
// read, and cuts the values of those it does, from the tokens of t.
type keptOnly struct{ t tokenizer }

func (k keptOnly) Next() (*Token, error) {
	tok, err := k.t.Next()
	if err != nil || tok.Kind != Start {
		return tok, err
	}
	attrs := tok.Attrs[:0]
	for _, a := range tok.Attrs {
		if attrsRead.wants(tok.Name.Local, a.Name.Local) {
			a.Value = a.Value[:min(len(a.Value), attrsRead.Keep+1)]
			attrs = append(attrs, a)
		}
	}
	tok.Attrs = attrs
	return tok, nil
}
