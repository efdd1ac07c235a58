package sitemap

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// sortByHash sorts as a sort by hash does, hashes spread or not, the
// room it is given reused, and its directory gives the start of each
// bucket.
func TestSortByHash(t *testing.T) {
	var tmp []oldEntry
	for _, n := range []int{0, 1, 2, 7, 100, 5000} {
		for _, spread := range []bool{true, false} {
			es := make([]oldEntry, n)
			for i := range es {
				es[i] = oldEntry{h: rand.Uint64(), ord: uint32(i)}
				if !spread {
					es[i].h >>= 40 // all in the first bucket
				}
			}
			want := slices.Clone(es)
			slices.SortStableFunc(want, func(a, b oldEntry) int {
				if a.h < b.h {
					return -1
				} else if a.h > b.h {
					return 1
				}
				return 0
			})
			b := groupBits(n)
			dir := make([]uint32, 1<<b+1)
			tmp = sortByHash(es, tmp, dir)
			if !slices.Equal(es, want) {
				t.Errorf("%d entries, spread %v: not sorted by hash", n, spread)
			}
			for x, e := range es {
				if top := e.h >> (64 - b); uint32(x) < dir[top] || uint32(x) >= dir[top+1] {
					t.Fatalf("%d entries, spread %v: entry %d of bucket %d outside its range %d-%d", n, spread, x, top, dir[top], dir[top+1])
				}
			}
			if dir[len(dir)-1] != uint32(n) {
				t.Errorf("%d entries: the directory ends at %d", n, dir[len(dir)-1])
			}
		}
	}
}
