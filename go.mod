module github.com/gositemap/sitemap

go 1.26.0

require (
	golang.org/x/net v0.62.0
	golang.org/x/sync v0.25.0
	golang.org/x/text v0.44.0
	golang.org/x/time v0.16.0
)

require github.com/klauspost/compress v1.20.4
