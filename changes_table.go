package sitemap

import (
	"math/bits"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/gositemap/sitemap/internal/changes"
)

// This file is the table of change detection (changes.go): the URLs of
// the last run as 64-bit hashes, grouped by sitemap, and the index of all
// of them by hash; what a lookup marks seen.

// index makes the table of the last run, from the lists of its sitemaps,
// each read once, on two goroutines (a half of the sitemaps, of the
// entries, of the buckets each). Its entries are grouped by sitemap, each
// group sorted by hash, with a directory of buckets of about four: most
// URLs of a document are found in the group of its own sitemap, a few
// thousand entries that stay in the cache while it is read (lookIn). The
// others (moved, new, listed twice) are looked up by the index of all the
// entries by hash (find): the hashes spread evenly, so the top bits of a
// hash name a bucket of about eight entries, whose start in byHash the
// directory holds (half a megabyte for a million URLs). That is made by
// counting the entries by bucket, placing them, and sorting each bucket
// by insertion.
func (k *changeState) index() {
	ns := len(k.sms)
	// Each group has room for as many entries as its lists hold, and a
	// directory of a size that follows from that.
	at := make([]int, ns+1)
	k.gat = make([]uint32, ns+1)
	for i := range k.sms {
		room := changes.Len(k.sms[i].list) + changes.Len(k.sms[i].kept)
		at[i+1] = at[i] + room
		k.gat[i+1] = k.gat[i] + 1<<groupBits(room) + 1
	}
	k.old = make([]oldEntry, at[ns])
	k.gdir = make([]uint32, k.gat[ns])
	counts := make([]int, ns)
	half := sort.SearchInts(at, at[ns]/2)
	inHalves(func(h int) {
		from, to := 0, half
		if h == 1 {
			from, to = half, ns
		}
		var tmp []oldEntry
		for i := from; i < to; i++ {
			es := k.old[at[i]:at[i]:at[i+1]]
			k.eachOld(i, func(e oldEntry) {
				if len(es) < cap(es) { // more than its length says: left out
					es = append(es, e)
				}
			})
			tmp = sortByHash(es, tmp, k.gdir[k.gat[i]:k.gat[i+1]])
			counts[i] = len(es)
		}
	})
	// The groups are moved up over the room their lists did not fill.
	k.seg = make([]uint32, ns+1)
	n := 0
	for i, c := range counts {
		k.seg[i] = uint32(n)
		if n != at[i] {
			copy(k.old[n:], k.old[at[i]:at[i]+c])
		}
		n += c
	}
	k.seg[ns] = uint32(n)
	k.old = k.old[:n:n]

	for k.bits = 1; 8<<k.bits < n && k.bits < 30; k.bits++ {
	}
	shift := 64 - k.bits
	// Counted and placed by halves of the entries, the first half's
	// before the second's in each bucket, as one pass would place them.
	cut := n / 2
	next := [2][]uint32{make([]uint32, 1<<k.bits), make([]uint32, 1<<k.bits)}
	inHalves(func(h int) {
		es := k.old[:cut]
		if h == 1 {
			es = k.old[cut:]
		}
		for _, e := range es {
			next[h][e.h>>shift]++
		}
	})
	k.dir = make([]uint32, 1<<k.bits+1)
	for b := range next[0] {
		k.dir[b+1] = k.dir[b] + next[0][b] + next[1][b]
		next[0][b], next[1][b] = k.dir[b], k.dir[b]+next[0][b]
	}
	k.byHash = make([]uint32, n)
	k.dup = make([]uint64, (n+63)/64)
	inHalves(func(h int) {
		from, to := 0, cut
		if h == 1 {
			from, to = cut, n
		}
		for x := from; x < to; x++ {
			b := k.old[x].h >> shift
			k.byHash[next[h][b]] = uint32(x)
			next[h][b]++
		}
	})
	inHalves(func(h int) {
		from, to := 0, 1<<(k.bits-1)
		if h == 1 {
			from, to = to, 1<<k.bits
		}
		for b := from; b < to; b++ {
			bucket := k.byHash[k.dir[b]:k.dir[b+1]]
			for i := 1; i < len(bucket); i++ {
				for j := i; j > 0 && k.old[bucket[j]].h < k.old[bucket[j-1]].h; j-- {
					bucket[j], bucket[j-1] = bucket[j-1], bucket[j]
				}
			}
			for i := 1; i < len(bucket); i++ {
				if x, y := bucket[i-1], bucket[i]; k.old[x].h == k.old[y].h {
					// A word of dup may hold entries of buckets of the
					// other half.
					atomic.OrUint64(&k.dup[x/64], 1<<(x%64))
					atomic.OrUint64(&k.dup[y/64], 1<<(y%64))
				}
			}
		}
	})
}

// inHalves runs f(0) and f(1) at once, and returns when both have.
func inHalves(f func(half int)) {
	var wg sync.WaitGroup
	wg.Go(func() { f(1) })
	f(0)
	wg.Wait()
}

// groupBits is the number of top bits of a hash that name its bucket in
// the directory of a group of at most n entries: buckets of about four.
func groupBits(n int) uint {
	b := uint(0)
	for ; 4<<b < n && b < 24; b++ {
	}
	return b
}

// sortByHash sorts es by hash, with tmp as room (returned for the next
// call), and fills dir, of 2^b+1 entries, with the start in es of each
// bucket of the hashes whose top b bits are its index, and the length of
// es: the hashes spread evenly, so they are dealt by their top bits into
// buckets of a few entries, through tmp, each then sorted by insertion: no
// comparison but within a bucket.
func sortByHash(es, tmp []oldEntry, dir []uint32) []oldEntry {
	shift := 64 - bits.TrailingZeros(uint(len(dir)-1))
	clear(dir)
	for _, e := range es {
		dir[e.h>>shift+1]++
	}
	for b := 1; b < len(dir); b++ {
		dir[b] += dir[b-1]
	}
	tmp = slices.Grow(tmp[:0], len(es))[:len(es)]
	for _, e := range es {
		b := e.h >> shift
		tmp[dir[b]] = e
		dir[b]++
	}
	// dir[b] is now the end of bucket b, the start of the next.
	copy(dir[1:], dir[:len(dir)-1])
	dir[0] = 0
	for i := 1; i < len(tmp); i++ {
		for j := i; j > 0 && tmp[j].h < tmp[j-1].h; j-- {
			tmp[j], tmp[j-1] = tmp[j-1], tmp[j]
		}
	}
	copy(es, tmp)
	return tmp
}

func (k *changeState) isDup(x int) bool { return k.dup[x/64]&(1<<(x%64)) != 0 }

// find returns the range in byHash of the entries of hash h.
func (k *changeState) find(h uint64) (int, int) {
	top := h >> (64 - k.bits)
	i, end := int(k.dir[top]), int(k.dir[top+1])
	for i < end && k.old[k.byHash[i]].h < h {
		i++
	}
	j := i
	for j < end && k.old[k.byHash[j]].h == h {
		j++
	}
	return i, j
}

// markSeen marks the entries of hash h seen, and returns the fingerprint
// of the first and whether there was one.
func (k *changeState) markSeen(h uint64) (fp uint32, found bool) {
	i, j := k.find(h)
	for _, x := range k.byHash[i:j] {
		k.seen[x/64].Or(1 << (x % 64))
	}
	if i == j {
		return 0, false
	}
	return k.old[k.byHash[i]].fp, true
}

// lookIn is markSeen for a URL of the sitemap i of the last run (-1 when
// none), looked up first in its group; ord is its place in the sitemap's
// list when found there (see oldEntry), else 0.
func (k *changeState) lookIn(i int, h uint64) (fp uint32, found bool, ord uint32) {
	if i < 0 {
		fp, found = k.markSeen(h)
		return fp, found, 0
	}
	base, d := int(k.seg[i]), k.gdir[k.gat[i]:k.gat[i+1]]
	b := h >> (64 - bits.TrailingZeros(uint(len(d)-1)))
	x, hi := base+int(d[b]), base+int(d[b+1])
	for x < hi && k.old[x].h < h {
		x++
	}
	if x == hi || k.old[x].h != h || k.isDup(x) {
		fp, found = k.markSeen(h)
		return fp, found, 0
	}
	k.seen[x/64].Or(1 << (x % 64))
	return k.old[x].fp, true, k.old[x].ord
}

func (k *changeState) isSeen(x int) bool { return k.seen[x/64].Load()&(1<<(x%64)) != 0 }
