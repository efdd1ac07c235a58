package store

import "github.com/gositemap/sitemap/internal/urlnorm"

// RequestKey returns the key under which a call requests a sitemap once:
// two locations with one key name one resource (the scheme and host in
// lower case, a default port left out, escapes and dot segments
// normalised, no fragment), and a call fetches and lists each key once. It
// is the key of the [sitemap.Store] records, before a password in the user
// information is replaced by xxxxx. A crawler that fetches each document
// itself (with [sitemap.Selection] RootOnly) dedups what it queues by it, as
// a call does.
func RequestKey(loc string) string { return urlnorm.Key(loc) }
