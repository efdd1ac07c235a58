package sitemap

import "slices"

// This file is the table of change detection (changes.go): the URLs of
// the last run as 64-bit hashes, grouped by sitemap, and the index of all
// of them by hash; what a lookup marks seen.

// index makes the table of the last run, from the lists of about n URLs,
// read once. Its entries are grouped by sitemap, each group sorted by
// hash: most URLs of a document are found in the group of its own
// sitemap, a few thousand entries that stay in the cache while it is
// read (lookIn). The others (moved, new, listed twice) are looked up by
// the index of all the entries by hash (find): the hashes spread evenly,
// so the top bits of a hash name a bucket of about eight entries, whose
// start in byHash the directory holds (half a megabyte for a million
// URLs). That is made by counting the entries by bucket, placing them,
// and sorting each bucket by insertion.
func (k *changeState) index(n int) {
	k.old = make([]oldEntry, 0, n)
	k.seg = make([]uint32, len(k.sms)+1)
	var tmp []oldEntry
	var count []uint32
	for i := range k.sms {
		k.seg[i] = uint32(len(k.old))
		k.eachOld(i, func(e oldEntry) { k.old = append(k.old, e) })
		tmp, count = sortByHash(k.old[k.seg[i]:], tmp, count)
	}
	k.seg[len(k.sms)] = uint32(len(k.old))

	for k.bits = 1; 8<<k.bits < len(k.old) && k.bits < 30; k.bits++ {
	}
	shift := 64 - k.bits
	k.dir = make([]uint32, 1<<k.bits+1)
	for _, e := range k.old {
		k.dir[e.h>>shift+1]++
	}
	for b := 1; b < len(k.dir); b++ {
		k.dir[b] += k.dir[b-1]
	}
	k.byHash = make([]uint32, len(k.old))
	next := slices.Clone(k.dir[:len(k.dir)-1])
	for x, e := range k.old {
		b := e.h >> shift
		k.byHash[next[b]] = uint32(x)
		next[b]++
	}
	k.dup = make([]uint64, (len(k.old)+63)/64)
	for b := 0; b+1 < len(k.dir); b++ {
		bucket := k.byHash[k.dir[b]:k.dir[b+1]]
		for i := 1; i < len(bucket); i++ {
			for j := i; j > 0 && k.old[bucket[j]].h < k.old[bucket[j-1]].h; j-- {
				bucket[j], bucket[j-1] = bucket[j-1], bucket[j]
			}
		}
		for i := 1; i < len(bucket); i++ {
			if x, y := bucket[i-1], bucket[i]; k.old[x].h == k.old[y].h {
				k.dup[x/64] |= 1 << (x % 64)
				k.dup[y/64] |= 1 << (y % 64)
			}
		}
	}
}

// sortByHash sorts es by hash, with tmp and count as room (returned for
// the next call): the hashes spread evenly, so they are dealt by their top
// bits into buckets of about four, through tmp, each then sorted by
// insertion: no comparison but within a bucket.
func sortByHash(es, tmp []oldEntry, count []uint32) ([]oldEntry, []uint32) {
	if len(es) < 2 {
		return tmp, count
	}
	bits := uint(1)
	for ; 4<<bits < len(es) && bits < 30; bits++ {
	}
	shift := 64 - bits
	count = slices.Grow(count[:0], 1<<bits+1)[:1<<bits+1]
	clear(count)
	for _, e := range es {
		count[e.h>>shift+1]++
	}
	for b := 1; b < len(count); b++ {
		count[b] += count[b-1]
	}
	tmp = slices.Grow(tmp[:0], len(es))[:len(es)]
	for _, e := range es {
		b := e.h >> shift
		tmp[count[b]] = e
		count[b]++
	}
	for i := 1; i < len(tmp); i++ {
		for j := i; j > 0 && tmp[j].h < tmp[j-1].h; j-- {
			tmp[j], tmp[j-1] = tmp[j-1], tmp[j]
		}
	}
	copy(es, tmp)
	return tmp, count
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
	x, hi := int(k.seg[i]), int(k.seg[i+1])
	for end := hi; x < end; {
		m := int(uint(x+end) >> 1)
		if k.old[m].h < h {
			x = m + 1
		} else {
			end = m
		}
	}
	if x == hi || k.old[x].h != h || k.isDup(x) {
		fp, found = k.markSeen(h)
		return fp, found, 0
	}
	k.seen[x/64].Or(1 << (x % 64))
	return k.old[x].fp, true, k.old[x].ord
}

func (k *changeState) isSeen(x int) bool { return k.seen[x/64].Load()&(1<<(x%64)) != 0 }
