// Command site serves a loopback site shaped as W3's for the speed figures
// of the fleet: an index of -sitemaps sitemaps of -urls URLs each, every
// response after -latency, with -etag an ETag, and 304 Not Modified when it
// is sent back. It prints the URL of the index and serves until killed.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"time"
)

func main() {
	n := flag.Int("sitemaps", 200, "how many sitemaps the index lists")
	m := flag.Int("urls", 50, "how many URLs each sitemap lists")
	latency := flag.Duration("latency", 20*time.Millisecond, "the time before each response")
	etag := flag.Bool("etag", false, "give each document an ETag, and answer 304 Not Modified when it is sent back")
	flag.Parse()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	base := "http://" + l.Addr().String()
	fmt.Println(base + "/index.xml")
	log.Fatal(http.Serve(l, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(*latency)
		if *etag {
			// The documents never change: their path is their ETag.
			tag := `"` + r.URL.Path + `"`
			w.Header().Set("ETag", tag)
			if r.Header.Get("If-None-Match") == tag {
				w.WriteHeader(http.StatusNotModified)
				return
			}
		}
		var b bytes.Buffer
		if r.URL.Path == "/index.xml" {
			b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			for i := range *n {
				fmt.Fprintf(&b, "<sitemap><loc>%s/s/%d.xml</loc></sitemap>", base, i)
			}
			b.WriteString("</sitemapindex>")
			w.Write(b.Bytes())
			return
		}
		var i int
		if _, err := fmt.Sscanf(r.URL.Path, "/s/%d.xml", &i); err != nil || i >= *n {
			http.NotFound(w, r)
			return
		}
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for j := range *m {
			fmt.Fprintf(&b, "<url><loc>https://www.w3.example/%d/%d.html</loc><lastmod>2024-01-%02dT10:00:00Z</lastmod></url>", i, j, j%28+1)
		}
		b.WriteString("</urlset>")
		w.Write(b.Bytes())
	})))
}
