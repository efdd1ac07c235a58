package sitemap

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// sortByHash sorts as a sort by hash does, hashes spread or not, the
// room it is given reused.
func TestSortByHash(t *testing.T) {
	var tmp []oldEntry
	var count []uint32
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
			tmp, count = sortByHash(es, tmp, count)
			if !slices.Equal(es, want) {
				t.Errorf("%d entries, spread %v: not sorted by hash", n, spread)
			}
		}
	}
}
