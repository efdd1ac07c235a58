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
func EncodeRun(complete bool, kept []Section) []byte { return EncodeRunOf(complete, kept, 0) }

// EncodeRunOf is EncodeRun with sel, the fingerprint of what the run lets
// through (0 for none), after the URLs kept: a run that resumes it must let
// through the same. A state of EncodeRun has no fingerprint; DecodeRun
// reads both.
func EncodeRunOf(complete bool, kept []Section, sel uint64) []byte {
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
	if sel != 0 {
		b = binary.LittleEndian.AppendUint64(b, sel)
	}
	return b
}

// DecodeRun reads the state of a run that EncodeRun or EncodeRunOf wrote.
func DecodeRun(b []byte) (complete bool, kept []Section, err error) {
	complete, kept, _, err = DecodeRunOf(b)
	return complete, kept, err
}

// DecodeRunOf is DecodeRun that also returns the fingerprint of the
// selection EncodeRunOf was given, 0 when none.
func DecodeRunOf(b []byte) (complete bool, kept []Section, sel uint64, err error) {
	if len(b) < 3 || b[0] != runVersion || b[1] > 1 {
		return false, nil, 0, ErrCorrupt
	}
	complete = b[1] == 1
	b = b[2:]
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return false, nil, 0, ErrCorrupt
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
			return false, nil, 0, ErrCorrupt
		}
		kept = append(kept, Section{Sitemap: string(sm), List: list})
	}
	switch len(b) {
	case 0:
	case 8:
		sel = binary.LittleEndian.Uint64(b)
	default:
		return false, nil, 0, ErrCorrupt
	}
	return complete, kept, sel, nil
}
