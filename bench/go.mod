module github.com/gositemap/sitemap/bench

go 1.26.0

require (
	github.com/gositemap/sitemap v0.0.0-00010101000000-000000000000
	github.com/klauspost/compress v1.20.4
	github.com/orisano/gosax v1.1.4
)

require (
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sync v0.25.0 // indirect
	golang.org/x/text v0.44.0 // indirect
	golang.org/x/time v0.16.0 // indirect
)

replace github.com/gositemap/sitemap => ../
