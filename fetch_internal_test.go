package sitemap

import (
	"net/http"
	"testing"
	"time"
)

// TIMEOUT-1, TIMEOUT-2, TIMEOUT-3, TIMEOUT-4: the fetch timeout set in
// seconds is the Timeout of the client a call makes for itself, the default
// 3 s when none is set, 0 leaving it as it was; a streaming call counts it on
// the server's clock instead; a client set with SetHTTPClient is used as it
// is. The tests that wait for a timeout run
// on a test's duration (SetFetchTimeoutForTest): this is what ties that
// duration to the seconds the setter takes.
func TestFetchTimeoutIsTheClientTimeout(t *testing.T) {
	for _, tt := range []struct {
		name string
		s    *S
		want time.Duration
	}{
		{"default", New(), DefaultFetchTimeout * time.Second},
		{"zero S", &S{}, DefaultFetchTimeout * time.Second},
		{"1", New().SetFetchTimeout(1), time.Second},
		{"65535", New().SetFetchTimeout(65535), 65535 * time.Second},
		{"0 rejected", New().SetFetchTimeout(7).SetFetchTimeout(0), 7 * time.Second},
		{"test's duration", SetFetchTimeoutForTest(New(), 20*time.Millisecond), 20 * time.Millisecond},
		{"seconds after a test's duration", SetFetchTimeoutForTest(New(), time.Millisecond).SetFetchTimeout(2), 2 * time.Second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := get(tt.s, func(c *config) config { return *c })
			f := newFetcher(&cfg)
			if !f.own || f.client.Timeout != tt.want {
				t.Errorf("own client %v with Timeout %v, want %v", f.own, f.client.Timeout, tt.want)
			}
			f.chargeServerOnly()
			if f.client.Timeout != 0 || f.serverTime != tt.want {
				t.Errorf("streaming: client Timeout %v and server's time %v, want 0 and %v", f.client.Timeout, f.serverTime, tt.want)
			}
		})
	}
	t.Run("custom client", func(t *testing.T) {
		client := &http.Client{Timeout: time.Hour}
		s := New().SetFetchTimeout(1).SetHTTPClient(client)
		cfg := get(s, func(c *config) config { return *c })
		f := newFetcher(&cfg)
		f.chargeServerOnly()
		if f.own || f.client != client || client.Timeout != time.Hour || f.serverTime != 0 {
			t.Errorf("client %p (own %v) Timeout %v, server's time %v; want the caller's %p as it is", f.client, f.own, f.client.Timeout, f.serverTime, client)
		}
	})
}
