package sitemap

// Temporary stand-ins until the urlnorm and dates branches are merged.

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
)

const maxURLLength = 2048

func normalizeLoc(raw string, base *url.URL, strict bool) (string, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	if !strict {
		u = base.ResolveReference(u)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("unsupported scheme %q", u.Scheme)
	}
	if u.Hostname() == "" {
		return "", errors.New("missing host")
	}
	if strict {
		return raw, nil
	}
	return u.String(), nil
}

func checkSameSite(loc string, base *url.URL) error {
	u, _ := url.Parse(loc)
	if !strings.EqualFold(u.Host, base.Host) {
		return fmt.Errorf("strict mode: host %q does not match sitemap host %q", u.Host, base.Host)
	}
	return nil
}

func normalizeExtURL(raw string, strict bool) (string, error) {
	return strings.TrimSpace(raw), nil
}

func sitemapKey(loc string) string { return loc }

func parseW3CDate[T ~string | ~[]byte](s T) (time.Time, bool) {
	for _, l := range []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02", "2006-01", "2006"} {
		if t, err := time.Parse(l, string(s)); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func parseRFC822[T ~string | ~[]byte](s T) (time.Time, bool) {
	for _, l := range []string{time.RFC1123, time.RFC1123Z} {
		if t, err := time.Parse(l, string(s)); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
