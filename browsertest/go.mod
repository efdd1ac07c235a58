module github.com/gositemap/sitemap/browsertest

go 1.26.0

replace (
	github.com/gositemap/sitemap => ../
	github.com/gositemap/sitemap/bench => ../bench
)

require (
	github.com/chromedp/cdproto v0.160.1
	github.com/chromedp/chromedp v0.23.1
	github.com/gositemap/sitemap v0.0.0-00010101000000-000000000000
	github.com/gositemap/sitemap/bench v0.0.0-00010101000000-000000000000
)

require (
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/klauspost/compress v1.20.4 // indirect
	github.com/orisano/gosax v1.1.4 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sync v0.25.0 // indirect
	golang.org/x/text v0.44.0 // indirect
	golang.org/x/time v0.16.0 // indirect
)
