package sitemap

import (
	"math"
	"slices"
	"strings"
	"sync"
	"time"
)

// This file is the memory of one document: where its URLs wait until the
// document is committed (pooled chunks, or one array sized from how far into
// the document the parse is), and the slabs, the arena and the sharing
// tables that the values of its URLs are cut from. It knows nothing of
// formats, limits or the call: the translate stage hands it values, and the
// commit takes its URLs through handOver.

// docBuf holds the URLs of one document and the memory their values are cut
// from. Its zero value is ready to use, sharing nothing; newDoc sets share,
// and sizeFrom the sizing of a document read alone.
type docBuf struct {
	urls [][]URL // in chunks, see addURL
	list []URL   // or in one array, see sizeFrom

	// A document whose size is known and which is read while no other is
	// sizes one array for its URLs from the bytes read so far: size is the
	// size of its body, pos how far into the body the parse about is, and
	// maxURLs the URL limit of the call (0: none), which bounds the array.
	size    int64
	pos     func() int64
	maxURLs int

	// The values the URLs of the document share, so that many URLs that
	// give the same date, priority or change frequency hold one copy of
	// it. A streaming call shares nothing: each URL it hands on is the
	// loop's own, to change at will.
	share         bool
	sharedTimes   map[time.Time]*LastModTime
	sharedFloats  [16]*float32 // the first nSharedFloats, see newFloat
	nSharedFloats int
	knownFreqs    [len(changeFreqValues)]*URLChangeFreq
	changeFreqs   map[string]*URLChangeFreq // the values of no constant

	// What is left of the slabs that values are cut from, many at once
	// rather than one allocation each.
	times    slab[LastModTime]   // newTime
	floats   slab[float32]       // newFloat
	freqs    slab[URLChangeFreq] // changeFreq, in a streaming call
	images   slab[Image]         // imageSlots
	arena    strings.Builder     // intern, for strings: the current chunk
	interned int                 // the bytes of the arena's chunks before the current one
}

// urlChunk is how many URLs one chunk of a document's buffer holds. A
// buffer of chunks grows without copying what it holds, so a document's
// URLs are copied once, into the results, rather than at every growth.
const urlChunk = 1024

// urlFirst is the room of a document's first chunk, which is not pooled.
const urlFirst = 64

// urlChunks holds the chunks of documents that have been committed, for the
// next documents to fill: a call of many large sitemaps then leaves no chunk
// behind for the garbage collector, only the URLs it keeps. It buys a call
// of a 100-URL sitemap a third of its CPU time (ARCHITECTURE.md, "Speed
// machinery").
var urlChunks = sync.Pool{New: func() any { return new([urlChunk]URL) }}

// sizeFrom lets a document that is read while no other is, and whose size is
// known, hand its URLs to the results in an array they take over as it is,
// rather than in chunks they copy. The document fills chunks at first, like
// any other; once it has read an eighth of its bytes, it can tell how many
// URLs it holds (the URLs so far, for the bytes read so far), and moves
// them into one array sized for that many (see moveToList). pos tells how
// many bytes of the body of the given size lie behind the parse; maxURLs
// is the URL limit of the call, 0 for none.
//
// A body of less than listMinSize, or gzipped of less than listMinGzipped,
// keeps its chunks: the position runs ahead of the parse
// by the buffers of the decode stage and of the scanner, some 80 KiB of a
// plain body and, gzipped, some 10 KiB of the body as compressed (at a
// tenth: the blocks of the read-ahead are counted as the compressed bytes
// they came from). The estimate of a body not many times that said little,
// and its array grew an eighth at a time, a copy each; while the copy of a
// small document's chunks at its commit is quick, and into an array of
// the exact size. gzipped tells whether size is that of a gzipped body.
func (b *docBuf) sizeFrom(pos func() int64, size int64, gzipped bool, maxURLs int) {
	least := int64(listMinSize)
	if gzipped {
		least = listMinGzipped
	}
	if size < least {
		return
	}
	b.pos, b.size, b.maxURLs = pos, size, maxURLs
}

// The least sizes of a body, plain and gzipped, whose document sizes an
// array for its URLs.
const (
	listMinSize    = 1 << 20
	listMinGzipped = 128 << 10
)

// addURL keeps u among the URLs of the document: in its array once it has
// one (see sizeFrom), in its chunks until then.
func (b *docBuf) addURL(u URL) {
	if b.list != nil {
		if len(b.list) == cap(b.list) {
			b.growList()
		}
		b.list = append(b.list, u)
		return
	}
	if n := len(b.urls); n == 0 || len(b.urls[n-1]) == cap(b.urls[n-1]) {
		switch {
		case n == 0:
			// Most documents are small: the first chunk grows by append
			// from room for a few URLs up to urlFirst.
			b.urls = append(b.urls, make([]URL, 0, 4))
		case n == 1 && cap(b.urls[0]) < urlFirst:
			b.urls[0] = slices.Grow(b.urls[0], 1)
		case b.pos != nil && b.moveToList():
			b.list = append(b.list, u)
			return
		default:
			b.urls = append(b.urls, urlChunks.Get().(*[urlChunk]URL)[:0])
		}
	}
	last := &b.urls[len(b.urls)-1]
	*last = append(*last, u)
}

// moveToList moves the URLs of a document read alone out of its chunks,
// which are full, into one array, once an eighth of the document's bytes
// have been read; it reports whether it did.
func (b *docBuf) moveToList() bool {
	if b.pos() < b.size/8 {
		return false
	}
	n := b.count()
	b.list = make([]URL, 0, b.listSize(n))
	for _, chunk := range b.urls {
		b.list = append(b.list, chunk...)
	}
	b.releaseChunks()
	return true
}

// growList makes room in b.list for more URLs than the document was
// expected to hold.
func (b *docBuf) growList() {
	grown := make([]URL, len(b.list), b.listSize(len(b.list)))
	copy(grown, b.list)
	b.list = grown
}

// listSize is the room for the URLs of a document read alone that has given
// n so far: as many as it is expected to hold, by the URLs it has given for
// the bytes read so far. The bytes read run ahead of the parse by a buffer
// or two (see decode's position), so the estimate is a little low: it is
// raised by an eighth. The room grows by an eighth at the least, so that a
// document denser at its end costs few copies. Since an eighth of the
// document has been read, the estimate is at most eight times n (unless the
// size given was wrong: it is held to that), so a document whose URLs all
// come at its start costs room for at most nine times the URLs it gave.
func (b *docBuf) listSize(n int) int {
	size := n + n/8
	if read := b.pos(); read > 0 {
		est := int(min(float64(n)*float64(b.size)/float64(read), float64(8*n)))
		size = max(size, est+est/8)
	}
	if b.maxURLs > 0 {
		size = min(size, b.maxURLs)
	}
	return max(size, n+1)
}

// count is how many URLs the document holds.
func (b *docBuf) count() int {
	n := len(b.list)
	for _, chunk := range b.urls {
		n += len(chunk)
	}
	return n
}

// keep leaves out the URLs of the document after the first n.
func (b *docBuf) keep(n int) {
	if b.list != nil {
		clear(b.list[n:])
		b.list = b.list[:n]
		return
	}
	for i, chunk := range b.urls {
		if len(chunk) > n {
			clear(chunk[n:])
			b.urls[i] = chunk[:n]
		}
		n -= len(b.urls[i])
	}
}

// handOver returns the URLs of the document for the commit: in list, an
// array that the results may take over as it is, or in chunks they copy.
// They are b's until release.
func (b *docBuf) handOver() (list []URL, chunks [][]URL) { return b.list, b.urls }

// release lets go of the document's URLs once the results have them, and
// gives its table of shared dates, emptied, back to sharedTimesPool.
func (b *docBuf) release() {
	b.releaseChunks()
	b.list = nil
	if b.sharedTimes != nil {
		clear(b.sharedTimes)
		sharedTimesPool.Put(b.sharedTimes)
		b.sharedTimes = nil
	}
}

// sharedTimesPool holds the tables of shared dates of documents that are
// done, for those read next: a call of 200 sitemaps made a table of up to
// maxShared dates for each, garbage once its document was committed. It
// buys a call of a 10-URL sitemap half of its CPU time (ARCHITECTURE.md,
// "Speed machinery").
var sharedTimesPool = sync.Pool{New: func() any { return make(map[time.Time]*LastModTime, maxShared) }}

// releaseChunks gives the document's chunks back to urlChunks once their
// URLs have been copied. They are cleared first: a pooled chunk must not
// keep the strings and dates of the URLs alive.
func (b *docBuf) releaseChunks() {
	for _, chunk := range b.urls {
		if cap(chunk) == urlChunk {
			clear(chunk)
			urlChunks.Put((*[urlChunk]URL)(chunk[:urlChunk]))
		}
	}
	b.urls = nil
}

// arenaChunk is the size of the chunks of bytes that the strings of a
// document are cut from, once it has interned that many bytes. The first
// chunks are smaller, from arenaFirst and each twice the size of what was
// interned before it, since most documents hold a few URLs. Once a document
// has interned sixteen chunks of arenaChunk, a chunk is a sixteenth of what
// it has interned, up to arenaChunkMax: the 50,000 URLs of bench/'s W1 then
// take about 60 chunks rather than 220, while the space left unused at the
// end of a document's last chunk, which lives as long as its strings do,
// stays within a sixteenth of them.
const (
	arenaFirst    = 1 << 10
	arenaChunk    = 16 << 10
	arenaChunkMax = 256 << 10
)

// intern returns s as a string cut from the document's arena: many short
// strings share one allocation. A chunk of the arena is a strings.Builder
// grown once to the chunk's size, which allocates it without zeroing it
// (the bytes past what was written are never read): a document's strings
// are as many bytes as its text, and zeroing them first cost W1 and Text a
// twentieth of their time. Bytes are only ever appended to a chunk, within
// the room it was grown to, so the chunk is never moved, and a string cut
// from it never changes.
func (b *docBuf) intern(s []byte) string {
	if len(s) == 0 {
		return ""
	}
	if len(s) > arenaChunk/8 {
		return string(s)
	}
	if b.arena.Cap()-b.arena.Len() < len(s) {
		b.newChunk(len(s))
	}
	off := b.arena.Len()
	b.arena.Write(s)
	return b.arena.String()[off:]
}

// newChunk starts the next chunk of the arena, with room for at least need
// bytes, out of intern's way.
//
// A document read alone whose URLs have their array (see moveToList) can
// tell how many bytes of strings are still to come, by those it has
// interned for the bytes read so far: its next chunk has room for them,
// from arenaChunk up to arenaChunkMax, larger than the sixteenth of what
// it has interned early in the document and smaller near its end. The
// bytes read run a buffer or two ahead of the parse (see listSize), so the
// estimate is a little low, and the last chunks, once the whole body is
// read, are of arenaChunk: what the document leaves unused at its end is
// less than with chunks of a sixteenth. An RSS feed of 10,000 items takes
// 5 chunks rather than 30, each a call of the allocator. What such a
// chunk leaves unused when the document's strings come mostly before the
// estimate is at most arenaChunkMax, once: the chunk after it is sized
// from the strings interned by then.
func (b *docBuf) newChunk(need int) {
	b.interned += b.arena.Len()
	var size int
	switch {
	case b.interned < arenaChunk:
		size = min(max(arenaFirst, 2*b.interned), arenaChunk)
	case b.list != nil && b.pos() > 0:
		read := b.pos()
		rest := int(float64(b.interned) * float64(max(b.size-read, 0)) / float64(read))
		size = min(max(rest, arenaChunk), arenaChunkMax)
	default:
		size = min(max(arenaChunk, b.interned/16), arenaChunkMax)
	}
	b.arena = strings.Builder{}
	b.arena.Grow(max(size, need))
}

// imageSlots returns an empty slice with room for n images, cut from a
// slab the document allocates for the images of many URLs at once.
func (b *docBuf) imageSlots(n int) []Image {
	b.images.refill(n)
	s := b.images.free[:0:n]
	b.images.free = b.images.free[n:]
	return s
}

// A slab is where the values of one type that a document's URLs point to
// are cut from, many to an allocation rather than one each. Its first
// allocation holds slabFirst values and each next one twice the last, up
// to slabSize: most documents hold a few URLs, and a slab of 256 dates for
// each of them was a fifth of what parsing a document of ten URLs
// allocated.
type slab[T any] struct {
	free []T
	size int // of the last allocation, 0 before the first
}

const (
	slabFirst = 16
	slabSize  = 256
)

// refill makes sure at least n values are free.
func (s *slab[T]) refill(n int) {
	if len(s.free) < n {
		s.size = min(max(2*s.size, slabFirst), slabSize)
		s.free = make([]T, max(s.size, n))
	}
}

// fromSlab returns a pointer to v, cut from s.
func fromSlab[T any](s *slab[T], v T) *T {
	s.refill(1)
	p := &s.free[0]
	s.free = s.free[1:]
	*p = v
	return p
}

// maxShared bounds the dates and the change frequencies a document shares
// among its URLs, so that a document of all different values costs a
// bounded map.
const maxShared = 1024

// newTime returns a *LastModTime holding t. The URLs of a document that
// give the same date share one (see docBuf.share): sitemaps tend to repeat
// a few dates many times over. Other dates are cut from a slab the document
// allocates for many of them at once, rather than one allocation each.
func (b *docBuf) newTime(t time.Time) *LastModTime {
	if p := b.sharedTimes[t]; p != nil {
		return p
	}
	p := fromSlab(&b.times, LastModTime{t})
	if !b.share {
		return p
	}
	if b.sharedTimes == nil {
		b.sharedTimes = sharedTimesPool.Get().(map[time.Time]*LastModTime)
	}
	if len(b.sharedTimes) < maxShared {
		b.sharedTimes[t] = p
	}
	return p
}

// newFloat returns a *float32 holding f, shared and cut from a slab as
// newTime's dates are. A document gives few priorities (0.1 to 1.0, as a
// rule): the shared ones are looked up in a short array, not a map.
func (b *docBuf) newFloat(f float32) *float32 {
	for _, p := range b.sharedFloats[:b.nSharedFloats] {
		if math.Float32bits(*p) == math.Float32bits(f) {
			return p
		}
	}
	p := fromSlab(&b.floats, f)
	if b.share && b.nSharedFloats < len(b.sharedFloats) {
		b.sharedFloats[b.nSharedFloats] = p
		b.nSharedFloats++
	}
	return p
}

// changeFreq returns a *URLChangeFreq holding cf, whose index in
// changeFreqValues is i (-1 for another value): the one the URLs of the
// document that give cf share, or in a streaming call one of the URL's own,
// cut from a slab (see docBuf.share).
func (b *docBuf) changeFreq(cf string, i int) *URLChangeFreq {
	if !b.share {
		return fromSlab(&b.freqs, URLChangeFreq(cf))
	}
	if i >= 0 {
		if b.knownFreqs[i] == nil {
			b.knownFreqs[i] = new(URLChangeFreq)
			*b.knownFreqs[i] = changeFreqValues[i]
		}
		return b.knownFreqs[i]
	}
	if p, ok := b.changeFreqs[cf]; ok {
		return p
	}
	p := new(URLChangeFreq)
	*p = URLChangeFreq(cf)
	if b.changeFreqs == nil {
		b.changeFreqs = map[string]*URLChangeFreq{}
	}
	if len(b.changeFreqs) < maxShared {
		b.changeFreqs[cf] = p
	}
	return p
}
