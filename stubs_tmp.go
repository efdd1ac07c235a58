package sitemap

// Temporary stand-ins until the urlnorm and dates branches are merged.

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
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
