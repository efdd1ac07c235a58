// Package sitemap reads the sitemaps of the web: XML urlsets and sitemap
// indexes, the Sitemap: lines of a robots.txt, RSS 2.0 and Atom 1.0 feeds
// and plain-text sitemaps, gzip compressed or not, in any XML encoding.
package sitemap
