package changes

import "encoding/binary"

// runVersion is the first byte of the state of a run.
const runVersion = 2

// Section is the URLs of one sitemap that a run keeps on its own: they were
// not found in a sitemap read whole, but were not reported gone either.
type Section struct {
	Sitemap string // its location
	List    []byte // an encoded list
}

// EncodeRun returns the state of a run: whether it ended complete, and
// the URLs it keeps as unknown.
func EncodeRun(complete bool, kept []Section) []byte {
	b := []byte{runVersion, 0}
	if complete {
		b[1] = 1
	}
	b = binary.AppendUvarint(b, uint64(len(kept)))
	for _, s := range kept {
		b = binary.AppendUvarint(b, uint64(len(s.Sitemap)))
		b = append(b, s.Sitemap...)
		b = binary.AppendUvarint(b, uint64(len(s.List)))
		b = append(b, s.List...)
	}
	return b
}

// DecodeRun reads the state of a run that EncodeRun wrote.
func DecodeRun(b []byte) (complete bool, kept []Section, err error) {
	if len(b) < 3 || b[0] != runVersion || b[1] > 1 {
		return false, nil, ErrCorrupt
	}
	complete = b[1] == 1
	b = b[2:]
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return false, nil, ErrCorrupt
	}
	b = b[k:]
	next := func() ([]byte, bool) {
		l, k := binary.Uvarint(b)
		if k <= 0 || l > uint64(len(b)-k) {
			return nil, false
		}
		v := b[k : k+int(l)]
		b = b[k+int(l):]
		return v, true
	}
	for range n {
		sm, ok := next()
		list, ok2 := next()
		if !ok || !ok2 {
			return false, nil, ErrCorrupt
		}
		kept = append(kept, Section{Sitemap: string(sm), List: list})
	}
	return complete, kept, nil
}
