package fleet

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/gositemap/sitemap/internal/jsonline"
)

// The JSON line of a URL with none of the extensions (the most of every
// crawl) is written here by hand, byte for byte what encoding/json writes
// for it: by reflection it was the largest share of a worker's own CPU.
// TestFastLine holds the two to the same bytes, and fails when
// jsonline.URL gains a field this file does not write.

// appendPlainURL appends to dst the JSON line of j, and reports false,
// having appended nothing, when j has an extension or a priority that
// encoding/json refuses: encoding/json writes those.
func appendPlainURL(dst []byte, j *jsonline.URL) ([]byte, bool) {
	if len(j.Images) > 0 || j.News != nil || len(j.Videos) > 0 || len(j.Hreflangs) > 0 {
		return dst, false
	}
	if j.Priority != nil && (math.IsNaN(float64(*j.Priority)) || math.IsInf(float64(*j.Priority), 0)) {
		return dst, false
	}
	dst = append(dst, `{"loc":`...)
	dst = appendJSONString(dst, j.Loc)
	dst = append(dst, `,"lastmod":`...)
	dst = appendJSONStringOrNull(dst, j.LastMod)
	dst = append(dst, `,"changefreq":`...)
	dst = appendJSONStringOrNull(dst, j.ChangeFreq)
	dst = append(dst, `,"priority":`...)
	if j.Priority == nil {
		dst = append(dst, "null"...)
	} else {
		dst = appendJSONFloat32(dst, *j.Priority)
	}
	dst = append(dst, `,"sitemap":`...)
	dst = appendJSONString(dst, j.Sitemap)
	if j.Change != "" {
		dst = append(dst, `,"change":`...)
		dst = appendJSONString(dst, j.Change)
	}
	return append(dst, '}', '\n'), true
}

func appendJSONStringOrNull(dst []byte, s *string) []byte {
	if s == nil {
		return append(dst, "null"...)
	}
	return appendJSONString(dst, *s)
}

// appendJSONString appends s as encoding/json writes a string with HTML
// escaping off: the quote, the backslash and the controls below U+0020
// escaped, an invalid byte as \ufffd, U+2028 and U+2029 as \u escapes.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendJSONFloat32 appends f as encoding/json writes a float32: the
// shortest decimal that reads back as f, in exponent form below 1e-6 and
// from 1e21 on, its exponent without a leading zero.
func appendJSONFloat32(dst []byte, f float32) []byte {
	format := byte('f')
	if abs := float32(math.Abs(float64(f))); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, float64(f), format, -1, 32)
	if format == 'e' {
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}
