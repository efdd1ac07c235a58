package sitemap_test

import (
	"errors"
	"github.com/gositemap/sitemap/internal/polite"
	"math"
	"net"
	"net/http"
	"reflect"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gositemap/sitemap"
	"github.com/gositemap/sitemap/store"
)

// The messages the spec fixes.
const errOutstanding = "errors occurred before parsing, see GetErrors() for details"

// projectUserAgent is the default user agent: the spec's form
// "NAME (+URL of its README)" naming this project (decision PKG-3/PKG-4).
const projectUserAgent = "gositemap (+https://github.com/gositemap/sitemap/blob/main/README.md)"

// NEW-1, CONFIG-1..8, GETCONF-1, GETCONF-2, GETCONF-4, GETCONF-5: New()
// carries the defaults, and every getter reads them back.
func TestNewDefaults(t *testing.T) {
	s := sitemap.New()
	if s == nil {
		t.Fatal("New() = nil")
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"GetUserAgent", s.GetUserAgent(), projectUserAgent}, // CONFIG-1 (decision PKG-3)
		{"GetFetchTimeout", s.GetFetchTimeout(), uint16(3)},  // CONFIG-2
		{"GetMaxResponseSize", s.GetMaxResponseSize(), int64(52428800)},
		{"GetMaxDepth", s.GetMaxDepth(), 10},             // CONFIG-4
		{"GetMaxConcurrency", s.GetMaxConcurrency(), 16}, // CONFIG-4
		{"GetMaxSitemaps", s.GetMaxSitemaps(), 50000},    // CONFIG-5
		{"GetMaxURLs", s.GetMaxURLs(), 10000000},
		{"GetMaxValidationErrors", s.GetMaxValidationErrors(), 100000},
		{"GetMultiThread", s.GetMultiThread(), true}, // CONFIG-6
		{"GetStrict", s.GetStrict(), false},
		{"GetHTTPClient", s.GetHTTPClient(), (*http.Client)(nil)}, // CONFIG-7
		{"len(GetFollow)", len(s.GetFollow()), 0},                 // CONFIG-8
		{"len(GetRules)", len(s.GetRules()), 0},
		{"GetErrorsCount", s.GetErrorsCount(), int64(0)},
		{"GetURLCount", s.GetURLCount(), int64(0)},
		{"GetSitemapCount", s.GetSitemapCount(), int64(0)},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s() = %#v, want %#v", c.name, c.got, c.want)
		}
	}
	if ua := s.GetUserAgent(); !regexp1UA.MatchString(ua) {
		t.Errorf("default user agent %q is not of the form NAME (+URL/README.md)", ua)
	}
}

var regexp1UA = regexp.MustCompile(`^\S+ \(\+https://\S+/README\.md\)$`)

// CONFIG-1..5: the exported constants hold the values the spec gives
// (CONFIG-3: DefaultMaxResponseSize is 52428800).
func TestDefaultConstants(t *testing.T) {
	if sitemap.DefaultUserAgent != projectUserAgent {
		t.Errorf("DefaultUserAgent = %q", sitemap.DefaultUserAgent)
	}
	if sitemap.DefaultFetchTimeout != 3 || sitemap.DefaultMaxResponseSize != 52428800 ||
		sitemap.DefaultMaxDepth != 10 || sitemap.DefaultMaxConcurrency != 16 ||
		sitemap.DefaultMaxSitemaps != 50000 || sitemap.DefaultMaxURLs != 10000000 ||
		sitemap.DefaultMaxValidationErrors != 100000 {
		t.Errorf("Default* constants differ from the spec's defaults")
	}
}

// CONFIG-1, UA-1: the default user agent goes with every request.
func TestDefaultUserAgentIsSent(t *testing.T) {
	srv := serve(t, userAgentRoutes())
	if _, err := sitemap.New().Parse(srv.At("/robots.txt"), nil); err != nil {
		t.Fatal(err)
	}
	agents := srv.Agents()
	if len(agents) != 3 {
		t.Fatalf("%d requests, want 3", len(agents))
	}
	for i, a := range agents {
		if a != projectUserAgent {
			t.Errorf("request %d: User-Agent %q, want %q", i, a, projectUserAgent)
		}
	}
}

// UA-1, UA-3: SetUserAgent sets the header of the root request, of the
// sitemaps a robots.txt names and of those an index lists, with the default
// client and with a custom one.
func TestSetUserAgentIsSent(t *testing.T) {
	for _, custom := range []bool{false, true} {
		t.Run(map[bool]string{false: "default client", true: "custom client"}[custom], func(t *testing.T) {
			srv := serve(t, userAgentRoutes())
			s := sitemap.New().SetUserAgent("YourUserAgent")
			if custom {
				s.SetHTTPClient(&http.Client{Timeout: 30 * time.Second})
			}
			if _, err := s.Parse(srv.At("/robots.txt"), nil); err != nil {
				t.Fatal(err)
			}
			if got := srv.Agents(); !slices.Equal(got, []string{"YourUserAgent", "YourUserAgent", "YourUserAgent"}) {
				t.Errorf("User-Agent headers %q", got)
			}
			if s.GetURLCount() != 1 {
				t.Errorf("GetURLCount() = %d, want 1", s.GetURLCount())
			}
		})
	}
}

// settingRow is one setting of S in settingTable, made by row.
type settingRow struct {
	field string
	run   func(t *testing.T)
}

// row returns the row of a setting of type T: the Field of its
// *ConfigError (or the first part of it, for a setting of several fields,
// as "politeness" for "politeness.host.rate"), its setter and getter, its
// default, a valid value other than the default that is set first, and the
// values the setter must take and must refuse.
func row[T any](field string, set func(*sitemap.S, T) *sitemap.S, get func(*sitemap.S) T, def, prev T, accepted, rejected []T) settingRow {
	return settingRow{field, func(t *testing.T) {
		if got := get(sitemap.New()); !sameValue(got, def) {
			t.Errorf("default %v, want %v", got, def) // GETCONF-1
		}
		for _, v := range accepted {
			t.Run("accepted", func(t *testing.T) {
				s := sitemap.New()
				set(s, prev)
				if got := set(s, v); got != s {
					t.Fatalf("setter returned %p, want the receiver %p", got, s) // CONFIG-9
				}
				if got := get(s); !sameValue(got, v) {
					t.Errorf("after setting %v the getter reads %v", v, got) // GETCONF-5
				}
				if n := s.GetErrorsCount(); n != 0 {
					t.Errorf("valid value %v recorded errors: %q", v, messagesOf(s.GetErrors()))
				}
			})
		}
		for _, v := range rejected {
			t.Run("rejected", func(t *testing.T) {
				s := sitemap.New()
				set(s, prev)
				if got := set(s, v); got != s {
					t.Fatalf("setter returned %p, want the receiver %p", got, s) // CONFIG-9
				}
				// CONFIG-11 (decision): the setting keeps its previous value.
				if got := get(s); !sameValue(got, prev) {
					t.Errorf("after the rejected value %v the getter reads %v, want the previous %v", v, got, prev)
				}
				// CONFIG-10, ERRORS-3: a *ConfigError naming the setting, at once.
				errs := s.GetErrors()
				if len(errs) != 1 {
					t.Fatalf("GetErrors() = %q, want one *ConfigError", messagesOf(errs))
				}
				var ce *sitemap.ConfigError
				if !errors.As(errs[0], &ce) {
					t.Fatalf("%T is no *ConfigError", errs[0])
				}
				if ce.Field != field && !strings.HasPrefix(ce.Field, field+".") {
					t.Errorf("Field = %q, want %q", ce.Field, field)
				}
				if ce.Err == nil {
					t.Errorf("Err is nil")
				}
				if want := `config "` + ce.Field + `": ` + ce.Err.Error(); ce.Error() != want {
					t.Errorf("message %q, want %q", ce.Error(), want)
				}
				// Setting the same invalid value again replaces the error.
				set(s, v)
				if n := s.GetErrorsCount(); n != 1 {
					t.Errorf("repeating the invalid value: %d errors, want 1", n) // REUSE-8
				}
				// PARSE-8: nothing is parsed while it is outstanding.
				content := urlset("https://example.com/page")
				if _, err := s.Parse("https://example.com/sitemap.xml", &content); err == nil || err.Error() != errOutstanding {
					t.Errorf("Parse() error = %v, want %q", err, errOutstanding)
				}
				// REUSE-7: a valid value clears it.
				set(s, prev)
				if n := s.GetErrorsCount(); n != 0 {
					t.Errorf("after a valid value: %q", messagesOf(s.GetErrors()))
				}
			})
		}
	}}
}

// sameValue reports whether a setting reads back as v: the same value by
// ==, the same pointer for a client or a store; for a list, the same
// elements, nil and empty alike (a getter of patterns returns an empty
// list, never nil).
func sameValue[T any](got, v T) bool {
	g, w := reflect.ValueOf(&got).Elem(), reflect.ValueOf(&v).Elem()
	if g.Kind() == reflect.Slice {
		return g.Len() == 0 && w.Len() == 0 || reflect.DeepEqual(got, v)
	}
	if !g.Type().Comparable() {
		// A value with functions (Selection): equal when they are nil
		// alike and the rest is.
		return reflect.DeepEqual(got, v)
	}
	return g.Equal(w)
}

// politenessPrev is the Politeness set before each value of its row, and
// politenessWith that value with one field changed.
var politenessPrev = sitemap.Politeness{Host: sitemap.HostLimits{Rate: 2, MaxConcurrency: 3, CrawlDelay: true}, Retry: sitemap.Retry{Max: 4, MaxWait: time.Minute}}

func politenessWith(f func(*sitemap.Politeness)) sitemap.Politeness {
	p := politenessPrev
	f(&p)
	return p
}

// settingTable is every setting of S, one row each, with the values its
// setter takes and refuses; a setting added to S adds its row here, and
// TestEverySettingInTable fails until it does.
var settingTable = []settingRow{
	// The spec's.
	// UA-2 (open): an empty user agent is accepted, as go-sitemap-parser
	// v1.0.1 accepted it (issue 20; TestCompatEmptyUserAgent checks what is
	// sent); one that would break the header is refused.
	row("userAgent", (*sitemap.S).SetUserAgent, (*sitemap.S).GetUserAgent, projectUserAgent, "Previous/1.0",
		[]string{"YourUserAgent", "Mozilla/5.0 (compatible; Bot/2.1; +https://example.com/bot)", "ü-bot", ""}, []string{"bot\r\nX-Injected: 1", "bot\x00"}),
	row("fetchTimeout", (*sitemap.S).SetFetchTimeout, (*sitemap.S).GetFetchTimeout, 3, 7, []uint16{1, 10, 65535}, []uint16{0}),
	row("maxResponseSize", (*sitemap.S).SetMaxResponseSize, (*sitemap.S).GetMaxResponseSize, 52428800, 4096, []int64{1, 10 * 1024 * 1024, math.MaxInt64}, []int64{0, -1, math.MinInt64}),
	row("maxDepth", (*sitemap.S).SetMaxDepth, (*sitemap.S).GetMaxDepth, 10, 3, []int{1, 5, math.MaxInt}, []int{0, -1, math.MinInt}),
	// 0 is no limit and taken; negative values are refused.
	row("maxConcurrency", (*sitemap.S).SetMaxConcurrency, (*sitemap.S).GetMaxConcurrency, 16, 3, []int{0, 1, 1000, math.MaxInt}, []int{-1, math.MinInt}),
	row("maxSitemaps", (*sitemap.S).SetMaxSitemaps, (*sitemap.S).GetMaxSitemaps, 50000, 3, []int{0, 1, 1000, math.MaxInt}, []int{-1, math.MinInt}),
	row("maxURLs", (*sitemap.S).SetMaxURLs, (*sitemap.S).GetMaxURLs, 10000000, 3, []int{0, 1, 1000, math.MaxInt}, []int{-1, math.MinInt}),
	row("maxValidationErrors", (*sitemap.S).SetMaxValidationErrors, (*sitemap.S).GetMaxValidationErrors, 100000, 3, []int{0, 1, 1000, math.MaxInt}, []int{-1, math.MinInt}),
	row("multiThread", (*sitemap.S).SetMultiThread, (*sitemap.S).GetMultiThread, true, false, []bool{true, false}, nil),
	row("strict", (*sitemap.S).SetStrict, (*sitemap.S).GetStrict, false, true, []bool{false, true}, nil),
	// The patterns in depth: TestPatternValues.
	row("follow", (*sitemap.S).SetFollow, (*sitemap.S).GetFollow, nil, []string{"previous"}, [][]string{{`\.xml$`, `\.xml\.gz$`}, nil}, [][]string{{`(`}}),
	row("rules", (*sitemap.S).SetRules, (*sitemap.S).GetRules, nil, []string{"previous"}, [][]string{{`product/`, `category/`}, nil}, [][]string{{`(`}}),
	row("httpClient", (*sitemap.S).SetHTTPClient, (*sitemap.S).GetHTTPClient, nil, &http.Client{}, []*http.Client{{Timeout: time.Minute}, nil}, nil),
	// Beyond the spec.
	row("politeness", (*sitemap.S).SetPoliteness, (*sitemap.S).GetPoliteness,
		sitemap.Politeness{Retry: sitemap.Retry{MaxWait: polite.DefaultMaxWait}}, politenessPrev,
		[]sitemap.Politeness{
			{Retry: sitemap.Retry{MaxWait: polite.DefaultMaxWait}},
			{Host: sitemap.HostLimits{Rate: 0.5, MaxConcurrency: 1}, Retry: sitemap.Retry{Max: 100, MaxWait: time.Nanosecond}},
		},
		// A field of Politeness is refused on its own, under its own name
		// (politeness.host.rate...), the others set as given.
		[]sitemap.Politeness{
			politenessWith(func(p *sitemap.Politeness) { p.Host.Rate = -1 }),
			politenessWith(func(p *sitemap.Politeness) { p.Host.Rate = math.NaN() }),
			politenessWith(func(p *sitemap.Politeness) { p.Host.Rate = math.Inf(1) }),
			politenessWith(func(p *sitemap.Politeness) { p.Host.MaxConcurrency = -1 }),
			politenessWith(func(p *sitemap.Politeness) { p.Retry.Max = -1 }),
			politenessWith(func(p *sitemap.Politeness) { p.Retry.Max = 101 }),
			politenessWith(func(p *sitemap.Politeness) { p.Retry.MaxWait = -time.Second }),
		}),
	row("blockPrivate", (*sitemap.S).SetBlockPrivate, (*sitemap.S).GetBlockPrivate, false, true, []bool{false, true}, nil),
	row("store", (*sitemap.S).SetStore, (*sitemap.S).GetStore, nil, sitemap.Store(store.NewMemory()), []sitemap.Store{store.NewMemory(), nil}, nil),
	row("incremental", (*sitemap.S).SetIncremental, (*sitemap.S).GetIncremental, sitemap.Incremental{},
		sitemap.Incremental{Since: time.Date(2024, 1, 15, 1, 0, 0, 0, time.UTC)},
		[]sitemap.Incremental{{}, {Since: time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC), TrustIndexLastMod: true},
			{Changes: true, OnlyChanges: true, MaxGoneShare: 0.5, NoResume: true}, {MaxGoneShare: 1}},
		// Each field is set on its own: a rejected share keeps the one set
		// before, and the other fields as given (here, as before).
		[]sitemap.Incremental{{Since: time.Date(2024, 1, 15, 1, 0, 0, 0, time.UTC), MaxGoneShare: 1.5},
			{Since: time.Date(2024, 1, 15, 1, 0, 0, 0, time.UTC), MaxGoneShare: -0.1},
			{Since: time.Date(2024, 1, 15, 1, 0, 0, 0, time.UTC), MaxGoneShare: math.NaN()}}),
	row("selection", (*sitemap.S).SetSelection, (*sitemap.S).GetSelection, sitemap.Selection{}, sitemap.Selection{RootOnly: true},
		[]sitemap.Selection{{}, {RootOnly: true}}, nil),
}

// TIMEOUT-1, TIMEOUT-2, MAXSIZE-6, MAXSIZE-7, MAXDEPTH-8, MAXDEPTH-9,
// MAXSITEMAPS-1, MAXSITEMAPS-14, MAXURLS-1, MAXURLS-10, MAXVALERR-1,
// MAXVALERR-9, MAXCONC-1, MAXCONC-6, CONFIG-10, CONFIG-11, CONFIG-12,
// GETCONF-1, GETCONF-2, GETCONF-5: the default of every setting, the values
// its setter takes and refuses, and the getter that reads them back.
func TestSetterValues(t *testing.T) {
	for _, r := range settingTable {
		t.Run(r.field, r.run)
	}
}

// Every setter of S has its row in settingTable.
func TestEverySettingInTable(t *testing.T) {
	inTable := map[string]bool{}
	for _, r := range settingTable {
		inTable[strings.ToLower(r.field)] = true
	}
	typ := reflect.TypeFor[*sitemap.S]()
	for i := range typ.NumMethod() {
		name, ok := strings.CutPrefix(typ.Method(i).Name, "Set")
		if !ok {
			continue
		}
		if !inTable[strings.ToLower(name)] {
			t.Errorf("Set%s has no row in settingTable", name)
		}
	}
}

// patternSetter is SetFollow or SetRules with its getter.
type patternSetter struct {
	field string
	set   func(*sitemap.S, []string) *sitemap.S
	get   func(*sitemap.S) []string
}

var patternSetters = []patternSetter{
	{"follow", (*sitemap.S).SetFollow, (*sitemap.S).GetFollow},
	{"rules", (*sitemap.S).SetRules, (*sitemap.S).GetRules},
}

// FOLLOW-7, RULES-4, FOLLOW-11, RULES-7, CONFIG-11, REUSE-8, REUSE-10,
// GETCONF-3, GETCONF-7: the patterns SetFollow and SetRules take and
// refuse.
func TestPatternValues(t *testing.T) {
	for _, ps := range patternSetters {
		t.Run(ps.field, func(t *testing.T) {
			for _, c := range []struct {
				name     string
				patterns []string
				ok       bool
				syntax   bool // the cause is a *syntax.Error
			}{
				{"one pattern", []string{`\.xml$`}, true, false},
				{"spec example", []string{`\.xml$`, `\.xml\.gz$`}, true, false},
				{"1,000 characters", []string{pattern(1000, false)}, true, false},
				{"1,000 characters of 2 bytes", []string{pattern(1000, true)}, true, false},
				{"1,001 characters", []string{pattern(1001, false)}, false, false},
				{"1,001 characters of 2 bytes", []string{pattern(1001, true)}, false, false},
				{"unclosed group", []string{`(`}, false, true},
				{"unclosed class", []string{`[a-`}, false, true},
				{"nested repetition", []string{`a**`}, false, true},
				{"trailing backslash", []string{`\`}, false, true},
				{"one bad among good ones", []string{`\.xml$`, `(`, `product/`}, false, true},
				{"two bad ones", []string{`(`, strings.Repeat("a", 1001)}, false, true},
			} {
				t.Run(c.name, func(t *testing.T) {
					if strings.HasPrefix(c.name, "1,00") {
						want := map[bool]int{true: 1000, false: 1001}[c.ok]
						if n := utf8.RuneCountInString(c.patterns[0]); n != want {
							t.Fatalf("the fixture has %d characters, want %d", n, want)
						}
						// Counted in bytes, it would be over the limit.
						if strings.Contains(c.name, "2 bytes") && len(c.patterns[0]) <= 1001 {
							t.Fatalf("the fixture has only %d bytes", len(c.patterns[0]))
						}
					}
					prev := []string{"previous"}
					s := sitemap.New()
					ps.set(s, prev)
					if got := ps.set(s, c.patterns); got != s {
						t.Fatal("setter did not return its receiver") // CONFIG-9
					}
					if c.ok {
						if got := ps.get(s); !slices.Equal(got, c.patterns) {
							t.Errorf("getter = %q, want %q", got, c.patterns)
						}
						if s.GetErrorsCount() != 0 {
							t.Errorf("errors: %q", messagesOf(s.GetErrors()))
						}
						return
					}
					if got := ps.get(s); !slices.Equal(got, prev) {
						t.Errorf("after a rejected list the getter reads %q, want the previous %q", got, prev)
					}
					errs := s.GetErrors()
					if len(errs) != 1 {
						t.Fatalf("GetErrors() = %q, want one *ConfigError", messagesOf(errs))
					}
					var ce *sitemap.ConfigError
					if !errors.As(errs[0], &ce) || ce.Field != ps.field {
						t.Fatalf("error %v (%T), want a *ConfigError for %q", errs[0], errs[0], ps.field)
					}
					var se *syntax.Error
					if got := errors.As(errs[0], &se); got != c.syntax {
						t.Errorf("errors.As(*syntax.Error) = %v, want %v (%v)", got, c.syntax, errs[0])
					}
					// REUSE-8: the same call again replaces the error.
					ps.set(s, c.patterns)
					if s.GetErrorsCount() != 1 {
						t.Errorf("repeated: %q", messagesOf(s.GetErrors()))
					}
				})
			}
		})
	}
}

// GETCONF-3, GETCONF-7, CONFIG-8: the getters return copies, the setters
// keep none of the caller's slice, and a nil or empty list clears the
// patterns.
func TestPatternCopies(t *testing.T) {
	for _, ps := range patternSetters {
		t.Run(ps.field, func(t *testing.T) {
			in := []string{`a`, `b`}
			s := sitemap.New()
			ps.set(s, in)
			in[0] = "changed by the caller"
			got := ps.get(s)
			if !slices.Equal(got, []string{`a`, `b`}) {
				t.Fatalf("getter = %q after the caller changed its slice", got)
			}
			got[1] = "changed through the getter"
			if again := ps.get(s); !slices.Equal(again, []string{`a`, `b`}) {
				t.Errorf("getter = %q after its result was changed", again)
			}
			for _, clear := range [][]string{nil, {}} {
				ps.set(s, []string{"x"})
				ps.set(s, clear)
				if got := ps.get(s); len(got) != 0 {
					t.Errorf("after setting %#v the getter reads %q", clear, got)
				}
			}
			if s.GetErrorsCount() != 0 {
				t.Errorf("errors: %q", messagesOf(s.GetErrors()))
			}
		})
	}
}

// FOLLOW-1, FOLLOW-5, FOLLOW-6, FOLLOW-7, RULES-1, RULES-3, RULES-4: a
// pattern of exactly 1,000 characters is in force, and clearing the
// patterns follows and keeps everything again.
func TestPatternsApply(t *testing.T) {
	srv := serve(t, map[string]route{
		"/index.xml": {Body: index("{base}/keep.xml", "{base}/drop.xml")},
		"/keep.xml":  {Body: urlset("{base}/keep-1", "{base}/other-1")},
		"/drop.xml":  {Body: urlset("{base}/keep-2", "{base}/other-2")},
	})
	long := pattern(1000, false)
	s := sitemap.New().SetMultiThread(false).SetFollow([]string{long}).SetRules([]string{long})
	if _, err := s.Parse(srv.At("/index.xml"), nil); err != nil {
		t.Fatal(err)
	}
	if srv.Hits("/drop.xml") != 0 || srv.Hits("/keep.xml") != 1 {
		t.Errorf("hits keep=%d drop=%d, want 1 and 0", srv.Hits("/keep.xml"), srv.Hits("/drop.xml"))
	}
	if got, want := locsOf(s.GetURLs()), []string{srv.At("/keep-1")}; !slices.Equal(got, want) {
		t.Errorf("URLs %q, want %q", got, want)
	}
	if got := s.GetSitemapCount(); got != 2 {
		t.Errorf("GetSitemapCount() = %d, want 2: a sitemap not followed is listed", got)
	}
	s.SetFollow(nil).SetRules(nil)
	if _, err := s.Parse(srv.At("/index.xml"), nil); err != nil {
		t.Fatal(err)
	}
	if got := s.GetURLCount(); got != 4 {
		t.Errorf("without patterns GetURLCount() = %d, want 4", got)
	}
	if srv.Hits("/drop.xml") != 1 {
		t.Errorf("without follow rules drop.xml was requested %d times, want 1", srv.Hits("/drop.xml"))
	}
}

// MULTI-1, MULTI-4, MAXCONC-1: SetMultiThread decides whether the
// sitemaps of an index are fetched at the same time.
func TestSetMultiThreadApplies(t *testing.T) {
	t.Run("on", func(t *testing.T) {
		// Both sitemaps are requested before either is answered.
		b := newGate(t)
		srv := serve(t, map[string]route{
			"/index.xml": {Body: index("{base}/a.xml", "{base}/b.xml")},
			"/a.xml":     {Handler: b.handler(func() string { return urlset("https://example.com/a") })},
			"/b.xml":     {Handler: b.handler(func() string { return urlset("https://example.com/b") })},
		})
		s := sitemap.New().SetMultiThread(true)
		done := make(chan error, 1)
		go func() { _, err := s.Parse(srv.At("/index.xml"), nil); done <- err }()
		recv(t, b.entered, "the first sitemap request")
		recv(t, b.entered, "the second sitemap request while the first is open")
		b.Release()
		if err := recv(t, done, "Parse"); err != nil {
			t.Fatal(err)
		}
		if s.GetURLCount() != 2 {
			t.Errorf("GetURLCount() = %d, want 2", s.GetURLCount())
		}
	})
	t.Run("off", func(t *testing.T) {
		var inFlight, most atomic.Int32
		h := func(body string) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				n := inFlight.Add(1)
				defer inFlight.Add(-1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				w.Write([]byte(body))
			}
		}
		routes := map[string]route{"/index.xml": {Body: index("{base}/1.xml", "{base}/2.xml", "{base}/3.xml", "{base}/4.xml")}}
		for _, p := range []string{"1", "2", "3", "4"} {
			routes["/"+p+".xml"] = route{Handler: h(urlset("https://example.com/" + p))}
		}
		srv := serve(t, routes)
		s := sitemap.New().SetMultiThread(false)
		if _, err := s.Parse(srv.At("/index.xml"), nil); err != nil {
			t.Fatal(err)
		}
		if most.Load() != 1 {
			t.Errorf("%d requests in flight at once, want 1", most.Load())
		}
		// In listed order.
		want := []string{"https://example.com/1", "https://example.com/2", "https://example.com/3", "https://example.com/4"}
		if got := locsOf(s.GetURLs()); !slices.Equal(got, want) {
			t.Errorf("URLs %q, want %q", got, want)
		}
	})
}

// STRICT-1, STRICT-8, TOLERANT-9: SetStrict switches the mode, and back.
func TestSetStrictApplies(t *testing.T) {
	content := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
		`<url><loc>https://example.com/page</loc><changefreq>Daily</changefreq></url></urlset>`
	s := sitemap.New()
	for _, strict := range []bool{false, true, false} {
		if _, err := s.SetStrict(strict).Parse("https://example.com/sitemap.xml", &content); err != nil {
			t.Fatal(err)
		}
		if !strict {
			urls := s.GetURLs()
			if len(urls) != 1 || urls[0].ChangeFreq == nil || *urls[0].ChangeFreq != sitemap.ChangeFreqDaily {
				t.Errorf("tolerant: URLs %+v, want one with changefreq daily", urls)
			}
			continue
		}
		if s.GetURLCount() != 0 {
			t.Errorf("strict: %d URLs, want 0", s.GetURLCount())
		}
		want := []string{`validate "https://example.com/page": strict mode: invalid <changefreq> value "Daily"`}
		if got := messagesOf(s.GetErrors()); !slices.Equal(got, want) {
			t.Errorf("strict: errors %q, want %q", got, want)
		}
	}
}

// CLIENT-1, CLIENT-2, GETCONF-4, TIMEOUT-4: every request goes through the
// client that is set, used as given; nil returns to the default.
func TestSetHTTPClient(t *testing.T) {
	srv := serve(t, userAgentRoutes())
	rt := &web{net: true}
	client := &http.Client{Transport: rt}                               // no Timeout of its own
	s := sitemap.SetFetchTimeoutForTest(sitemap.New(), time.Nanosecond) // met by no request, were it applied
	if got := s.SetHTTPClient(client); got != s {
		t.Fatal("SetHTTPClient did not return its receiver")
	}
	if s.GetHTTPClient() != client {
		t.Fatalf("GetHTTPClient() = %p, want %p", s.GetHTTPClient(), client)
	}
	if _, err := s.Parse(srv.At("/robots.txt"), nil); err != nil {
		t.Fatal(err)
	}
	if rt.n.Load() != 3 || srv.Total() != 3 {
		t.Errorf("custom transport saw %d requests, the server %d; want 3 and 3", rt.n.Load(), srv.Total())
	}
	// TIMEOUT-4: the fetch timeout has no effect on a custom client: the
	// requests carry no deadline, as the client has no Timeout.
	for i, d := range rt.Deadlines() {
		if !d.IsZero() {
			t.Errorf("request %d carried a deadline %v; the fetch timeout must not apply to a custom client", i, d)
		}
	}
	// The client is used as given, never changed.
	if client.Timeout != 0 || client.Transport != rt || client.CheckRedirect != nil || client.Jar != nil {
		t.Errorf("the custom client was changed: %+v", client)
	}

	// Its own Timeout is the deadline: the requests carry one, and the
	// fetch timeout of a nanosecond fails none of them.
	rt2 := &web{net: true}
	s.SetHTTPClient(&http.Client{Transport: rt2, Timeout: time.Hour})
	if _, err := s.Parse(srv.At("/robots.txt"), nil); err != nil {
		t.Fatal(err)
	}
	for i, d := range rt2.Deadlines() {
		if d.IsZero() {
			t.Errorf("request %d carried no deadline; want the client's hour", i)
		}
	}

	// CLIENT-2: nil is the default again, with the fetch timeout.
	s.SetFetchTimeout(sitemap.DefaultFetchTimeout).SetHTTPClient(nil)
	if s.GetHTTPClient() != nil {
		t.Errorf("GetHTTPClient() = %p after SetHTTPClient(nil)", s.GetHTTPClient())
	}
	before := srv.Total()
	if _, err := s.Parse(srv.At("/robots.txt"), nil); err != nil {
		t.Fatal(err)
	}
	if rt.n.Load() != 3 || rt2.n.Load() != 3 || srv.Total() != before+3 {
		t.Errorf("after SetHTTPClient(nil) the custom transports saw %d and %d requests (want 3, 3), the server %d more (want 3)", rt.n.Load(), rt2.n.Load(), srv.Total()-before)
	}
	if s.GetErrorsCount() != 0 {
		t.Errorf("errors: %q", messagesOf(s.GetErrors()))
	}
}

// TIMEOUT-3, CONFIG-7: the default client gives up on a request after the
// fetch timeout, with a *NetworkError. The server never answers; the test
// takes the fetch timeout of the tests.
func TestFetchTimeoutDefaultClient(t *testing.T) {
	t.Parallel() // it waits for a timeout and measures no heap: beside the others
	stop := make(chan struct{})
	srv := serve(t, map[string]route{"/slow.xml": {Handler: func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-stop:
		case <-r.Context().Done():
		}
	}}})
	defer close(stop)
	s := shortTimeout()
	var err error
	guard(t, guardTimeout, func() {
		_, err = s.Parse(srv.At("/slow.xml"), nil)
	})
	var ne *sitemap.NetworkError
	if !errors.As(err, &ne) || ne.URL != srv.At("/slow.xml") {
		t.Fatalf("Parse() error = %v, want a *NetworkError for the URL", err)
	}
	var te net.Error
	if !errors.As(err, &te) || !te.Timeout() {
		t.Errorf("error %v is not a timeout", err)
	}
	if srv.Hits("/slow.xml") != 1 {
		t.Errorf("%d requests, want 1", srv.Hits("/slow.xml"))
	}
}

// MAXSIZE-1, MAXSIZE-2: the response size value is in force: a body of
// exactly the limit is read, one byte more is refused.
func TestSetMaxResponseSizeApplies(t *testing.T) {
	body := urlset("https://example.com/page")
	srv := serve(t, map[string]route{"/sitemap.xml": {Body: body}})
	n := int64(len(body))
	s := sitemap.New().SetMaxResponseSize(n)
	if _, err := s.Parse(srv.At("/sitemap.xml"), nil); err != nil || s.GetURLCount() != 1 {
		t.Fatalf("limit = body size: err %v, %d URLs", err, s.GetURLCount())
	}
	_, err := s.SetMaxResponseSize(n-1).Parse(srv.At("/sitemap.xml"), nil)
	var ne *sitemap.NetworkError
	if !errors.As(err, &ne) || !errors.Is(err, sitemap.ErrMaxResponseSize) {
		t.Fatalf("limit one below the body size: err %v, want a *NetworkError wrapping ErrMaxResponseSize", err)
	}
}

// CONFIG-9: every Set* returns its receiver, valid value or not, so calls
// chain; the spec's chain example.
func TestSettersChain(t *testing.T) {
	s := sitemap.New().SetUserAgent("YourUserAgent").SetFetchTimeout(10)
	if s.GetUserAgent() != "YourUserAgent" || s.GetFetchTimeout() != 10 {
		t.Errorf("chain: %q, %d", s.GetUserAgent(), s.GetFetchTimeout())
	}
	client := &http.Client{}
	s = sitemap.New()
	got := s.SetUserAgent("a").SetFetchTimeout(5).SetMaxResponseSize(1 << 20).SetMaxDepth(4).
		SetMaxConcurrency(2).SetMaxSitemaps(7).SetMaxURLs(8).SetMaxValidationErrors(9).
		SetMultiThread(false).SetStrict(true).SetFollow([]string{"f"}).SetRules([]string{"r"}).
		SetHTTPClient(client).
		// Invalid values chain as well.
		SetUserAgent("a\x7f").SetFetchTimeout(0).SetMaxResponseSize(0).SetMaxDepth(0).SetMaxConcurrency(-1).
		SetMaxSitemaps(-1).SetMaxURLs(-1).SetMaxValidationErrors(-1).SetFollow([]string{"("}).SetRules([]string{"("})
	if got != s {
		t.Fatal("the chain did not return the instance it started on")
	}
	// GETCONF-1, GETCONF-2, GETCONF-4: the valid values stay in force.
	if s.GetUserAgent() != "a" || s.GetFetchTimeout() != 5 || s.GetMaxResponseSize() != 1<<20 ||
		s.GetMaxDepth() != 4 || s.GetMaxConcurrency() != 2 || s.GetMaxSitemaps() != 7 ||
		s.GetMaxURLs() != 8 || s.GetMaxValidationErrors() != 9 || s.GetMultiThread() || !s.GetStrict() ||
		!slices.Equal(s.GetFollow(), []string{"f"}) || !slices.Equal(s.GetRules(), []string{"r"}) || s.GetHTTPClient() != client {
		t.Errorf("configuration after the chain differs from the valid values set")
	}
	// CONFIG-12: one *ConfigError per setting, with these Field names.
	var fields []string
	for _, err := range s.GetErrors() {
		var ce *sitemap.ConfigError
		if !errors.As(err, &ce) {
			t.Fatalf("%T in GetErrors()", err)
		}
		fields = append(fields, ce.Field)
	}
	want := []string{"userAgent", "fetchTimeout", "maxResponseSize", "maxDepth", "maxConcurrency",
		"maxSitemaps", "maxURLs", "maxValidationErrors", "follow", "rules"}
	if !slices.Equal(fields, want) {
		t.Errorf("ConfigError fields %q, want %q", fields, want)
	}
}

// GETCONF-1, GETCONF-2: the spec's example of reading the configuration.
func TestReadConfigurationExample(t *testing.T) {
	s := sitemap.New().SetMaxConcurrency(8).SetStrict(true)
	if s.GetMaxConcurrency() != 8 || !s.GetStrict() {
		t.Errorf("GetMaxConcurrency() = %d, GetStrict() = %v, want 8 and true", s.GetMaxConcurrency(), s.GetStrict())
	}
}

// REUSE-6, REUSE-7, REUSE-8, REUSE-9, PARSE-8, ERRORS-1: configuration
// errors belong to the instance: they outlast calls, block parsing, and a
// valid value clears only the error of its own setter.
func TestConfigErrorsAcrossCalls(t *testing.T) {
	srv := serve(t, map[string]route{"/sitemap.xml": {Body: urlset("{base}/page")}})
	url := srv.At("/sitemap.xml")

	s := sitemap.New().SetMaxDepth(0) // the spec's example
	for range 2 {
		got, err := s.Parse(url, nil)
		if got != s {
			t.Fatal("Parse did not return its instance")
		}
		if err == nil || err.Error() != errOutstanding {
			t.Fatalf("Parse() error = %v, want %q", err, errOutstanding)
		}
		// The error is untyped: none of the four types.
		var (
			ce *sitemap.ConfigError
			ne *sitemap.NetworkError
			pe *sitemap.ParseError
			ve *sitemap.ValidationError
		)
		if errors.As(err, &ce) || errors.As(err, &ne) || errors.As(err, &pe) || errors.As(err, &ve) {
			t.Errorf("the error of an outstanding configuration error is typed: %T", err)
		}
		if s.GetErrorsCount() != 1 {
			t.Errorf("GetErrors() = %q, want the one *ConfigError", messagesOf(s.GetErrors()))
		}
	}
	if srv.Total() != 0 {
		t.Errorf("%d requests while a configuration error was outstanding", srv.Total())
	}

	// Several settings: clearing one leaves the others.
	s.SetMaxURLs(-1).SetFollow([]string{"("})
	s.SetMaxDepth(0) // repeated: replaces, does not pile up
	if n := s.GetErrorsCount(); n != 3 {
		t.Fatalf("%d errors, want 3: %q", n, messagesOf(s.GetErrors()))
	}
	s.SetMaxDepth(5)
	var fields []string
	for _, err := range s.GetErrors() {
		var ce *sitemap.ConfigError
		if errors.As(err, &ce) {
			fields = append(fields, ce.Field)
		}
	}
	slices.Sort(fields)
	if !slices.Equal(fields, []string{"follow", "maxURLs"}) {
		t.Errorf("after SetMaxDepth(5) the outstanding fields are %q, want follow and maxURLs", fields)
	}
	if _, err := s.Parse(url, nil); err == nil || err.Error() != errOutstanding {
		t.Errorf("Parse() error = %v with two errors outstanding", err)
	}
	s.SetMaxURLs(0).SetFollow(nil)

	// REUSE-9: parses normally now.
	if _, err := s.Parse(url, nil); err != nil {
		t.Fatalf("Parse() error = %v after every setting was corrected", err)
	}
	if s.GetURLCount() != 1 || s.GetErrorsCount() != 0 || srv.Hits("/sitemap.xml") != 1 {
		t.Errorf("after correction: %d URLs, errors %q, %d requests", s.GetURLCount(), messagesOf(s.GetErrors()), srv.Hits("/sitemap.xml"))
	}
}

// REUSE-8: a setter's later invalid value replaces the error of its
// earlier one; the error of the latest call is the one kept.
func TestConfigErrorReplaced(t *testing.T) {
	s := sitemap.New().SetMaxDepth(0)
	first := s.GetErrors()[0]
	s.SetMaxDepth(-3)
	errs := s.GetErrors()
	if len(errs) != 1 {
		t.Fatalf("%d errors, want 1", len(errs))
	}
	if errs[0] == first {
		t.Errorf("the error of SetMaxDepth(0) was kept; the one of SetMaxDepth(-3) must replace it")
	}
	if !strings.Contains(errs[0].Error(), "-3") {
		t.Errorf("the kept error %q does not tell the latest value", errs[0])
	}
}
