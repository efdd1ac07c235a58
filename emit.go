package sitemap

// This file is the batching of a streaming call's URLs: a document hands
// them on to the call's loop (call.emitBatch) in batches, counted against
// the URL limit as each batch goes. It does not know where the URLs came
// from.

// emitURL adds u to the batch the document of a streaming call hands on
// next; false when the loop has ended.
func (d *doc) emitURL(u URL) bool {
	if d.pending == nil {
		d.pending = itemBatches.Get().(*[]item) // empty: see itemBatches
	}
	*d.pending = append(*d.pending, item{u: u})
	if len(*d.pending) < streamBatch {
		return !d.ended
	}
	return d.flush()
}

// flush hands on the URLs of a streaming call's document that wait in its
// batch: when the batch is full, before the document reads more input
// (which may mean waiting for the network), and before anything else about
// the document is recorded, so that the loop gets them in order and without
// delay. It returns false when the loop has ended.
func (d *doc) flush() bool {
	if d.pending == nil || d.ended {
		return !d.ended
	}
	b := d.pending
	d.pending = nil
	full := false
	if got := d.countURLs(int64(len(*b))); got < int64(len(*b)) {
		// Documents read at the same time took the room: what does not
		// fit is left out, after what does.
		clear((*b)[got:])
		*b, full = (*b)[:got], true
	}
	if len(*b) > 0 && !d.c.emitBatch(b) {
		d.ended = true
	}
	if full && !d.ended {
		d.c.limitURLs()
		d.ended = true
	}
	return !d.ended
}
