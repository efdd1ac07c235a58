package sitemap

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// vmFlags returns the VmFlags of the mapping of this process that holds
// addr, from /proc/self/smaps, and whether one was found.
func vmFlags(t *testing.T, addr uintptr) (string, bool) {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := strings.Cut(strings.Fields(line)[0], "-"); ok && !strings.HasSuffix(line, ":") {
			a, err1 := strconv.ParseUint(lo, 16, 64)
			b, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 == nil && err2 == nil {
				in = uintptr(a) <= addr && addr < uintptr(b)
				continue
			}
		}
		if flags, ok := strings.CutPrefix(line, "VmFlags:"); ok && in {
			return flags, true
		}
	}
	return "", false
}

// The list of a call's results, once large, is advised to the kernel as
// memory for huge pages before it is written (hugepages_linux.go, issue 19:
// W3's first call took 93,000 page faults, 28,000 with the advice), and
// what it holds is the same.
func TestAdviseHugeMarksLargeLists(t *testing.T) {
	if b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil || strings.Contains(string(b), "[never]") {
		t.Skip("transparent huge pages are off on this machine")
	}
	urls := make([]URL, 3, 200_000) // 25.6 MB
	urls[0].Loc, urls[2].Loc = "https://example.com/a", "https://example.com/c"
	adviseHuge(urls)
	if urls[0].Loc != "https://example.com/a" || urls[1].Loc != "" || urls[2].Loc != "https://example.com/c" {
		t.Fatalf("the advice changed the list: %q", []string{urls[0].Loc, urls[1].Loc, urls[2].Loc})
	}
	mid := uintptr(unsafe.Pointer(&urls[:cap(urls)][cap(urls)/2]))
	flags, ok := vmFlags(t, mid)
	if !ok {
		t.Fatal("no mapping holds the list")
	}
	if !strings.Contains(flags, " hg") {
		t.Fatalf("the middle of the list is not advised for huge pages: VmFlags:%s", flags)
	}
	urls = append(urls[:cap(urls)-1], URL{Loc: "https://example.com/z"})
	if urls[len(urls)-1].Loc != "https://example.com/z" || urls[2].Loc != "https://example.com/c" {
		t.Fatal("the list does not hold what was written")
	}

	// A small list, and one of no room, are left as they are.
	adviseHuge(make([]URL, 1, 10))
	adviseHuge(nil)
}

// The list of the results is advised as it grows (growURLs), and a
// document's own list as it is made (docBuf.moveToList, growList).
func TestAdviseHugeWhereListsGrow(t *testing.T) {
	if b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil || strings.Contains(string(b), "[never]") {
		t.Skip("transparent huge pages are off on this machine")
	}
	s := New()
	s.urlDocs = 1
	s.growURLs(200_000, 0)
	if flags, _ := vmFlags(t, uintptr(unsafe.Pointer(&s.urls[:cap(s.urls)][cap(s.urls)/2]))); !strings.Contains(flags, " hg") {
		t.Fatalf("the results' list is not advised: VmFlags:%s", flags)
	}
	b := docBuf{list: make([]URL, 20_000)}
	b.pos, b.size = func() int64 { return 1 << 20 }, 8<<20
	b.growList()
	if cap(b.list) < 100_000 {
		t.Fatalf("the document's list grew to %d URLs only", cap(b.list))
	}
	if flags, _ := vmFlags(t, uintptr(unsafe.Pointer(&b.list[:cap(b.list)][cap(b.list)/2]))); !strings.Contains(flags, " hg") {
		t.Fatalf("the document's list is not advised: VmFlags:%s", flags)
	}

}
