// Package dates reads the two date formats that sitemaps and feeds write:
// the W3C Datetime profile of ISO 8601 (with RFC 3339 among its forms), and
// the date-time of RFC 822 as RFC 1123 updates it.
//
// Its user is the root package, github.com/gositemap/sitemap, which reads
// with [ParseW3C] the value of a <lastmod>, an Atom <updated>, a
// <news:publication_date>, a <video:expiration_date> and a
// <video:publication_date>, and with [ParseRFC822] the <pubDate> of an RSS
// item. The package knows the formats only, not where a value comes from
// or what becomes of one that does not parse: a parser reports a value it
// cannot read with false, and the caller makes the error it reports.
//
// Both parsers run once for every entry of a document, so they scan the
// bytes by hand: no regexp, no fmt, no time.Parse (whose zone
// abbreviations depend on the machine's local zone), and no allocation for
// a valid value. They take a string or a []byte alike, so a caller holding
// the bytes of a document need not copy them.
//
// Every time returned is in time.UTC or in a fixed zone, never in
// time.Local, so a date reads the same on every machine. The parsers hold
// no state and are safe for concurrent use.
package dates

import "time"

// ParseW3C parses s as a date in the W3C Datetime profile of ISO 8601, the
// form sitemaps.org names for a <lastmod>, RFC 3339 among its forms
// (VALUE-10, FEEDDATE-8), and returns the zero time and false when s is not
// one:
//
//	YYYY
//	YYYY-MM
//	YYYY-MM-DD
//	YYYY-MM-DDThh:mmTZD
//	YYYY-MM-DDThh:mm:ssTZD
//	YYYY-MM-DDThh:mm:ss.sTZD (one fraction digit or more)
//
// where TZD is Z or +hh:mm or -hh:mm. The value is checked against the
// calendar (ADOPTED-7). The caller has trimmed the white space around it
// (VALUE-8), so any white space left is a format error; so is a space in
// place of the T ("2024-01-15 10:30:00", VALUE-3).
//
// Decisions for the lenient real web, beyond the profile:
//   - A lower-case t separator and a lower-case z zone are accepted:
//     RFC 3339, section 5.6, allows them.
//   - The offsets +hhmm and +hh (and their - forms) of ISO 8601 are
//     accepted besides +hh:mm; hh is at most 23 and mm at most 59, as in
//     RFC 3339.
//   - A date-time without any TZD is read as UTC, as a date without a time
//     is (VALUE-11): a sitemap has no other zone to offer.
//
// Decisions on what is rejected:
//   - A second of 60 is rejected, as an hour of 24 and a minute of 60 are:
//     time.Time has no leap second, and time.Date would move the value to
//     another instant.
//   - Fraction digits past the ninth are checked but do not count
//     (nanoseconds are truncated, as time.Parse does). A comma in place of
//     the point, which ISO 8601 allows, is not in the W3C profile and is
//     rejected.
//   - The year has exactly four digits, so it lies in 0000..9999.
//
// A time with Z (or none) is in time.UTC, one with an offset in a
// time.FixedZone with an empty name and that offset, +00:00 included; a date
// without a time is midnight UTC.
func ParseW3C[T ~string | ~[]byte](s T) (time.Time, bool) {
	if t, ok := w3cCommon(s); ok {
		return t, true
	}
	return parseW3CGeneral(s)
}

// w3cCommon reads, in one pass over fixed places, the three forms nearly
// every sitemap writes: YYYY-MM-DD, YYYY-MM-DDThh:mm:ssZ and
// YYYY-MM-DDThh:mm:ss+hh:mm (or -hh:mm, t and z in lower case). It returns
// false for anything else, valid or not, which parseW3CGeneral then reads:
// what it accepts, it makes into the time parseW3CGeneral makes of it
// (FuzzW3CCommon holds the two together).
func w3cCommon[T ~string | ~[]byte](s T) (time.Time, bool) {
	n := len(s)
	if n != 10 && n != 20 && n != 25 {
		return time.Time{}, false
	}
	_ = s[9]
	century, yy, month, day := twoDigits(s[0], s[1]), twoDigits(s[2], s[3]), twoDigits(s[5], s[6]), twoDigits(s[8], s[9])
	year := century*100 + yy
	if century|yy|month|day < 0 || s[4] != '-' || s[7] != '-' || !validDate(year, month, day) {
		return time.Time{}, false
	}
	days := unixDays(year, month, day)
	if n == 10 {
		return time.Unix(days*86400, 0).In(time.UTC), true
	}
	_ = s[19]
	hour, minute, sec := twoDigits(s[11], s[12]), twoDigits(s[14], s[15]), twoDigits(s[17], s[18])
	if hour|minute|sec < 0 || s[10] != 'T' && s[10] != 't' || s[13] != ':' || s[16] != ':' || !validClock(hour, minute, sec) {
		return time.Time{}, false
	}
	loc, off, ok := commonZone(s)
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(days*86400+int64(hour*3600+minute*60+sec-off), 0).In(loc), true
}

// commonZone reads the zone that ends s from s[19]: Z alone, or +hh:mm
// or -hh:mm, as w3cZone does.
func commonZone[T ~string | ~[]byte](s T) (loc *time.Location, off int, ok bool) {
	if len(s) == 20 {
		return time.UTC, 0, s[19] == 'Z' || s[19] == 'z'
	}
	_ = s[24]
	hh, mm := twoDigits(s[20], s[21]), twoDigits(s[23], s[24])
	neg := s[19] == '-'
	if hh|mm < 0 || !neg && s[19] != '+' || s[22] != ':' {
		return nil, 0, false
	}
	if loc, ok = offsetZone(neg, hh, mm); !ok {
		return nil, 0, false
	}
	if off = (hh*60 + mm) * 60; neg {
		off = -off
	}
	return loc, off, true
}

// twoDigits returns the number the decimal digits a and b write, and -1
// when either is no digit, so that one test of the numbers ORed together
// tells whether all of them are.
func twoDigits(a, b byte) int {
	a -= '0'
	b -= '0'
	if a > 9 || b > 9 {
		return -1
	}
	return int(a)*10 + int(b)
}

// parseW3CGeneral is ParseW3C for every form, read field by field.
func parseW3CGeneral[T ~string | ~[]byte](s T) (time.Time, bool) {
	year, month, day, ok := w3cDate(s)
	if !ok {
		return time.Time{}, false
	}
	if len(s) <= 10 { // YYYY, YYYY-MM or YYYY-MM-DD: w3cDate lets no other length through
		return time.Unix(unixDays(year, month, day)*86400, 0).In(time.UTC), true
	}
	hour, minute, sec, nsec, i, ok := w3cClock(s)
	if !ok {
		return time.Time{}, false
	}
	loc, off, ok := w3cZone(s, i)
	if !ok {
		return time.Time{}, false
	}
	// What time.Date makes of a valid date and clock, computed directly:
	// the offset is known, so the zone is not looked up.
	unix := unixDays(year, month, day)*86400 + int64(hour*3600+minute*60+sec-off)
	return time.Unix(unix, int64(nsec)).In(loc), true
}

// unixDays is the number of days from 1970-01-01 to year-month-day, a day
// of the proleptic Gregorian calendar, negative before it: the days of the
// whole 400-year eras and of the years, counted from March, of the last.
func unixDays(year, month, day int) int64 {
	y := int64(year)
	if month <= 2 {
		y--
	}
	era := y / 400
	if y < 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400 // 0..399
	m := int64(month) + 9
	if month > 2 {
		m = int64(month) - 3
	}
	doy := (153*m+2)/5 + int64(day) - 1 // 0..365, from March 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// w3cDate reads the date that starts s, YYYY, YYYY-MM or YYYY-MM-DD, and
// returns false when s stops or goes on where none of these forms can, or
// when the date is not a day of the calendar. A month or a day left out is
// 1. What follows a full date is the time, for w3cClock to read: when the
// result is true, s has 4 or 7 bytes, or 10 or more.
func w3cDate[T ~string | ~[]byte](s T) (year, month, day int, ok bool) {
	n := len(s)
	if year, ok = dateDigits(s, 0, 4); !ok {
		return 0, 0, 0, false
	}
	month, day = 1, 1
	if n > 4 {
		if s[4] != '-' {
			return 0, 0, 0, false
		}
		if month, ok = dateDigits(s, 5, 2); !ok {
			return 0, 0, 0, false
		}
	}
	if n > 7 {
		if s[7] != '-' {
			return 0, 0, 0, false
		}
		if day, ok = dateDigits(s, 8, 2); !ok {
			return 0, 0, 0, false
		}
	}
	return year, month, day, validDate(year, month, day)
}

// w3cClock reads the time that follows the date YYYY-MM-DD at s[10]: T (or
// t), then hh:mm, then :ss and a fraction .s… if they are there. It
// returns the index after it, where the TZD starts, and false when the
// time is not one of the day.
func w3cClock[T ~string | ~[]byte](s T) (hour, minute, sec, nsec, i int, ok bool) {
	if s[10] != 'T' && s[10] != 't' {
		return 0, 0, 0, 0, 0, false
	}
	hour, ok1 := dateDigits(s, 11, 2)
	minute, ok2 := dateDigits(s, 14, 2)
	if !ok1 || !ok2 || s[13] != ':' {
		return 0, 0, 0, 0, 0, false
	}
	i = 16
	if i < len(s) && s[i] == ':' {
		if sec, ok = dateDigits(s, 17, 2); !ok {
			return 0, 0, 0, 0, 0, false
		}
		i = 19
		if i < len(s) && s[i] == '.' {
			if nsec, i, ok = w3cFraction(s, i+1); !ok {
				return 0, 0, 0, 0, 0, false
			}
		}
	}
	return hour, minute, sec, nsec, i, validClock(hour, minute, sec)
}

// w3cFraction reads the digits of a fraction of a second that start at
// s[i], one at the least, as nanoseconds: digits past the ninth are
// skipped, as time.Parse does. It returns the index after the digits.
func w3cFraction[T ~string | ~[]byte](s T, i int) (nsec, end int, ok bool) {
	start := i
	for ; i < len(s) && isDateDigit(s[i]); i++ {
		if i-start < 9 {
			nsec = nsec*10 + int(s[i]-'0')
		}
	}
	if i == start {
		return 0, 0, false
	}
	for d := i - start; d < 9; d++ {
		nsec *= 10
	}
	return nsec, i, true
}

// w3cZone reads the TZD that starts at s[i] and ends the value: none, Z, or
// an offset +hh:mm, +hhmm or +hh (or -), and returns its zone and its
// offset in seconds east of UTC. See ParseW3C for why more than
// the profile's forms are accepted.
func w3cZone[T ~string | ~[]byte](s T, i int) (loc *time.Location, off int, ok bool) {
	n := len(s)
	switch {
	case i == n:
		return time.UTC, 0, true
	case n-i == 1 && (s[i] == 'Z' || s[i] == 'z'):
		return time.UTC, 0, true
	case s[i] != '+' && s[i] != '-':
		return nil, 0, false
	}
	hh, ok := dateDigits(s, i+1, 2)
	if !ok {
		return nil, 0, false
	}
	mm := 0
	switch n - i {
	case 3: // +hh
	case 5: // +hhmm
		mm, ok = dateDigits(s, i+3, 2)
	case 6: // +hh:mm
		if s[i+3] != ':' {
			return nil, 0, false
		}
		mm, ok = dateDigits(s, i+4, 2)
	default:
		return nil, 0, false
	}
	if !ok {
		return nil, 0, false
	}
	if loc, ok = offsetZone(s[i] == '-', hh, mm); !ok {
		return nil, 0, false
	}
	if off = (hh*60 + mm) * 60; s[i] == '-' {
		off = -off
	}
	return loc, off, true
}

// ParseRFC822 parses s as a date-time of RFC 822 as RFC 1123 updates it,
// the form of an RSS <pubDate>, such as "Mon, 15 Jan 2024 10:30:00 GMT"
// (FEEDDATE-1), and returns the zero time and false when s is not one:
//
//	[Ddd,] D[D] Mmm YY[YY] hh:mm[:ss] zone
//
// The day of the week and the seconds may be left out (FEEDDATE-2). The
// caller has trimmed the white space around the value (VALUE-8); between the
// fields, one white space character (space, tab, CR or LF) or more stands
// for RFC 822's one space, which also lets a folded header through. After
// the comma of the day of the week the white space may be left out, as RFC
// 822 allows. The value is checked against the calendar (ADOPTED-7).
//
// Decisions on the points the spec leaves open (FEEDDATE-4, FEEDDATE-12):
//   - Names of days, months and zones are matched without regard to case,
//     as RFC 822, section 3.4.7, says of all its alphabetic strings.
//   - The day of the week is checked to be a name (Mon to Sun) followed by a
//     comma, but not to be the day of that date: feeds get it wrong, and
//     the date is what counts.
//   - The day of the month has one digit or two, as RFC 822 allows.
//   - A two-digit year 00 to 68 is 2000 to 2068 and 69 to 99 is 1969 to
//     1999 (FEEDDATE-3, FEEDDATE-4): the same pivot as POSIX strptime and
//     Go's time package, and RFC 2822 asks for 2000 and later below 50.
//   - hh, mm and ss have two digits each; a second of 60 is rejected, as in
//     ParseW3C.
//   - The zone is required. It is a numeric offset +hhmm or -hhmm (hh at
//     most 23, mm at most 59) or one of the names of FEEDDATE-5, whatever
//     the machine's local zone is (FEEDDATE-6). Any other name is not
//     known (FEEDDATE-7), the single-letter military zones other than Z
//     included: RFC 1123 says RFC 822 got their signs wrong.
//   - An RFC 3339 value is not RFC 822 and is rejected (FEEDDATE-9).
//
// A time with UT, GMT, UTC or Z is in time.UTC, one with another name in a
// time.FixedZone of that name ("EST", -5h), one with a numeric offset in a
// time.FixedZone with an empty name, +0000 included.
func ParseRFC822[T ~string | ~[]byte](s T) (time.Time, bool) {
	year, month, day, i, ok := rfc822Date(s)
	if !ok {
		return time.Time{}, false
	}
	hour, minute, sec, i, ok := rfc822Clock(s, i)
	if !ok {
		return time.Time{}, false
	}
	loc, ok := rfc822Zone(s, i)
	if !ok {
		return time.Time{}, false
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, 0, loc), true
}

// rfc822Date reads the date that starts s, [Ddd,] D[D] Mmm YY[YY], and the
// white space after it. It returns the index where the time starts, and
// false when the date is not a day of the calendar or nothing follows it.
func rfc822Date[T ~string | ~[]byte](s T) (year, month, day, i int, ok bool) {
	n := len(s)
	if n > 0 && !isDateDigit(s[0]) {
		// The day of the week, then a comma.
		if n < 4 || dateNameIndex(s, 0, 3, rfc822Weekdays) < 0 || s[3] != ',' {
			return 0, 0, 0, 0, false
		}
		i = skipDateSpace(s, 4)
	}
	if day, i, ok = dateDigitRun(s, i, 1, 2); !ok {
		return 0, 0, 0, 0, false
	}
	if i, ok = dateFieldSpace(s, i); !ok {
		return 0, 0, 0, 0, false
	}
	if month = dateNameIndex(s, i, 3, rfc822Months) + 1; month == 0 {
		return 0, 0, 0, 0, false
	}
	if i, ok = dateFieldSpace(s, i+3); !ok {
		return 0, 0, 0, 0, false
	}
	start := i
	if year, i, ok = dateDigitRun(s, i, 2, 4); !ok {
		return 0, 0, 0, 0, false
	}
	if year, ok = rfc822Year(year, i-start); !ok || !validDate(year, month, day) {
		return 0, 0, 0, 0, false
	}
	if i, ok = dateFieldSpace(s, i); !ok {
		return 0, 0, 0, 0, false
	}
	return year, month, day, i, true
}

// rfc822Year returns the year that a <pubDate> writes as the number v of
// digits digits: four are the year itself, two take the pivot of
// ParseRFC822, and three are not a year.
func rfc822Year(v, digits int) (int, bool) {
	switch {
	case digits == 4:
		return v, true
	case digits != 2:
		return 0, false
	case v < 69:
		return v + 2000, true
	default:
		return v + 1900, true
	}
}

// rfc822Clock reads the time hh:mm[:ss] that starts at s[i], and the white
// space after it. It returns the index where the zone starts, and false
// when the time is not one of the day or nothing follows it.
func rfc822Clock[T ~string | ~[]byte](s T, i int) (hour, minute, sec, end int, ok bool) {
	hour, ok1 := dateDigits(s, i, 2)
	minute, ok2 := dateDigits(s, i+3, 2)
	if !ok1 || !ok2 || s[i+2] != ':' {
		return 0, 0, 0, 0, false
	}
	i += 5
	if i < len(s) && s[i] == ':' {
		if sec, ok = dateDigits(s, i+1, 2); !ok {
			return 0, 0, 0, 0, false
		}
		i += 3
	}
	if !validClock(hour, minute, sec) {
		return 0, 0, 0, 0, false
	}
	if end, ok = dateFieldSpace(s, i); !ok {
		return 0, 0, 0, 0, false
	}
	return hour, minute, sec, end, true
}

// rfc822Zone reads the zone that starts at s[i] and ends the value: +hhmm,
// -hhmm or one of the names of rfc822Zones.
func rfc822Zone[T ~string | ~[]byte](s T, i int) (*time.Location, bool) {
	n := len(s)
	if s[i] == '+' || s[i] == '-' {
		hh, ok1 := dateDigits(s, i+1, 2)
		mm, ok2 := dateDigits(s, i+3, 2)
		if !ok1 || !ok2 || n-i != 5 {
			return nil, false
		}
		return offsetZone(s[i] == '-', hh, mm)
	}
	for _, z := range rfc822Zones {
		if len(z.name) == n-i && equalFoldLetters(s, i, z.name) {
			return z.loc, true
		}
	}
	return nil, false
}

// rfc822Zones are the zone names a <pubDate> may give (FEEDDATE-5) with the
// offsets RFC 822 gives them (FEEDDATE-6). The fixed zones are made once,
// here, and only read afterwards, so a <pubDate> that names one does not
// allocate.
var rfc822Zones = [...]struct {
	name string
	loc  *time.Location
}{
	{"UT", time.UTC},
	{"GMT", time.UTC},
	{"UTC", time.UTC},
	{"Z", time.UTC},
	{"EST", time.FixedZone("EST", -5*3600)},
	{"EDT", time.FixedZone("EDT", -4*3600)},
	{"CST", time.FixedZone("CST", -6*3600)},
	{"CDT", time.FixedZone("CDT", -5*3600)},
	{"MST", time.FixedZone("MST", -7*3600)},
	{"MDT", time.FixedZone("MDT", -6*3600)},
	{"PST", time.FixedZone("PST", -8*3600)},
	{"PDT", time.FixedZone("PDT", -7*3600)},
}

// offsetZone returns the fixed zone, with an empty name, of the offset
// sign hh:mm, and false when hh is over 23 or mm over 59 (the bounds of
// RFC 3339).
//
// time.FixedZone returns one shared *time.Location for the whole hours from
// -12 to +14 and allocates for any other offset. The offsets that zones in
// use have besides whole hours are made once in fractionalZones, so the
// dates of India, Iran, Nepal or Newfoundland do not allocate either; only
// a date with some other offset pays for a new zone.
func offsetZone(negative bool, hh, mm int) (*time.Location, bool) {
	if hh > 23 || mm > 59 {
		return nil, false
	}
	off := (hh*60 + mm) * 60
	if negative {
		off = -off
	}
	if mm != 0 {
		for _, z := range fractionalZones {
			if z.offset == off {
				return z.loc, true
			}
		}
	}
	return time.FixedZone("", off), true
}

// fractionalZones are the fixed zones of the offsets that are not whole
// hours and that zones of the IANA database use.
var fractionalZones = [...]offsetLocation{
	fractionalZone(-9, -30), // Marquesas
	fractionalZone(-3, -30), // Newfoundland
	fractionalZone(-2, -30), // Newfoundland, summer
	fractionalZone(3, 30),   // Iran
	fractionalZone(4, 30),   // Afghanistan
	fractionalZone(5, 30),   // India, Sri Lanka
	fractionalZone(5, 45),   // Nepal
	fractionalZone(6, 30),   // Myanmar, Cocos Islands
	fractionalZone(8, 45),   // Eucla
	fractionalZone(9, 30),   // Central Australia
	fractionalZone(10, 30),  // Central Australia, summer; Lord Howe
	fractionalZone(12, 45),  // Chatham Islands
	fractionalZone(13, 45),  // Chatham Islands, summer
}

// offsetLocation is a fixed zone with its offset, in seconds east of UTC.
type offsetLocation struct {
	offset int
	loc    *time.Location
}

// fractionalZone makes the entry of fractionalZones of the offset hh:mm,
// where hh and mm both have the sign of the offset.
func fractionalZone(hh, mm int) offsetLocation {
	off := (hh*60 + mm) * 60
	return offsetLocation{off, time.FixedZone("", off)}
}

// validDate reports whether year-month-day is a day of the proleptic
// Gregorian calendar (ADOPTED-7).
func validDate(year, month, day int) bool {
	if month < 1 || month > 12 || day < 1 {
		return false
	}
	days := [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[month-1]
	if month == 2 && year%4 == 0 && (year%100 != 0 || year%400 == 0) {
		days = 29
	}
	return day <= days
}

// validClock reports whether hour:minute:sec is a time of day. A second of
// 60 is not: time.Time has no leap second.
func validClock(hour, minute, sec int) bool {
	return hour <= 23 && minute <= 59 && sec <= 59
}

// rfc822Weekdays and rfc822Months hold the three-letter English names, in
// lower case, one after the other.
const (
	rfc822Weekdays = "montuewedthufrisatsun"
	rfc822Months   = "janfebmaraprmayjunjulaugsepoctnovdec"
)

// dateNameIndex returns the index in names of the name of width letters
// that starts at s[i], without regard to case, or -1 when there is none.
func dateNameIndex[T ~string | ~[]byte](s T, i, width int, names string) int {
	if i+width > len(s) {
		return -1
	}
	for k := 0; k+width <= len(names); k += width {
		if equalFoldLetters(s, i, names[k:k+width]) {
			return k / width
		}
	}
	return -1
}

// equalFoldLetters reports whether s[i:i+len(name)] is name without regard
// to case. name holds only ASCII letters (the name of a month, a day or a
// zone), which is what lets a byte be folded by its 0x20 bit alone. s
// must hold len(name) bytes from i.
func equalFoldLetters[T ~string | ~[]byte](s T, i int, name string) bool {
	for k := range len(name) {
		if s[i+k]|0x20 != name[k]|0x20 {
			return false
		}
	}
	return true
}

// dateDigits returns the number written by the width decimal digits that
// start at s[i], and false when s has fewer or another byte is among them.
func dateDigits[T ~string | ~[]byte](s T, i, width int) (int, bool) {
	if i < 0 || i+width > len(s) {
		return 0, false
	}
	v := 0
	for ; width > 0; i, width = i+1, width-1 {
		if !isDateDigit(s[i]) {
			return 0, false
		}
		v = v*10 + int(s[i]-'0')
	}
	return v, true
}

// dateDigitRun returns the number written by the decimal digits that start
// at s[i], at most most of them, and the index after them; false when there
// are fewer than least.
func dateDigitRun[T ~string | ~[]byte](s T, i, least, most int) (int, int, bool) {
	v, start := 0, i
	for ; i < len(s) && i-start < most && isDateDigit(s[i]); i++ {
		v = v*10 + int(s[i]-'0')
	}
	return v, i, i-start >= least
}

// skipDateSpace returns the index of the first byte from s[i] on that is
// not white space (space, tab, CR, LF, as XML counts it).
func skipDateSpace[T ~string | ~[]byte](s T, i int) int {
	for i < len(s) && isDateSpace(s[i]) {
		i++
	}
	return i
}

// dateFieldSpace is skipDateSpace for the white space between two fields of
// an RFC 822 date: it returns false when s[i] is not white space or when
// only white space follows.
func dateFieldSpace[T ~string | ~[]byte](s T, i int) (int, bool) {
	j := skipDateSpace(s, i)
	return j, j > i && j < len(s)
}

func isDateDigit(c byte) bool { return '0' <= c && c <= '9' }

func isDateSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
