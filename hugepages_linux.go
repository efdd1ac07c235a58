package sitemap

import (
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on Linux.
const hugePage = 2 << 20

// adviseHuge asks the kernel to back the whole huge pages that the array of
// urls spans with huge pages (madvise MADV_HUGEPAGE), before the URLs are
// written there (memory the heap reuses has been zeroed by then, memory new
// from the kernel not yet touched, which is the case it serves). It is for the list of a call's results, a large array
// filled once from start to end: a million URLs are 128 MB, and touching
// them a 4 KiB page at a time cost the first call of a process 31,000 page
// faults. An array under 8 MiB is left as it is, and so is the advice when
// the kernel refuses it (no transparent huge pages, or they are off): the
// advice changes how the memory is backed, never what it holds.
func adviseHuge(urls []URL) {
	size := uintptr(cap(urls)) * unsafe.Sizeof(URL{})
	if size < 4*hugePage {
		return
	}
	base := unsafe.Pointer(unsafe.SliceData(urls))
	start := uintptr(base)
	lo := (start + hugePage - 1) &^ (hugePage - 1)
	hi := (start + size) &^ (hugePage - 1)
	if hi <= lo {
		return
	}
	_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(base, lo-start)), hi-lo), syscall.MADV_HUGEPAGE)
}
