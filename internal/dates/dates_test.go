package dates

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // so that TestDatesAnyLocalZone finds its zones on any machine
)

// White-box tests of the parsers of dates.go and their helpers. Every case states
// the instant it wants (compared with time.Time.Equal), the offset and the
// name of the zone the result carries, never a string formatted in the
// local zone, so the tests say the same on every machine.

// dateCase is a value given to a date parser and what it should make of it.
type dateCase struct {
	name string
	in   string
	ok   bool
	want time.Time     // the instant, when ok
	off  time.Duration // the offset of the result's zone, east of UTC
	zone string        // the name of the result's zone: "UTC" for time.UTC
}

// utcAt returns the instant y-mo-d h:mi:s.ns UTC.
func utcAt(y int, mo time.Month, d, h, mi, s, ns int) time.Time {
	return time.Date(y, mo, d, h, mi, s, ns, time.UTC)
}

// w3cDateCases are the values of a <lastmod> (and of an <updated>, a
// <news:publication_date> and the video dates).
var w3cDateCases = []dateCase{
	// The forms of the W3C Datetime profile (VALUE-10, FEEDDATE-8). A date
	// without a time is midnight UTC (VALUE-11).
	{name: "year", in: "2024", ok: true, want: utcAt(2024, 1, 1, 0, 0, 0, 0), zone: "UTC"},
	{name: "year and month", in: "2024-01", ok: true, want: utcAt(2024, 1, 1, 0, 0, 0, 0), zone: "UTC"},
	{name: "date", in: "2024-01-15", ok: true, want: utcAt(2024, 1, 15, 0, 0, 0, 0), zone: "UTC"},
	{name: "minutes Z", in: "2024-01-15T10:30Z", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0), zone: "UTC"},
	{name: "seconds Z", in: "2024-01-15T10:30:00Z", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0), zone: "UTC"},
	{name: "one fraction digit", in: "2024-01-15T10:30:00.5Z", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 500000000), zone: "UTC"},
	{name: "milliseconds", in: "2024-01-15T10:30:00.123Z", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 123000000), zone: "UTC"},
	{name: "nanoseconds", in: "2024-01-15T10:30:00.123456789Z", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 123456789), zone: "UTC"},
	{name: "digits past nanoseconds are truncated", in: "2024-01-15T10:30:00.1234567899999Z", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 123456789), zone: "UTC"},
	{name: "zero fraction", in: "2024-01-15T10:30:00.000Z", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0), zone: "UTC"},
	{name: "minutes offset", in: "2024-01-15T10:30+01:00", ok: true, want: utcAt(2024, 1, 15, 9, 30, 0, 0), off: time.Hour},
	{name: "positive offset", in: "2024-01-15T10:30:00+01:00", ok: true, want: utcAt(2024, 1, 15, 9, 30, 0, 0), off: time.Hour},
	{name: "negative offset", in: "2024-01-15T10:30:00-05:00", ok: true, want: utcAt(2024, 1, 15, 15, 30, 0, 0), off: -5 * time.Hour},
	{name: "fraction and offset", in: "2024-01-15T10:30:00.25-08:00", ok: true, want: utcAt(2024, 1, 15, 18, 30, 0, 250000000), off: -8 * time.Hour},
	{name: "India", in: "2024-01-15T10:30:00+05:30", ok: true, want: utcAt(2024, 1, 15, 5, 0, 0, 0), off: 5*time.Hour + 30*time.Minute},
	{name: "Nepal", in: "2024-01-15T10:30:00+05:45", ok: true, want: utcAt(2024, 1, 15, 4, 45, 0, 0), off: 5*time.Hour + 45*time.Minute},
	{name: "Newfoundland", in: "2024-01-15T10:30:00-03:30", ok: true, want: utcAt(2024, 1, 15, 14, 0, 0, 0), off: -(3*time.Hour + 30*time.Minute)},
	{name: "Chatham summer", in: "2024-01-15T10:30:00+13:45", ok: true, want: utcAt(2024, 1, 14, 20, 45, 0, 0), off: 13*time.Hour + 45*time.Minute},
	{name: "unusual offset", in: "2024-01-15T10:30:00+03:07", ok: true, want: utcAt(2024, 1, 15, 7, 23, 0, 0), off: 3*time.Hour + 7*time.Minute},
	{name: "largest offset", in: "2024-01-15T10:30:00+23:59", ok: true, want: utcAt(2024, 1, 14, 10, 31, 0, 0), off: 23*time.Hour + 59*time.Minute},
	{name: "zero offset is a fixed zone", in: "2024-01-15T10:30:00+00:00", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0)},
	{name: "negative zero offset", in: "2024-01-15T10:30:00-00:00", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0)},
	{name: "offset crosses the year", in: "2024-12-31T23:00:00-02:00", ok: true, want: utcAt(2025, 1, 1, 1, 0, 0, 0), off: -2 * time.Hour},

	// Lenient decisions beyond the profile.
	{name: "offset without colon", in: "2024-01-15T10:30:00+0100", ok: true, want: utcAt(2024, 1, 15, 9, 30, 0, 0), off: time.Hour},
	{name: "negative offset without colon", in: "2024-01-15T10:30:00-0330", ok: true, want: utcAt(2024, 1, 15, 14, 0, 0, 0), off: -(3*time.Hour + 30*time.Minute)},
	{name: "offset in hours", in: "2024-01-15T10:30:00+01", ok: true, want: utcAt(2024, 1, 15, 9, 30, 0, 0), off: time.Hour},
	{name: "negative offset in hours", in: "2024-01-15T10:30-07", ok: true, want: utcAt(2024, 1, 15, 17, 30, 0, 0), off: -7 * time.Hour},
	{name: "no zone is UTC", in: "2024-01-15T10:30:00", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0), zone: "UTC"},
	{name: "minutes without zone", in: "2024-01-15T10:30", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0), zone: "UTC"},
	{name: "fraction without zone", in: "2024-01-15T10:30:00.5", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 500000000), zone: "UTC"},
	{name: "lower-case t and z", in: "2024-01-15t10:30:00z", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0), zone: "UTC"},

	// The calendar and the clock (ADOPTED-7).
	{name: "leap day 2000", in: "2000-02-29", ok: true, want: utcAt(2000, 2, 29, 0, 0, 0, 0), zone: "UTC"},
	{name: "leap day 2024", in: "2024-02-29T12:00:00Z", ok: true, want: utcAt(2024, 2, 29, 12, 0, 0, 0), zone: "UTC"},
	{name: "last second of the day", in: "2024-01-15T23:59:59Z", ok: true, want: utcAt(2024, 1, 15, 23, 59, 59, 0), zone: "UTC"},
	{name: "midnight", in: "2024-01-15T00:00:00Z", ok: true, want: utcAt(2024, 1, 15, 0, 0, 0, 0), zone: "UTC"},
	{name: "31 December", in: "2023-12-31", ok: true, want: utcAt(2023, 12, 31, 0, 0, 0, 0), zone: "UTC"},
	{name: "30 April", in: "2024-04-30", ok: true, want: utcAt(2024, 4, 30, 0, 0, 0, 0), zone: "UTC"},
	{name: "year zero", in: "0000-01-01", ok: true, want: utcAt(0, 1, 1, 0, 0, 0, 0), zone: "UTC"},
	{name: "last instant of 9999", in: "9999-12-31T23:59:59.999999999Z", ok: true, want: utcAt(9999, 12, 31, 23, 59, 59, 999999999), zone: "UTC"},
	{name: "1900-02-29", in: "1900-02-29"},
	{name: "2023-02-29", in: "2023-02-29"},
	{name: "2026-02-30", in: "2026-02-30"},
	{name: "31 April", in: "2024-04-31"},
	{name: "month 13", in: "2024-13"},
	{name: "month 13 with day", in: "2024-13-01"},
	{name: "month 0", in: "2024-00-10"},
	{name: "day 0", in: "2024-01-00"},
	{name: "day 32", in: "2024-01-32"},
	{name: "zero date", in: "0000-00-00"},
	{name: "hour 24", in: "2024-01-15T24:00:00Z"},
	{name: "minute 60", in: "2024-01-15T10:60:00Z"},
	{name: "second 60", in: "2024-12-31T23:59:60Z"},
	{name: "second 99", in: "2024-01-15T10:30:99Z"},

	// Values that cannot be parsed (VALUE-3).
	{name: "empty", in: ""},
	{name: "space for T", in: "2024-01-15 10:30:00"},
	{name: "space for T with zone", in: "2024-01-15 10:30:00Z"},
	{name: "RFC 822", in: "Mon, 15 Jan 2024 10:30:00 GMT"},
	{name: "two-digit year", in: "24"},
	{name: "three-digit year", in: "202"},
	{name: "five-digit year", in: "20240"},
	{name: "five-digit year with month", in: "12024-01-15"},
	{name: "signed year", in: "+2024-01-15"},
	{name: "negative year", in: "-2024-01-15"},
	{name: "one-digit month", in: "2024-1"},
	{name: "one-digit month and day", in: "2024-1-15"},
	{name: "one-digit day", in: "2024-01-1"},
	{name: "basic format", in: "20240115"},
	{name: "basic date-time", in: "20240115T103000Z"},
	{name: "slashes", in: "2024/01/15"},
	{name: "dash only", in: "2024-"},
	{name: "date and dash", in: "2024-01-"},
	{name: "T only", in: "2024-01-15T"},
	{name: "hour only", in: "2024-01-15T10"},
	{name: "hour and zone", in: "2024-01-15T10Z"},
	{name: "one-digit minute", in: "2024-01-15T10:3"},
	{name: "one-digit hour", in: "2024-01-15T1:30Z"},
	{name: "one-digit second", in: "2024-01-15T10:30:0Z"},
	{name: "colon without seconds", in: "2024-01-15T10:30:Z"},
	{name: "point without digits", in: "2024-01-15T10:30:00.Z"},
	{name: "point at the end", in: "2024-01-15T10:30:00."},
	{name: "comma fraction", in: "2024-01-15T10:30:00,5Z"},
	{name: "fraction without seconds", in: "2024-01-15T10:30.5Z"},
	{name: "date with zone", in: "2024-01-15Z"},
	{name: "year with zone", in: "2024Z"},
	{name: "lower-case x for T", in: "2024-01-15x10:30:00Z"},
	{name: "trailing garbage after date", in: "2024-01-15x"},
	{name: "trailing garbage after Z", in: "2024-01-15T10:30:00Zjunk"},
	{name: "double Z", in: "2024-01-15T10:30:00ZZ"},
	{name: "trailing garbage after offset", in: "2024-01-15T10:30:00+01:00x"},
	{name: "trailing space", in: "2024-01-15T10:30:00Z "},
	{name: "leading space", in: " 2024-01-15"},
	{name: "trailing newline", in: "2024-01-15\n"},
	{name: "space before zone", in: "2024-01-15T10:30:00 +01:00"},
	{name: "zone name UTC", in: "2024-01-15T10:30:00UTC"},
	{name: "zone name GMT", in: "2024-01-15T10:30:00 GMT"},
	{name: "sign only", in: "2024-01-15T10:30:00+"},
	{name: "one-digit offset hour", in: "2024-01-15T10:30:00+1:00"},
	{name: "one-digit offset minute", in: "2024-01-15T10:30:00+01:0"},
	{name: "three-digit offset", in: "2024-01-15T10:30:00+010"},
	{name: "three-digit offset minute", in: "2024-01-15T10:30:00+01:000"},
	{name: "offset hour 24", in: "2024-01-15T10:30:00+24:00"},
	{name: "offset minute 60", in: "2024-01-15T10:30:00+01:60"},
	{name: "offset with dash", in: "2024-01-15T10:30:00+01-00"},
	{name: "offset with seconds", in: "2024-01-15T10:30:00+01:00:00"},
	{name: "full-width digits", in: "２０２４-01-15"},
	{name: "letters for digits", in: "2O24-01-15"},
}

// rfc822DateCases are the values of an RSS <pubDate>.
var rfc822DateCases = []dateCase{
	// FEEDDATE-1, FEEDDATE-2.
	{name: "spec example", in: "Mon, 15 Jan 2024 10:30:00 GMT", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0), zone: "UTC"},
	{name: "no day of week", in: "15 Jan 2024 10:30:00 GMT", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0), zone: "UTC"},
	{name: "no seconds", in: "Mon, 15 Jan 2024 10:30 GMT", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0), zone: "UTC"},
	{name: "no day of week and no seconds", in: "15 Jan 2024 10:30 GMT", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0), zone: "UTC"},
	{name: "every month", in: "Sun, 01 Dec 2024 23:59:59 GMT", ok: true, want: utcAt(2024, 12, 1, 23, 59, 59, 0), zone: "UTC"},

	// Two-digit years (FEEDDATE-3, FEEDDATE-4).
	{name: "year 24", in: "Mon, 15 Jan 24 10:30:00 GMT", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0), zone: "UTC"},
	{name: "year 00", in: "Sat, 01 Jan 00 00:00:00 GMT", ok: true, want: utcAt(2000, 1, 1, 0, 0, 0, 0), zone: "UTC"},
	{name: "year 68", in: "Sun, 01 Jan 68 00:00:00 GMT", ok: true, want: utcAt(2068, 1, 1, 0, 0, 0, 0), zone: "UTC"},
	{name: "year 69", in: "Wed, 01 Jan 69 00:00:00 GMT", ok: true, want: utcAt(1969, 1, 1, 0, 0, 0, 0), zone: "UTC"},
	{name: "year 70", in: "Thu, 01 Jan 70 00:00:00 GMT", ok: true, want: utcAt(1970, 1, 1, 0, 0, 0, 0), zone: "UTC"},
	{name: "year 99", in: "Fri, 31 Dec 99 23:59:59 GMT", ok: true, want: utcAt(1999, 12, 31, 23, 59, 59, 0), zone: "UTC"},
	{name: "year 0024", in: "15 Jan 0024 10:30 GMT", ok: true, want: utcAt(24, 1, 15, 10, 30, 0, 0), zone: "UTC"},

	// Zones (FEEDDATE-5, FEEDDATE-6): a name stands for its RFC 822 offset
	// whatever the local zone is.
	{name: "UT", in: "Mon, 15 Jan 2024 10:30:00 UT", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0), zone: "UTC"},
	{name: "UTC", in: "Mon, 15 Jan 2024 10:30:00 UTC", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0), zone: "UTC"},
	{name: "Z", in: "Mon, 15 Jan 2024 10:30:00 Z", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0), zone: "UTC"},
	{name: "EST", in: "Mon, 15 Jan 2024 10:30:00 EST", ok: true, want: utcAt(2024, 1, 15, 15, 30, 0, 0), off: -5 * time.Hour, zone: "EST"},
	{name: "EDT", in: "Mon, 15 Jul 2024 10:30:00 EDT", ok: true, want: utcAt(2024, 7, 15, 14, 30, 0, 0), off: -4 * time.Hour, zone: "EDT"},
	{name: "CST", in: "Mon, 15 Jan 2024 10:30:00 CST", ok: true, want: utcAt(2024, 1, 15, 16, 30, 0, 0), off: -6 * time.Hour, zone: "CST"},
	{name: "CDT", in: "Mon, 15 Jul 2024 10:30:00 CDT", ok: true, want: utcAt(2024, 7, 15, 15, 30, 0, 0), off: -5 * time.Hour, zone: "CDT"},
	{name: "MST", in: "Mon, 15 Jan 2024 10:30:00 MST", ok: true, want: utcAt(2024, 1, 15, 17, 30, 0, 0), off: -7 * time.Hour, zone: "MST"},
	{name: "MDT", in: "Mon, 15 Jul 2024 10:30:00 MDT", ok: true, want: utcAt(2024, 7, 15, 16, 30, 0, 0), off: -6 * time.Hour, zone: "MDT"},
	{name: "PST", in: "Mon, 15 Jan 2024 10:30:00 PST", ok: true, want: utcAt(2024, 1, 15, 18, 30, 0, 0), off: -8 * time.Hour, zone: "PST"},
	{name: "PDT", in: "Mon, 15 Jul 2024 10:30:00 PDT", ok: true, want: utcAt(2024, 7, 15, 17, 30, 0, 0), off: -7 * time.Hour, zone: "PDT"},
	{name: "EST in summer is still -0500", in: "Mon, 15 Jul 2024 10:30:00 EST", ok: true, want: utcAt(2024, 7, 15, 15, 30, 0, 0), off: -5 * time.Hour, zone: "EST"},
	{name: "positive offset", in: "Mon, 15 Jan 2024 10:30:00 +0100", ok: true, want: utcAt(2024, 1, 15, 9, 30, 0, 0), off: time.Hour},
	{name: "negative offset", in: "Mon, 15 Jan 2024 10:30:00 -0500", ok: true, want: utcAt(2024, 1, 15, 15, 30, 0, 0), off: -5 * time.Hour},
	{name: "India", in: "Mon, 15 Jan 2024 10:30:00 +0530", ok: true, want: utcAt(2024, 1, 15, 5, 0, 0, 0), off: 5*time.Hour + 30*time.Minute},
	{name: "Chatham", in: "Mon, 15 Jul 2024 10:30:00 +1245", ok: true, want: utcAt(2024, 7, 14, 21, 45, 0, 0), off: 12*time.Hour + 45*time.Minute},
	{name: "unusual offset", in: "Mon, 15 Jan 2024 10:30:00 -0107", ok: true, want: utcAt(2024, 1, 15, 11, 37, 0, 0), off: -(time.Hour + 7*time.Minute)},
	{name: "zero offset is a fixed zone", in: "Mon, 15 Jan 2024 10:30:00 +0000", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0)},
	{name: "negative zero offset", in: "Mon, 15 Jan 2024 10:30:00 -0000", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0)},
	{name: "offset crosses the year", in: "Tue, 31 Dec 2024 23:00:00 -0200", ok: true, want: utcAt(2025, 1, 1, 1, 0, 0, 0), off: -2 * time.Hour},

	// Lenient decisions (FEEDDATE-12, RFC 822 section 3.4.7).
	{name: "one-digit day", in: "Fri, 5 Jan 2024 10:30:00 GMT", ok: true, want: utcAt(2024, 1, 5, 10, 30, 0, 0), zone: "UTC"},
	{name: "one-digit day without day of week", in: "5 Jan 2024 10:30 GMT", ok: true, want: utcAt(2024, 1, 5, 10, 30, 0, 0), zone: "UTC"},
	{name: "weekday that does not match", in: "Fri, 15 Jan 2024 10:30:00 GMT", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0), zone: "UTC"},
	{name: "lower case", in: "mon, 15 jan 2024 10:30:00 gmt", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0), zone: "UTC"},
	{name: "upper case", in: "MON, 15 JAN 2024 10:30:00 GMT", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0), zone: "UTC"},
	{name: "lower-case zone name", in: "Mon, 15 Jan 2024 10:30:00 est", ok: true, want: utcAt(2024, 1, 15, 15, 30, 0, 0), off: -5 * time.Hour, zone: "EST"},
	{name: "lower-case z", in: "Mon, 15 Jan 2024 10:30:00 z", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0), zone: "UTC"},
	{name: "runs of spaces", in: "Mon,  15   Jan  2024   10:30:00   GMT", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0), zone: "UTC"},
	{name: "tabs and a folded line", in: "Mon,\t15 Jan\t2024\r\n 10:30:00\nGMT", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0), zone: "UTC"},
	{name: "no space after comma", in: "Mon,15 Jan 2024 10:30:00 GMT", ok: true, want: utcAt(2024, 1, 15, 10, 30, 0, 0), zone: "UTC"},

	// The calendar and the clock (ADOPTED-7).
	{name: "leap day 2000", in: "Tue, 29 Feb 2000 00:00:00 GMT", ok: true, want: utcAt(2000, 2, 29, 0, 0, 0, 0), zone: "UTC"},
	{name: "leap day 2024", in: "Thu, 29 Feb 2024 12:00 GMT", ok: true, want: utcAt(2024, 2, 29, 12, 0, 0, 0), zone: "UTC"},
	{name: "31 February", in: "Sat, 31 Feb 2024 10:30:00 GMT"},
	{name: "30 February", in: "30 Feb 2026 10:30:00 GMT"},
	{name: "29 February 1900", in: "29 Feb 1900 10:30:00 GMT"},
	{name: "29 February 2023", in: "29 Feb 2023 10:30:00 GMT"},
	{name: "29 February 23", in: "29 Feb 23 10:30:00 GMT"},
	{name: "31 April", in: "31 Apr 2024 10:30:00 GMT"},
	{name: "day 0", in: "0 Jan 2024 10:30:00 GMT"},
	{name: "day 00", in: "00 Jan 2024 10:30:00 GMT"},
	{name: "day 32", in: "32 Jan 2024 10:30:00 GMT"},
	{name: "hour 24", in: "15 Jan 2024 24:00:00 GMT"},
	{name: "minute 60", in: "15 Jan 2024 10:60:00 GMT"},
	{name: "second 60", in: "31 Dec 2024 23:59:60 GMT"},

	// Values that cannot be parsed.
	{name: "empty", in: ""},
	{name: "RFC 3339", in: "2024-01-15T10:30:00Z"}, // FEEDDATE-9
	{name: "W3C date", in: "2024-01-15"},
	{name: "CET", in: "Mon, 15 Jan 2024 10:30:00 CET"}, // FEEDDATE-7
	{name: "military A", in: "Mon, 15 Jan 2024 10:30:00 A"},
	{name: "military J", in: "Mon, 15 Jan 2024 10:30:00 J"},
	{name: "military Y", in: "Mon, 15 Jan 2024 10:30:00 Y"},
	{name: "GM", in: "Mon, 15 Jan 2024 10:30:00 GM"},
	{name: "GMTX", in: "Mon, 15 Jan 2024 10:30:00 GMTX"},
	{name: "POSIX zone", in: "Mon, 15 Jan 2024 10:30:00 EST5EDT"},
	{name: "zone in a comment", in: "Mon, 15 Jan 2024 10:30:00 (GMT)"},
	{name: "zone with comment", in: "Mon, 15 Jan 2024 10:30:00 +0000 (UTC)"},
	{name: "offset with colon", in: "Mon, 15 Jan 2024 10:30:00 +01:00"},
	{name: "offset in hours", in: "Mon, 15 Jan 2024 10:30:00 +01"},
	{name: "five-digit offset", in: "Mon, 15 Jan 2024 10:30:00 +01000"},
	{name: "unsigned offset", in: "Mon, 15 Jan 2024 10:30:00 0100"},
	{name: "offset hour 24", in: "Mon, 15 Jan 2024 10:30:00 +2400"},
	{name: "offset minute 60", in: "Mon, 15 Jan 2024 10:30:00 +0160"},
	{name: "sign only", in: "Mon, 15 Jan 2024 10:30:00 +"},
	{name: "no zone", in: "Mon, 15 Jan 2024 10:30:00"},
	{name: "no zone, space at the end", in: "Mon, 15 Jan 2024 10:30:00 "},
	{name: "zone without space", in: "Mon, 15 Jan 2024 10:30:00GMT"},
	{name: "fraction of a second", in: "Mon, 15 Jan 2024 10:30:00.123 GMT"},
	{name: "day of week without comma", in: "Mon 15 Jan 2024 10:30:00 GMT"},
	{name: "space before comma", in: "Mon , 15 Jan 2024 10:30:00 GMT"},
	{name: "full day name", in: "Monday, 15 Jan 2024 10:30:00 GMT"},
	{name: "unknown day name", in: "Xyz, 15 Jan 2024 10:30:00 GMT"},
	{name: "comma only", in: ", 15 Jan 2024 10:30:00 GMT"},
	{name: "day of week only", in: "Mon,"},
	{name: "full month name", in: "Mon, 15 January 2024 10:30:00 GMT"},
	{name: "unknown month", in: "Mon, 15 Foo 2024 10:30:00 GMT"},
	{name: "month number", in: "Mon, 15 01 2024 10:30:00 GMT"},
	{name: "three-digit day", in: "115 Jan 2024 10:30:00 GMT"},
	{name: "three-digit year", in: "15 Jan 024 10:30:00 GMT"},
	{name: "five-digit year", in: "15 Jan 02024 10:30:00 GMT"},
	{name: "one-digit year", in: "15 Jan 4 10:30:00 GMT"},
	{name: "one-digit hour", in: "15 Jan 2024 1:30:00 GMT"},
	{name: "one-digit minute", in: "15 Jan 2024 10:3 GMT"},
	{name: "one-digit second", in: "15 Jan 2024 10:30:0 GMT"},
	{name: "hour only", in: "15 Jan 2024 10 GMT"},
	{name: "no time", in: "15 Jan 2024 GMT"},
	{name: "date only", in: "15 Jan 2024"},
	{name: "dashes", in: "15-Jan-2024 10:30:00 GMT"},
	{name: "no space after day", in: "15Jan 2024 10:30:00 GMT"},
	{name: "T before time", in: "15 Jan 2024T10:30:00 GMT"},
	{name: "trailing garbage", in: "Mon, 15 Jan 2024 10:30:00 GMT junk"},
	{name: "trailing space", in: "Mon, 15 Jan 2024 10:30:00 GMT "},
	{name: "leading space", in: " Mon, 15 Jan 2024 10:30:00 GMT"},
	{name: "no-break space", in: "Mon, 15 Jan 2024\u00a010:30:00 GMT"},
	{name: "full-width digits", in: "Mon, １５ Jan 2024 10:30:00 GMT"},
}

func TestParseW3C(t *testing.T) {
	for _, c := range w3cDateCases {
		t.Run(c.name, func(t *testing.T) {
			checkDate(t, c, ParseW3C[string], ParseW3C[[]byte])
		})
	}
}

func TestParseRFC822(t *testing.T) {
	for _, c := range rfc822DateCases {
		t.Run(c.name, func(t *testing.T) {
			checkDate(t, c, ParseRFC822[string], ParseRFC822[[]byte])
		})
	}
}

// checkDate checks what both instantiations of a date parser make of c.in.
func checkDate(t *testing.T, c dateCase, parse func(string) (time.Time, bool), parseBytes func([]byte) (time.Time, bool)) {
	t.Helper()
	got, ok := parse(c.in)
	if ok != c.ok {
		t.Fatalf("parse(%q) = %v, %v; want ok %v", c.in, got, ok, c.ok)
	}
	if gotBytes, okBytes := parseBytes([]byte(c.in)); !sameDate(gotBytes, okBytes, got, ok) {
		t.Errorf("parse([]byte(%q)) = %v, %v; the string gives %v, %v", c.in, gotBytes, okBytes, got, ok)
	}
	if !ok {
		if !got.IsZero() {
			t.Errorf("parse(%q) = %v, false; want the zero time", c.in, got)
		}
		return
	}
	if !got.Equal(c.want) {
		t.Errorf("parse(%q) = %v; want the instant %v", c.in, got.UTC(), c.want)
	}
	zone, off := got.Zone()
	if time.Duration(off)*time.Second != c.off || zone != c.zone {
		t.Errorf("parse(%q) is in zone %q, offset %v; want %q, %v", c.in, zone, time.Duration(off)*time.Second, c.zone, c.off)
	}
	if c.zone == "UTC" && got.Location() != time.UTC {
		t.Errorf("parse(%q) is in %v; want time.UTC", c.in, got.Location())
	}
	if got.Location() == time.Local {
		t.Errorf("parse(%q) is in time.Local", c.in)
	}
}

// sameDate reports whether two results of a date parser are the same: the
// same instant in zones of the same name and offset.
func sameDate(t1 time.Time, ok1 bool, t2 time.Time, ok2 bool) bool {
	name1, off1 := t1.Zone()
	name2, off2 := t2.Zone()
	return ok1 == ok2 && t1.Equal(t2) && name1 == name2 && off1 == off2
}

// TestParseDatesReadWhatTimeWrites formats random times with the layouts
// of the time package that write the forms each parser takes, and checks
// that the parser reads them back as the same instant and offset: the
// tables pick the cases, this covers the calendar and the offsets at large.
func TestParseDatesReadWhatTimeWrites(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	named := []*time.Location{time.UTC}
	for _, z := range rfc822Zones {
		named = append(named, z.loc)
	}
	for range 5000 {
		off := (rng.IntN(2*24*60-1) - (24*60 - 1)) * 60 // -23:59 to +23:59
		year := rng.IntN(10000)
		// A day past the end of its month becomes one of the next month.
		local := time.Date(year, time.Month(1+rng.IntN(12)), 1+rng.IntN(31), rng.IntN(24), rng.IntN(60), rng.IntN(60), rng.IntN(1e9), time.FixedZone("", off))
		w3c := []string{time.RFC3339, time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02T15:04:05.000Z07:00", "2006-01-02t15:04:05-0700"}
		if off%3600 == 0 { // -07 would leave the minutes out
			w3c = append(w3c, "2006-01-02T15:04:05-07")
		}
		for _, layout := range w3c {
			checkReadBack(t, local, layout, ParseW3C[string])
		}
		if u := local.UTC(); inYears(u) { // a value without a zone is UTC
			checkReadBack(t, u, "2006-01-02T15:04:05.999999999", ParseW3C[string])
			checkReadBack(t, u, "2006-01-02", ParseW3C[string])
		}

		local = local.Add(-time.Duration(local.Nanosecond()))
		rfc822 := []string{time.RFC1123Z, "2 Jan 2006 15:04:05 -0700", "Mon,  2 Jan 2006 15:04 -0700"}
		if 1969 <= year && year <= 2068 {
			rfc822 = append(rfc822, "Mon, 02 Jan 06 15:04:05 -0700", time.RFC822Z)
		}
		for _, layout := range rfc822 {
			checkReadBack(t, local, layout, ParseRFC822[string])
		}
		if n := local.In(named[rng.IntN(len(named))]); inYears(n) {
			checkReadBack(t, n, time.RFC1123, ParseRFC822[string])
		}
	}
}

// inYears reports whether tm lies in the years 0 to 9999 of its zone, the
// years a date can write with four digits.
func inYears(tm time.Time) bool { return 0 <= tm.Year() && tm.Year() <= 9999 }

// checkReadBack checks that parse reads tm, formatted with layout, as the
// instant and offset tm has, to the precision layout writes (which
// time.Parse tells). A layout with a zone name writes the seconds, and
// time.Parse would read its name as +0000 unless it is the local zone's
// (the reason why ParseRFC822 does not use it), so there tm is the answer.
func checkReadBack(t *testing.T, tm time.Time, layout string, parse func(string) (time.Time, bool)) {
	t.Helper()
	in := tm.Format(layout)
	want := tm
	if !strings.Contains(layout, "MST") {
		var err error
		if want, err = time.Parse(layout, in); err != nil {
			t.Fatalf("time.Parse(%q, %q): %v", layout, in, err)
		}
	}
	got, ok := parse(in)
	_, gotOff := got.Zone()
	_, wantOff := tm.Zone()
	if !ok || !got.Equal(want) || gotOff != wantOff {
		t.Fatalf("parse(%q) = %v, %v; want %v, offset %d", in, got, ok, want, wantOff)
	}
}

// TestParseDatesDoNotAllocate checks that a valid value costs no
// allocation: a <lastmod> is read for every <url> of a document.
func TestParseDatesDoNotAllocate(t *testing.T) {
	for _, in := range []string{
		"2024-01-15",
		"2024-01-15T10:30:00Z",
		"2024-01-15T10:30:00.123456789Z",
		"2024-01-15T10:30:00+01:00",
		"2024-01-15T10:30:00-05:00",
		"2024-01-15T10:30:00+05:30",
		"2024-01-15T10:30:00+00:00",
	} {
		b := []byte(in)
		if n := testing.AllocsPerRun(100, func() { ParseW3C(in) }); n != 0 {
			t.Errorf("ParseW3C(%q) allocates %v times", in, n)
		}
		if n := testing.AllocsPerRun(100, func() { ParseW3C(b) }); n != 0 {
			t.Errorf("ParseW3C([]byte(%q)) allocates %v times", in, n)
		}
	}
	for _, in := range []string{
		"Mon, 15 Jan 2024 10:30:00 GMT",
		"Mon, 15 Jan 2024 10:30:00 EST",
		"Mon, 15 Jan 2024 10:30:00 pdt",
		"Mon, 15 Jan 2024 10:30:00 +0100",
		"Mon, 15 Jan 2024 10:30:00 +0530",
	} {
		b := []byte(in)
		if n := testing.AllocsPerRun(100, func() { ParseRFC822(in) }); n != 0 {
			t.Errorf("ParseRFC822(%q) allocates %v times", in, n)
		}
		if n := testing.AllocsPerRun(100, func() { ParseRFC822(b) }); n != 0 {
			t.Errorf("ParseRFC822([]byte(%q)) allocates %v times", in, n)
		}
	}
}

// childZoneEnv, set in the environment of a test binary that
// TestDatesAnyLocalZone starts, makes TestDatesChildZone run.
const childZoneEnv = "SITEMAP_TEST_DATES_CHILD"

// TestDatesAnyLocalZone runs the date tests again in test binaries whose
// local zone (TZ) differs, since a date must read the same on every machine
// (FEEDDATE-6): New York, whose local abbreviations are EST and EDT, and
// zones with offsets of half and three quarters of an hour.
func TestDatesAnyLocalZone(t *testing.T) {
	if os.Getenv(childZoneEnv) != "" {
		t.Skip("already in a child test binary")
	}
	for _, zone := range []string{"UTC", "America/New_York", "America/St_Johns", "Asia/Kolkata", "Pacific/Chatham"} {
		t.Run(zone, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(os.Args[0],
				"-test.run=^(TestParseW3C|TestParseRFC822|TestDatesChildZone)$",
				"-test.count=1", "-test.v")
			cmd.Env = append(os.Environ(), "TZ="+zone, childZoneEnv+"=1")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("date tests with TZ=%s: %v\n%s", zone, err, out)
			}
			for _, test := range []string{"TestParseW3C", "TestParseRFC822", "TestDatesChildZone"} {
				if !strings.Contains(string(out), "--- PASS: "+test+" ") {
					t.Errorf("date tests with TZ=%s: %s did not pass:\n%s", zone, test, out)
				}
			}
		})
	}
}

// TestDatesChildZone checks, in a binary TestDatesAnyLocalZone started,
// that the local zone is the one TZ names, so that the date tests beside
// it did run in that zone.
func TestDatesChildZone(t *testing.T) {
	if os.Getenv(childZoneEnv) == "" {
		t.Skip("runs only in a binary that TestDatesAnyLocalZone starts")
	}
	name := os.Getenv("TZ")
	want, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("zone %q: %v", name, err)
	}
	for _, at := range []time.Time{utcAt(2024, 1, 15, 12, 0, 0, 0), utcAt(2024, 7, 15, 12, 0, 0, 0)} {
		_, gotOff := at.In(time.Local).Zone()
		_, wantOff := at.In(want).Zone()
		if gotOff != wantOff {
			t.Errorf("at %v the local offset is %d; %s has %d", at, gotOff, name, wantOff)
		}
	}
}

func BenchmarkParseW3C(b *testing.B) {
	for _, in := range []string{
		"2024-01-15",
		"2024-01-15T10:30:00Z",
		"2024-01-15T10:30:00.123+01:00",
		"2024-01-15T10:30:00+05:30",
	} {
		b.Run(in, func(b *testing.B) {
			s := []byte(in)
			b.ReportAllocs()
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				ParseW3C(s)
			}
		})
	}
}

func BenchmarkParseRFC822(b *testing.B) {
	for _, in := range []string{
		"Mon, 15 Jan 2024 10:30:00 GMT",
		"Mon, 15 Jan 2024 10:30:00 PDT",
		"15 Jan 24 10:30 +0100",
	} {
		b.Run(in, func(b *testing.B) {
			s := []byte(in)
			b.ReportAllocs()
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				ParseRFC822(s)
			}
		})
	}
}
