package sitemap

import "strings"

// This file is the table of the rules: every rule of the protocol, of
// Google's extensions and of lint has one Code, one severity, and one
// check. A rule that strict mode has as well (its column strict says yes)
// is checked by one function that both modes call: strict mode records a
// failure as a *ValidationError whose cause wraps the Code, lint lists the
// same failure as a Finding of that Code. A rule is added by one entry in
// rules, its constant and its row in the table of [Code]; TestRuleTable
// holds the three together.

// Severity tells how much a [Finding] matters.
type Severity string

// The severities.
const (
	// SeverityError: a search engine rejects the document or the entry,
	// or the protocol forbids what it holds.
	SeverityError Severity = "error"
	// SeverityWarning: read, but probably not as meant.
	SeverityWarning Severity = "warning"
	// SeverityInfo: worth knowing; nothing to fix as such.
	SeverityInfo Severity = "info"
)

// rank orders the severities, the gravest first.
func (s Severity) rank() int {
	switch s {
	case SeverityError:
		return 0
	case SeverityWarning:
		return 1
	}
	return 2
}

// Code names a rule: what a [Finding] is about and, for the rules strict
// mode has as well, what a [ValidationError] is about. The codes are part
// of the API: a code keeps its meaning, and its severity, from one version
// to the next.
//
// A Code is an error, so that the cause of a *ValidationError can wrap the
// code of its rule, as encoding/csv's ParseError wraps ErrQuote:
// errors.Is(err, sitemap.CodeLocTooLong) tells a location strict mode found
// too long. Tolerant mode's validation errors wrap their code as well (a
// date that cannot be read, a <loc> missing or without a host). The message
// of the error stays the one the documentation gives. The column strict
// says whether strict mode records the rule as a *ValidationError; lint
// checks every rule.
//
//	code                   severity  strict  what                                               what to do
//	http-status            error     no      the document answered with another status than 200  serve it with 200
//	redirected             info      no      the request was redirected                         list the final URL
//	fetch-failed           error     no      no response came (connection, timeout, size)       check the server
//	not-xml                error     no      empty, white space only, no root element, UTF-16/32  serve a sitemap, in UTF-8
//	not-sitemap            error     no      a body Parse calls no sitemap (HTML, JSON, other XML)  serve a sitemap of a format read
//	xml-syntax             error     no      not well-formed XML that tolerant reading gets past  fix the XML (escape & as &amp;)
//	xml-declaration        error     no      something before the XML declaration (a BOM is not)  remove it
//	encoding               warning   no      not UTF-8, or bytes that are not what is declared   serve UTF-8
//	doctype                warning   no      a DOCTYPE or ENTITY declaration                    remove it
//	namespace              error     no      urlset or sitemapindex not in the sitemaps.org 0.9 namespace  use xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
//	too-many-urls          error     no      over 50,000 <url> in one sitemap                   split it, list the parts in an index
//	too-many-sitemaps      error     no      over 50,000 <sitemap> in one index                 split the index
//	too-large              error     no      over 52,428,800 bytes decompressed                 split it
//	nested-index           error     no      a sitemap index that an index lists                list the sitemaps themselves
//	empty                  error     no      a sitemap or index with no entry (a feed: warning)  remove it or fill it
//	loc-missing            error     yes     an entry whose <loc> is missing or empty           give every entry a <loc>
//	loc-invalid            error     yes     a <loc> that is no absolute HTTP(S) URL with a host  write the full URL
//	loc-too-long           error     yes     a <loc> of more than 2,048 characters              shorten it
//	loc-not-escaped        error     yes     a space, control or one of " < > \ ^ ` { | } in <loc>  percent-encode it
//	loc-other-host         error     yes     not on the host of the sitemap (lint: no cross-submission)  move it, or list the sitemap in that host's robots.txt
//	loc-other-scheme       error     yes     not on the protocol of the sitemap                 use the sitemap's protocol
//	loc-outside-path       warning   no      not below the directory of the sitemap             move the sitemap up
//	duplicate-loc          warning   no      a URL twice in one document (info: in two documents of the tree)  list it once
//	lastmod-invalid        error     yes     a <lastmod>, <pubDate> or <updated> that cannot be read  write W3C Datetime (2024-01-15)
//	lastmod-future         warning   no      a date later than the time of the call plus a day  give the time of the last change
//	lastmod-uniform        info      no      all entries (100 or more) carry the same date      give each page its own date
//	changefreq-invalid     error     yes     none of always hourly daily weekly monthly yearly never  write one of them, in lower case
//	priority-invalid       error     yes     not a number from 0.0 to 1.0                       write one
//	element-unknown        info      no      an element of the sitemaps namespace the schema does not have  remove it
//	element-order          warning   no      an element of the sitemaps namespace out of its place  put loc, lastmod, changefreq, priority in that order
//	image-loc-missing      error     yes     an <image:image> without <image:loc>               give it one
//	image-loc-invalid      error     yes     an <image:loc> or <image:license> that is no absolute HTTP(S) URL  write the full URL
//	image-too-many         error     no      over 1,000 images on one page                      keep 1,000
//	image-deprecated       info      no      <image:caption>, <image:title>, <image:geo_location> or <image:license>, which Google no longer reads  remove them
//	news-missing           error     yes     a news entry without publication name, language, publication date or title  add it
//	news-date-invalid      error     yes     a <news:publication_date> that cannot be read      write W3C Datetime
//	news-too-old           warning   no      a news article published more than two days before the call  drop it from the news sitemap
//	news-too-many          error     no      over 1,000 news entries in one sitemap             split it
//	news-language          error     no      a <news:language> that is no language code         write ISO 639 (en, zh-cn)
//	video-missing          error     yes     a video without thumbnail, title, description, or content or player location  add it
//	video-url-invalid      error     yes     a URL of a video (thumbnail, content, player, uploader) that is no absolute HTTP(S) URL  write the full URL
//	video-duration         error     yes     a <video:duration> that is not 1 to 28,800 seconds  fix it
//	video-rating           error     yes     a <video:rating> that is not 0.0 to 5.0            fix it
//	video-view-count       error     yes     a <video:view_count> that is no whole number       fix it
//	video-date-invalid     error     yes     a <video:expiration_date> or <video:publication_date> that cannot be read  write W3C Datetime
//	video-tags-many        error     yes     more than 32 <video:tag> in one video              keep 32
//	video-yes-no           error     yes     a family_friendly, requires_subscription or live that is neither yes nor no  write yes or no
//	video-restriction      error     yes     a <video:restriction> relationship that is neither allow nor deny, or a value that is no list of country codes  write allow or deny, and ISO 3166 codes
//	video-platform         error     yes     a <video:platform> relationship that is neither allow nor deny, or a value other than web, mobile, tv  write allow or deny, and those words
//	hreflang-attribute     error     yes     an alternate link without href, without hreflang, or whose rel is not alternate  give all three
//	hreflang-href-invalid  error     yes     an alternate link whose href is no absolute HTTP(S) URL  write the full URL
//	hreflang-code          error     no      an hreflang that is no language (and region) code, nor x-default  write a BCP 47 code
//	hreflang-self          warning   no      a page whose alternates do not list the page itself  add it
//	hreflang-return        warning   no      an alternate (read in the tree) that does not link back  link both ways
//	robots-disallowed      warning   no      a URL the site's robots.txt disallows for the user agent  allow it, or drop it
//	lint-capped            info      no      a cross-document set is full: its checks stopped   (raise nothing: a note)
//	config                 error     no      a configuration error outstanding on the instance  fix the setting
//	gzip-corrupt           error     no      a gzip stream that is broken or cut short          compress it again, serve it whole
//	element-repeated       error     no      an element of the sitemaps namespace given twice in one entry  give it once
//	attribute-unknown      warning   no      an attribute the schema does not allow on an element of the sitemaps namespace  remove it
//	loc-too-short          warning   no      a <loc> of fewer than the schema's 12 characters   write the full URL
//	lastmod-not-xsd        warning   no      a W3C date the schema's xsd:date and xsd:dateTime reject (no seconds, a year alone)  write 2024-01-15 or 2024-01-15T10:30:00+00:00
//	index-lastmod-behind   warning   no      a sitemap with entries dated later than the <lastmod> its index gives it  update the index's <lastmod>
//	sitemap-disallowed     error     no      a sitemap its host's robots.txt disallows for the user agent  allow it in robots.txt
//	not-in-robots          info      no      a sitemap read as the root that its host's robots.txt does not list  add a Sitemap: line
//	video-description-long error     no      a <video:description> of more than 2,048 characters  shorten it
//	video-content-is-page  error     no      a <video:content_loc> that is the page's own <loc>  give the URL of the video file
//	robots-sitemap-value   warning   no      a Sitemap: value read only by guessing: relative, a template, a directive run in, a host without a scheme  write one absolute URL a line
//	page-status            error     no      a page checked (LintOptions.CheckPages) answers 4xx or 5xx  fix the page, or drop it
//	page-redirect          warning   no      a page checked redirects; the message names where it ends  list the URL it ends at
//	page-noindex           error     no      a page checked says noindex (meta robots, or X-Robots-Tag)  index it, or drop it
//	page-canonical-other   warning   no      a page checked names another URL as canonical (link or Link header)  list the canonical URL
//	lastmod-stale          info      no      a page checked was modified (Last-Modified) after its <lastmod>  update the <lastmod>
//	hreflang-target-status warning   no      an alternate, among the pages checked, answers other than 200  link alternates that answer 200
//	page-unchecked         info      no      a page sampled could not be checked (budget, guard, 429 or 503)  (nothing is wrong with it as far as lint knows)
type Code string

// The codes of the rules, as the table of [Code] describes them.
const (
	CodeHTTPStatus          Code = "http-status"
	CodeRedirected          Code = "redirected"
	CodeFetchFailed         Code = "fetch-failed"
	CodeNotXML              Code = "not-xml"
	CodeNotSitemap          Code = "not-sitemap"
	CodeXMLSyntax           Code = "xml-syntax"
	CodeXMLDeclaration      Code = "xml-declaration"
	CodeEncoding            Code = "encoding"
	CodeDoctype             Code = "doctype"
	CodeNamespace           Code = "namespace"
	CodeTooManyURLs         Code = "too-many-urls"
	CodeTooManySitemaps     Code = "too-many-sitemaps"
	CodeTooLarge            Code = "too-large"
	CodeNestedIndex         Code = "nested-index"
	CodeEmpty               Code = "empty"
	CodeLocMissing          Code = "loc-missing"
	CodeLocInvalid          Code = "loc-invalid"
	CodeLocTooLong          Code = "loc-too-long"
	CodeLocNotEscaped       Code = "loc-not-escaped"
	CodeLocOtherHost        Code = "loc-other-host"
	CodeLocOtherScheme      Code = "loc-other-scheme"
	CodeLocOutsidePath      Code = "loc-outside-path"
	CodeDuplicateLoc        Code = "duplicate-loc"
	CodeLastmodInvalid      Code = "lastmod-invalid"
	CodeLastmodFuture       Code = "lastmod-future"
	CodeLastmodUniform      Code = "lastmod-uniform"
	CodeChangefreqInvalid   Code = "changefreq-invalid"
	CodePriorityInvalid     Code = "priority-invalid"
	CodeElementUnknown      Code = "element-unknown"
	CodeElementOrder        Code = "element-order"
	CodeImageLocMissing     Code = "image-loc-missing"
	CodeImageLocInvalid     Code = "image-loc-invalid"
	CodeImageTooMany        Code = "image-too-many"
	CodeImageDeprecated     Code = "image-deprecated"
	CodeNewsMissing         Code = "news-missing"
	CodeNewsDateInvalid     Code = "news-date-invalid"
	CodeNewsTooOld          Code = "news-too-old"
	CodeNewsTooMany         Code = "news-too-many"
	CodeNewsLanguage        Code = "news-language"
	CodeVideoMissing        Code = "video-missing"
	CodeVideoURLInvalid     Code = "video-url-invalid"
	CodeVideoDuration       Code = "video-duration"
	CodeVideoRating         Code = "video-rating"
	CodeVideoViewCount      Code = "video-view-count"
	CodeVideoDateInvalid    Code = "video-date-invalid"
	CodeVideoTagsMany       Code = "video-tags-many"
	CodeVideoYesNo          Code = "video-yes-no"
	CodeVideoRestriction    Code = "video-restriction"
	CodeVideoPlatform       Code = "video-platform"
	CodeHreflangAttribute   Code = "hreflang-attribute"
	CodeHreflangHrefInvalid Code = "hreflang-href-invalid"
	CodeHreflangCode        Code = "hreflang-code"
	CodeHreflangSelf        Code = "hreflang-self"
	CodeHreflangReturn      Code = "hreflang-return"
	CodeRobotsDisallowed    Code = "robots-disallowed"
	CodeLintCapped          Code = "lint-capped"
	CodeConfig              Code = "config"

	CodeGzipCorrupt          Code = "gzip-corrupt"
	CodeElementRepeated      Code = "element-repeated"
	CodeAttributeUnknown     Code = "attribute-unknown"
	CodeLocTooShort          Code = "loc-too-short"
	CodeLastmodNotXSD        Code = "lastmod-not-xsd"
	CodeIndexLastmodBehind   Code = "index-lastmod-behind"
	CodeSitemapDisallowed    Code = "sitemap-disallowed"
	CodeNotInRobots          Code = "not-in-robots"
	CodeVideoDescriptionLong Code = "video-description-long"
	CodeVideoContentIsPage   Code = "video-content-is-page"
	CodeRobotsSitemapValue   Code = "robots-sitemap-value"

	// The codes of the page checks (LintOptions.CheckPages).
	CodePageStatus           Code = "page-status"
	CodePageRedirect         Code = "page-redirect"
	CodePageNoindex          Code = "page-noindex"
	CodePageCanonicalOther   Code = "page-canonical-other"
	CodeLastmodStale         Code = "lastmod-stale"
	CodeHreflangTargetStatus Code = "hreflang-target-status"
	CodePageUnchecked        Code = "page-unchecked"
)

// rule is an entry of the table: a code, its severity, whether strict mode
// records it as a *ValidationError, and the words of the table of [Code].
type rule struct {
	code   Code
	sev    Severity
	strict bool
	what   string
	todo   string
}

// The columns of rules, named short so that an entry stays on a line.
const (
	sevE, sevW, sevI = SeverityError, SeverityWarning, SeverityInfo
	both, lintOnly   = true, false
)

// rules is the table of every rule, in the order of the table of [Code].
var rules = [...]rule{
	{CodeHTTPStatus, sevE, lintOnly, "the document answered with another status than 200", "serve it with 200"},
	{CodeRedirected, sevI, lintOnly, "the request was redirected", "list the final URL"},
	{CodeFetchFailed, sevE, lintOnly, "no response came (connection, timeout, size)", "check the server"},
	{CodeNotXML, sevE, lintOnly, "empty, white space only, no root element, UTF-16/32", "serve a sitemap, in UTF-8"},
	{CodeNotSitemap, sevE, lintOnly, "a body Parse calls no sitemap (HTML, JSON, other XML)", "serve a sitemap of a format read"},
	{CodeXMLSyntax, sevE, lintOnly, "not well-formed XML that tolerant reading gets past", "fix the XML (escape & as &amp;)"},
	{CodeXMLDeclaration, sevE, lintOnly, "something before the XML declaration (a BOM is not)", "remove it"},
	{CodeEncoding, sevW, lintOnly, "not UTF-8, or bytes that are not what is declared", "serve UTF-8"},
	{CodeDoctype, sevW, lintOnly, "a DOCTYPE or ENTITY declaration", "remove it"},
	{CodeNamespace, sevE, lintOnly, "urlset or sitemapindex not in the sitemaps.org 0.9 namespace", `use xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"`},
	{CodeTooManyURLs, sevE, lintOnly, "over 50,000 <url> in one sitemap", "split it, list the parts in an index"},
	{CodeTooManySitemaps, sevE, lintOnly, "over 50,000 <sitemap> in one index", "split the index"},
	{CodeTooLarge, sevE, lintOnly, "over 52,428,800 bytes decompressed", "split it"},
	{CodeNestedIndex, sevE, lintOnly, "a sitemap index that an index lists", "list the sitemaps themselves"},
	{CodeEmpty, sevE, lintOnly, "a sitemap or index with no entry (a feed: warning)", "remove it or fill it"},
	{CodeLocMissing, sevE, both, "an entry whose <loc> is missing or empty", "give every entry a <loc>"},
	{CodeLocInvalid, sevE, both, "a <loc> that is no absolute HTTP(S) URL with a host", "write the full URL"},
	{CodeLocTooLong, sevE, both, "a <loc> of more than 2,048 characters", "shorten it"},
	{CodeLocNotEscaped, sevE, both, "a space, control or one of \" < > \\ ^ ` { | } in <loc>", "percent-encode it"},
	{CodeLocOtherHost, sevE, both, "not on the host of the sitemap (lint: no cross-submission)", "move it, or list the sitemap in that host's robots.txt"},
	{CodeLocOtherScheme, sevE, both, "not on the protocol of the sitemap", "use the sitemap's protocol"},
	{CodeLocOutsidePath, sevW, lintOnly, "not below the directory of the sitemap", "move the sitemap up"},
	{CodeDuplicateLoc, sevW, lintOnly, "a URL twice in one document (info: in two documents of the tree)", "list it once"},
	{CodeLastmodInvalid, sevE, both, "a <lastmod>, <pubDate> or <updated> that cannot be read", "write W3C Datetime (2024-01-15)"},
	{CodeLastmodFuture, sevW, lintOnly, "a date later than the time of the call plus a day", "give the time of the last change"},
	{CodeLastmodUniform, sevI, lintOnly, "all entries (100 or more) carry the same date", "give each page its own date"},
	{CodeChangefreqInvalid, sevE, both, "none of always hourly daily weekly monthly yearly never", "write one of them, in lower case"},
	{CodePriorityInvalid, sevE, both, "not a number from 0.0 to 1.0", "write one"},
	{CodeElementUnknown, sevI, lintOnly, "an element of the sitemaps namespace the schema does not have", "remove it"},
	{CodeElementOrder, sevW, lintOnly, "an element of the sitemaps namespace out of its place", "put loc, lastmod, changefreq, priority in that order"},
	{CodeImageLocMissing, sevE, both, "an <image:image> without <image:loc>", "give it one"},
	{CodeImageLocInvalid, sevE, both, "an <image:loc> or <image:license> that is no absolute HTTP(S) URL", "write the full URL"},
	{CodeImageTooMany, sevE, lintOnly, "over 1,000 images on one page", "keep 1,000"},
	{CodeImageDeprecated, sevI, lintOnly, "<image:caption>, <image:title>, <image:geo_location> or <image:license>, which Google no longer reads", "remove them"},
	{CodeNewsMissing, sevE, both, "a news entry without publication name, language, publication date or title", "add it"},
	{CodeNewsDateInvalid, sevE, both, "a <news:publication_date> that cannot be read", "write W3C Datetime"},
	{CodeNewsTooOld, sevW, lintOnly, "a news article published more than two days before the call", "drop it from the news sitemap"},
	{CodeNewsTooMany, sevE, lintOnly, "over 1,000 news entries in one sitemap", "split it"},
	{CodeNewsLanguage, sevE, lintOnly, "a <news:language> that is no language code", "write ISO 639 (en, zh-cn)"},
	{CodeVideoMissing, sevE, both, "a video without thumbnail, title, description, or content or player location", "add it"},
	{CodeVideoURLInvalid, sevE, both, "a URL of a video (thumbnail, content, player, uploader) that is no absolute HTTP(S) URL", "write the full URL"},
	{CodeVideoDuration, sevE, both, "a <video:duration> that is not 1 to 28,800 seconds", "fix it"},
	{CodeVideoRating, sevE, both, "a <video:rating> that is not 0.0 to 5.0", "fix it"},
	{CodeVideoViewCount, sevE, both, "a <video:view_count> that is no whole number", "fix it"},
	{CodeVideoDateInvalid, sevE, both, "a <video:expiration_date> or <video:publication_date> that cannot be read", "write W3C Datetime"},
	{CodeVideoTagsMany, sevE, both, "more than 32 <video:tag> in one video", "keep 32"},
	{CodeVideoYesNo, sevE, both, "a family_friendly, requires_subscription or live that is neither yes nor no", "write yes or no"},
	{CodeVideoRestriction, sevE, both, "a <video:restriction> relationship that is neither allow nor deny, or a value that is no list of country codes", "write allow or deny, and ISO 3166 codes"},
	{CodeVideoPlatform, sevE, both, "a <video:platform> relationship that is neither allow nor deny, or a value other than web, mobile, tv", "write allow or deny, and those words"},
	{CodeHreflangAttribute, sevE, both, "an alternate link without href, without hreflang, or whose rel is not alternate", "give all three"},
	{CodeHreflangHrefInvalid, sevE, both, "an alternate link whose href is no absolute HTTP(S) URL", "write the full URL"},
	{CodeHreflangCode, sevE, lintOnly, "an hreflang that is no language (and region) code, nor x-default", "write a BCP 47 code"},
	{CodeHreflangSelf, sevW, lintOnly, "a page whose alternates do not list the page itself", "add it"},
	{CodeHreflangReturn, sevW, lintOnly, "an alternate (read in the tree) that does not link back", "link both ways"},
	{CodeRobotsDisallowed, sevW, lintOnly, "a URL the site's robots.txt disallows for the user agent", "allow it, or drop it"},
	{CodeLintCapped, sevI, lintOnly, "a cross-document set is full: its checks stopped", "(raise nothing: a note)"},
	{CodeConfig, sevE, lintOnly, "a configuration error outstanding on the instance", "fix the setting"},
	{CodeGzipCorrupt, sevE, lintOnly, "a gzip stream that is broken or cut short", "compress it again, serve it whole"},
	{CodeElementRepeated, sevE, lintOnly, "an element of the sitemaps namespace given twice in one entry", "give it once"},
	{CodeAttributeUnknown, sevW, lintOnly, "an attribute the schema does not allow on an element of the sitemaps namespace", "remove it"},
	{CodeLocTooShort, sevW, lintOnly, "a <loc> of fewer than the schema's 12 characters", "write the full URL"},
	{CodeLastmodNotXSD, sevW, lintOnly, "a W3C date the schema's xsd:date and xsd:dateTime reject (no seconds, a year alone)", "write 2024-01-15 or 2024-01-15T10:30:00+00:00"},
	{CodeIndexLastmodBehind, sevW, lintOnly, "a sitemap with entries dated later than the <lastmod> its index gives it", "update the index's <lastmod>"},
	{CodeSitemapDisallowed, sevE, lintOnly, "a sitemap its host's robots.txt disallows for the user agent", "allow it in robots.txt"},
	{CodeNotInRobots, sevI, lintOnly, "a sitemap read as the root that its host's robots.txt does not list", "add a Sitemap: line"},
	{CodeVideoDescriptionLong, sevE, lintOnly, "a <video:description> of more than 2,048 characters", "shorten it"},
	{CodeVideoContentIsPage, sevE, lintOnly, "a <video:content_loc> that is the page's own <loc>", "give the URL of the video file"},
	{CodeRobotsSitemapValue, sevW, lintOnly, "a Sitemap: value read only by guessing: relative, a template, a directive run in, a host without a scheme", "write one absolute URL a line"},
	{CodePageStatus, sevE, lintOnly, "a page checked (LintOptions.CheckPages) answers 4xx or 5xx", "fix the page, or drop it"},
	{CodePageRedirect, sevW, lintOnly, "a page checked redirects; the message names where it ends", "list the URL it ends at"},
	{CodePageNoindex, sevE, lintOnly, "a page checked says noindex (meta robots, or X-Robots-Tag)", "index it, or drop it"},
	{CodePageCanonicalOther, sevW, lintOnly, "a page checked names another URL as canonical (link or Link header)", "list the canonical URL"},
	{CodeLastmodStale, sevI, lintOnly, "a page checked was modified (Last-Modified) after its <lastmod>", "update the <lastmod>"},
	{CodeHreflangTargetStatus, sevW, lintOnly, "an alternate, among the pages checked, answers other than 200", "link alternates that answer 200"},
	{CodePageUnchecked, sevI, lintOnly, "a page sampled could not be checked (budget, guard, 429 or 503)", "(nothing is wrong with it as far as lint knows)"},
}

// ruleIndex finds the entry of a code in rules.
var ruleIndex = func() map[Code]*rule {
	m := make(map[Code]*rule, len(rules))
	for i := range rules {
		m[rules[i].code] = &rules[i]
	}
	return m
}()

// Error returns the code itself: a Code is the error that the cause of a
// *ValidationError of its rule wraps, for [errors.Is].
func (code Code) Error() string { return string(code) }

// Severity returns the severity of the findings of code (that of
// duplicate-loc within one document; across documents it is info). A code
// that is none of the table's is an error.
func (code Code) Severity() Severity {
	if r := ruleIndex[code]; r != nil {
		return r.sev
	}
	return SeverityError
}

// Help returns the words of the table of [Code] for code: what its
// findings are about, and what to do about them; "" for a code that is
// none of the table's.
func (code Code) Help() (what, todo string) {
	if r := ruleIndex[code]; r != nil {
		return r.what, r.todo
	}
	return "", ""
}

// violation is the cause of the *ValidationError of a rule: its message is
// err's, the one the documentation gives, and errors.Is and errors.As find
// both the rule's Code and what err wraps (urlnorm.ErrTooLong, the
// *urlnorm.SiteError of a host).
type violation struct {
	code Code
	err  error
}

func (v *violation) Error() string   { return v.err.Error() }
func (v *violation) Unwrap() []error { return []error{v.err, v.code} }

// broke returns err as the failure of the rule of code. A nil err stays
// nil, and one that is the failure of a rule already stays as it is.
func broke(code Code, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(*violation); ok {
		return err
	}
	return &violation{code, err}
}

// ruleOf returns the code of the rule err is the failure of, "" when it is
// none's.
func ruleOf(err error) Code {
	for err != nil {
		switch e := err.(type) {
		case *violation:
			return e.code
		case interface{ Unwrap() error }:
			err = e.Unwrap()
		default:
			return ""
		}
	}
	return ""
}

// lintMessage is the message of a finding of a rule strict mode has too:
// that of strict mode's error, without the words that say it is strict
// mode's.
func lintMessage(err error) string {
	return strings.TrimPrefix(err.Error(), "strict mode: ")
}
