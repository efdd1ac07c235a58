// Package browsertest holds the tests that open the pages of package
// report in a real browser: Debian's headless Chromium, driven through
// the DevTools protocol by github.com/chromedp/chromedp. It is a module of
// its own so that the library's go.mod never gains chromedp. Without
// Chromium the tests skip, with a message, except under CI=true, where
// they fail.
package browsertest
