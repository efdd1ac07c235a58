package browsertest

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/bench"
	"github.com/gositemap/sitemap/report"
)

// chromium returns the path of the browser, or skips the test without
// one (fails it under CI=true, where .ci/run installs it).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{os.Getenv("CHROMIUM"), "/usr/bin/chromium", "chromium", "chromium-browser"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no Chromium: CI installs it (apt-get install chromium)")
	}
	t.Skip("no Chromium (apt-get install chromium): the browser tests are skipped")
	return ""
}

// browser is a page of a fresh headless Chromium, that requests nothing
// on its own (no first-run, no sync, no component update, no background
// networking, no QUIC), and the URLs the page requested.
type browser struct {
	ctx      context.Context
	mu       sync.Mutex
	requests []string
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium(t)),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1200, 900),
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	ctx, cancel = context.WithTimeout(ctx, 2*time.Minute) // a guard against a hang, never waited out
	t.Cleanup(cancel)
	b := &browser{ctx: ctx}
	// The tab is opened first, so that the listener sees every event of
	// the page; chromedp enables the network domain of a tab itself.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			b.mu.Lock()
			b.requests = append(b.requests, e.Request.URL)
			b.mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// open loads page, served from a loopback server of its own, and returns
// its URL.
func (b *browser) open(t *testing.T, page []byte) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	}))
	t.Cleanup(srv.Close)
	u := srv.URL + "/report.html"
	if err := chromedp.Do(b.ctx, chromedp.Navigate(u), chromedp.WaitReady(chromedp.CSS("footer"))); err != nil {
		t.Fatal(err)
	}
	return u
}

// onlyRequested fails the test when the page requested anything but
// itself: the page is self-contained.
func (b *browser) onlyRequested(t *testing.T, page string) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.requests) == 0 {
		t.Error("no request seen at all: the listener is not listening")
	}
	for _, u := range b.requests {
		if u != page {
			t.Errorf("the page requested %s", u)
		}
	}
}

// eval returns the value of the JavaScript expression js on the page of
// b. DevTools evaluates it as the browser's own, past the page's
// Content-Security-Policy, which lets no script of the page run.
func eval[T any](t *testing.T, b *browser, js string) T {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// do runs the actions on the page of b.
func (b *browser) do(t *testing.T, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// screenshot takes a picture of the whole page, fails the test when it is
// blank (one colour), and writes it to $SITEMAP_SCREENSHOTS/name when that
// is set.
func (b *browser) screenshot(t *testing.T, name string) []byte {
	t.Helper()
	buf, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100)) // 100: PNG
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		t.Fatal(err)
	}
	colours := map[[4]uint32]bool{}
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y && len(colours) < 16; y += 7 {
		for x := bounds.Min.X; x < bounds.Max.X; x += 7 {
			r, g, bl, a := img.At(x, y).RGBA()
			colours[[4]uint32{r, g, bl, a}] = true
		}
	}
	if len(colours) < 16 {
		t.Errorf("the screenshot %s is blank: %d colours", name, len(colours))
	}
	if dir := os.Getenv("SITEMAP_SCREENSHOTS"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, name), buf, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return buf
}

// call is what a report is rendered from: the page, and the figures of
// the call it shows.
type call struct {
	page                       []byte
	docs                       []sitemap.Document
	findings                   map[sitemap.Severity]int
	urls, withLastmod, renderT int64
	months                     map[string]bool
	oldest, newest             string
}

// runReport reads url as sitemap report does, in one call of Lint, and
// renders its page with the title given.
func runReport(t *testing.T, url, title string) call {
	t.Helper()
	rep := &report.Report{Title: title}
	c := call{findings: map[sitemap.Severity]int{}, months: map[string]bool{}}
	eachURL := func(u sitemap.URL) {
		rep.AddURL(u)
		c.urls++
		if u.LastMod != nil {
			c.withLastmod++
			c.months[u.LastMod.UTC().Format("2006-01")] = true
			day := u.LastMod.UTC().Format(time.DateOnly)
			if c.oldest == "" || day < c.oldest {
				c.oldest = day
			}
			c.newest = max(c.newest, day)
		}
	}
	s := sitemap.New().SetFetchTimeout(60)
	for f := range s.Lint(context.Background(), url, nil, &sitemap.LintOptions{NoRobots: true, EachURL: eachURL}) {
		rep.AddFinding(f)
		c.findings[f.Severity] += int(max(f.More, 1))
	}
	c.docs = s.GetDocuments()
	start := time.Now()
	var b bytes.Buffer
	if err := rep.WriteHTML(&b, c.docs); err != nil {
		t.Fatal(err)
	}
	c.renderT = int64(time.Since(start))
	c.page = b.Bytes()
	return c
}

// shop serves a small site with lint findings: an index of four
// sitemaps, one of them missing, one with bad entries and a hostile
// location, one whose entries all give the same date, with lastmods over
// six months.
func shop(t *testing.T) *httptest.Server {
	t.Helper()
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := srv.URL
		switch r.URL.Path {
		case "/sitemap-index.xml":
			fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>%s/sitemap-pages.xml</loc><lastmod>2024-06-01</lastmod></sitemap>
<sitemap><loc>%s/sitemap-products.xml</loc></sitemap>
<sitemap><loc>%s/sitemap-gone.xml</loc></sitemap>
<sitemap><loc>%s/sitemap-blog.xml</loc></sitemap>
</sitemapindex>`, h, h, h, h)
		case "/sitemap-blog.xml":
			// Every entry with the same date: the generator's, not the
			// pages' (lastmod-uniform).
			fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			for i := range 120 {
				fmt.Fprintf(w, `<url><loc>%s/blog/post-%d</loc><lastmod>2024-03-15</lastmod></url>`, h, i)
			}
			fmt.Fprint(w, `</urlset>`)
		case "/sitemap-pages.xml":
			w.Header().Set("ETag", `"pages-v7"`)
			w.Header().Set("Last-Modified", "Sat, 01 Jun 2024 08:00:00 GMT")
			fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			for i := range 60 {
				fmt.Fprintf(w, `<url><loc>%s/page-%d</loc><lastmod>2024-%02d-%02d</lastmod><changefreq>weekly</changefreq></url>`, h, i, 1+i%6, 1+i%28)
			}
			fmt.Fprint(w, `</urlset>`)
		case "/sitemap-products.xml":
			fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>%s/products/teapot</loc><lastmod>2024-13-01</lastmod><priority>1.5</priority></url>
<url><loc>%s/products/tea pot</loc><changefreq>Sometimes</changefreq></url>
<url><loc>%s/products/&lt;script&gt;alert(1)&lt;/script&gt;</loc></url>
<url><loc>%s/products/teapot</loc></url>
</urlset>`, h, h, h, h)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// hostileTitle would run as script, were it not shown as text.
const hostileTitle = `Shop </title><script>document.title="pwned"</script><img src=x onerror="document.body.dataset.pwned=1">`

// Issue 34: the report of a site with findings, in a real browser: the
// cards hold the figures of the call, the tree folds and unfolds, the
// histogram has a bar per month and the uniform-lastmod signal, nothing is
// requested but the page, and the screenshot is not blank.
func TestReportInBrowser(t *testing.T) {
	b := newBrowser(t)
	srv := shop(t)
	c := runReport(t, srv.URL+"/sitemap-index.xml", "The sitemaps of the shop")
	u := b.open(t, c.page)

	// The cards.
	cards := eval[map[string]string](t, b, `Object.fromEntries([...document.querySelectorAll('.card')].map(c => [c.querySelector('.label').textContent, c.querySelector('.value').textContent]))`)
	urls, errs := 0, 0
	for _, d := range c.docs {
		urls += d.URLs
		errs += d.Errors
	}
	want := map[string]string{
		"Documents": fmt.Sprint(len(c.docs)), "URLs": fmt.Sprint(urls), "Errors": fmt.Sprint(errs),
		"Findings":        fmt.Sprint(c.findings[sitemap.SeverityError] + c.findings[sitemap.SeverityWarning] + c.findings[sitemap.SeverityInfo]),
		"Without lastmod": fmt.Sprintf("%.1f%%", float64(c.urls-c.withLastmod)*100/float64(c.urls)),
		"Newest lastmod":  c.newest, "Oldest lastmod": c.oldest,
	}
	for k, v := range want {
		if cards[k] != v {
			t.Errorf("card %s: %q, want %q (cards %v)", k, cards[k], v, cards)
		}
	}
	if len(c.docs) != 5 || urls != 184 || c.findings[sitemap.SeverityError] == 0 {
		t.Errorf("the call: %d documents, %d URLs, findings %v", len(c.docs), urls, c.findings)
	}

	// The histogram: a bar a month, January to June, and the signal of
	// the sitemap whose entries all give one date.
	bars := eval[int](t, b, `document.querySelectorAll('svg rect.bar').length`)
	if bars != len(c.months) || bars != 6 {
		t.Errorf("%d bars, %d months", bars, len(c.months))
	}
	signal := eval[string](t, b, `document.querySelector('#lastmod .signal').textContent`)
	if !strings.Contains(signal, "Uniform lastmod") || !strings.Contains(signal, srv.URL+"/sitemap-blog.xml") {
		t.Errorf("the signal: %q", signal)
	}
	shot := b.screenshot(t, "report.png")

	// Folding: the findings of a code are folded; a click on the summary
	// unfolds them, a second folds them again.
	visible := func(sel string) bool {
		return eval[bool](t, b, `document.querySelector(`+"`"+sel+"`"+`).checkVisibility()`)
	}
	places := `#code-loc-not-escaped table`
	if visible(places) {
		t.Error("the places of loc-not-escaped are shown before the click")
	}
	b.do(t, chromedp.Click(chromedp.CSS(`#code-loc-not-escaped > summary`)))
	if !visible(places) {
		t.Error("the places of loc-not-escaped are hidden after the click")
	}
	b.do(t, chromedp.Click(chromedp.CSS(`#code-loc-not-escaped > summary`)))
	if visible(places) {
		t.Error("the places of loc-not-escaped are shown after the second click")
	}
	// The tree, folded by index: the index's documents, unfolded at first.
	tree := `#tree details.node table`
	if !visible(tree) {
		t.Error("the documents of the index are hidden at first")
	}
	b.do(t, chromedp.Click(chromedp.CSS(`#tree details.node > summary`)))
	if visible(tree) {
		t.Error("the documents of the index are shown once folded")
	}
	// The keyboard: the summary takes the focus and Enter unfolds it.
	b.do(t, chromedp.Focus(chromedp.CSS(`#tree details.node > summary`)), chromedp.KeyEvent("\r"))
	if !visible(tree) {
		t.Error("Enter on the focused summary did not unfold the index")
	}
	// In print, every folded part is shown: the page prints whole.
	b.do(t, chromedp.Click(chromedp.CSS(`#tree details.node > summary`)))
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
		t.Fatal(err)
	}
	if !visible(places) || !visible(tree) {
		t.Error("a folded part is not printed")
	}
	b.onlyRequested(t, u)
	t.Logf("page %d bytes, rendered in %v; screenshot %d bytes", len(c.page), time.Duration(c.renderT), len(shot))
}

// Issue 34: a title that would run as script shows as text: the title
// and the heading say it as written, and no script or image of it is in
// the page.
func TestHostileTitleInBrowser(t *testing.T) {
	b := newBrowser(t)
	c := runReport(t, shop(t).URL+"/sitemap-products.xml", hostileTitle)
	u := b.open(t, c.page)
	type page struct {
		Title, H1     string
		Scripts, Imgs int
		Pwned         bool
	}
	hostile := eval[page](t, b, `({Title: document.title, H1: document.querySelector('h1').textContent, Scripts: document.scripts.length,
		Imgs: document.images.length, Pwned: document.body.dataset.pwned === "1"})`)
	if hostile.Title != hostileTitle || hostile.H1 != hostileTitle || hostile.Scripts != 0 || hostile.Imgs != 0 || hostile.Pwned {
		t.Errorf("the hostile title: %+v", hostile)
	}
	// The location of the sitemap that holds a script tag is text too.
	b.do(t, chromedp.Click(chromedp.CSS(`#code-loc-not-escaped > summary`)))
	places := eval[string](t, b, `document.querySelector('#code-loc-not-escaped table').textContent`)
	if !strings.Contains(places, "/products/<script>alert(1)</script>") {
		t.Errorf("the places of loc-not-escaped: %q", places)
	}
	b.screenshot(t, "report-hostile.png")
	b.onlyRequested(t, u)
}

// Issue 34: the report of the shape of W3 (an index of 200 sitemaps of
// 5,000 URLs, bench.W3Index and bench.W3Child) read over loopback, in the
// browser: under 1 MB, every card, a bar a month, and a screenshot.
func TestReportW3InBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("a million URLs: not in -short")
	}
	b := newBrowser(t)
	index, child := bench.W3Index(), bench.W3Child()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/sitemap-index.xml" {
			w.Write(index)
			return
		}
		w.Write(child)
	}))
	t.Cleanup(srv.Close)
	c := runReport(t, srv.URL+"/sitemap-index.xml", "")
	if len(c.page) >= 1<<20 {
		t.Errorf("the report of W3 is %d bytes", len(c.page))
	}
	start := time.Now()
	u := b.open(t, c.page)
	loaded := time.Since(start)
	type timing struct{ DOMContentLoaded, Load float64 }
	nav := eval[timing](t, b, `(() => { const n = performance.getEntriesByType('navigation')[0]; return {DOMContentLoaded: n.domContentLoadedEventEnd, Load: n.loadEventEnd}; })()`)
	type figures struct {
		URLs string
		Bars int
	}
	got := eval[figures](t, b, `({URLs: [...document.querySelectorAll('.card')].find(c => c.querySelector('.label').textContent === 'URLs').querySelector('.value').textContent,
		Bars: document.querySelectorAll('svg rect.bar').length})`)
	if got.URLs != "1,000,000" || got.Bars != len(c.months) || got.Bars != 12 {
		t.Errorf("URLs card %q, %d bars for %d months", got.URLs, got.Bars, len(c.months))
	}
	b.screenshot(t, "report-w3.png")
	b.onlyRequested(t, u)
	t.Logf("W3: %d documents, %d URLs; page %d bytes, rendered in %v; browser: navigation to ready %v, DOMContentLoaded %.0f ms, load %.0f ms",
		len(c.docs), c.urls, len(c.page), time.Duration(c.renderT), loaded, nav.DOMContentLoaded, nav.Load)
}

// Issue 34: the report of the shipped sample, testdata/'s index and the
// two sitemaps it lists, served over loopback: its cards hold the call's
// figures, a bar a month, nothing requested, and a screenshot.
func TestTestdataReportInBrowser(t *testing.T) {
	b := newBrowser(t)
	srv := httptest.NewServer(http.FileServer(http.Dir("../testdata")))
	t.Cleanup(srv.Close)
	c := runReport(t, srv.URL+"/sitemap-index.xml", "")
	start := time.Now()
	u := b.open(t, c.page)
	loaded := time.Since(start)
	cards := eval[map[string]string](t, b, `Object.fromEntries([...document.querySelectorAll('.card')].map(c => [c.querySelector('.label').textContent, c.querySelector('.value').textContent]))`)
	if cards["Documents"] != "3" || cards["URLs"] != fmt.Sprint(c.urls) || c.urls != 5 {
		t.Errorf("cards %v, want 3 documents and %d URLs", cards, c.urls)
	}
	if bars := eval[int](t, b, `document.querySelectorAll('svg rect.bar').length`); bars != len(c.months) || bars == 0 {
		t.Errorf("%d bars for %d months", bars, len(c.months))
	}
	b.screenshot(t, "report-testdata.png")
	b.onlyRequested(t, u)
	t.Logf("testdata: %d documents, %d URLs; page %d bytes, rendered in %v; browser: navigation to ready %v",
		len(c.docs), c.urls, len(c.page), time.Duration(c.renderT), loaded)
}
