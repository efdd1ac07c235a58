package fleet

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gositemap/sitemap"
	"github.com/nats-io/nats.go/jetstream"
)

// Store is the library's [sitemap.Store] on the fleet's store bucket: the
// records of conditional fetching, shared by every worker, under the name
// of a crawl's State. A record larger than the largest message of the
// server is split into parts, never refused: its key then holds the list
// of its parts, written after them, so that a reader sees a record whole,
// the old one or the new. It is safe for concurrent use.
type Store struct {
	kv     jetstream.KeyValue
	prefix string
	max    int
}

// Store returns the shared store of the name given (letters, digits, -
// and _), as workers use it for a crawl whose State is name.
func (f *Fleet) Store(name string) (*Store, error) {
	if !validToken(name, false) {
		return nil, fmt.Errorf("fleet: state name %q: letters, digits, - and _ only", name)
	}
	return &Store{kv: f.records, prefix: name, max: f.maxPayload}, nil
}

// storeTimeout is the longest a Put may take.
const storeTimeout = 30 * time.Second

// partsMark starts the value of a record kept in parts.
const partsMark = "parts "

func (s *Store) key(k string) string {
	h := sha256.Sum256([]byte(k))
	return s.prefix + "." + hex.EncodeToString(h[:16])
}

// Get returns the record of key.
func (s *Store) Get(ctx context.Context, key string) (sitemap.Record, bool, error) {
	var r sitemap.Record
	e, err := s.kv.Get(ctx, s.key(key))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return r, false, nil
	}
	if err != nil {
		return r, false, err
	}
	data := e.Value()
	if rest, ok := bytes.CutPrefix(data, []byte(partsMark)); ok {
		gen, n, ok := strings.Cut(string(rest), " ")
		count, err := strconv.Atoi(n)
		if !ok || err != nil {
			return r, false, fmt.Errorf("fleet: the record of %s is damaged", key)
		}
		var whole bytes.Buffer
		for i := range count {
			p, err := s.kv.Get(ctx, s.key(key)+"."+gen+"."+strconv.Itoa(i))
			if err != nil {
				return r, false, fmt.Errorf("fleet: part %d of the record of %s: %w", i, key, err)
			}
			whole.Write(p.Value())
		}
		data = whole.Bytes()
	}
	if err := unmarshalRecord(data, &r); err != nil {
		return r, false, fmt.Errorf("fleet: the record of %s does not read: %w", key, err)
	}
	return r, true, nil
}

// urlsKey is the key of Record.URLs in the JSON of a record.
var urlsKey = []byte(`"urls":"`)

// unmarshalRecord reads the JSON of a record. The list of URLs of change
// detection, most of a record's bytes (base64 in a JSON string), is cut
// out and decoded on its own: encoding/json would scan it twice, which
// took a third of the CPU of a crawl of a million URLs. The key cannot
// appear within a string of the record, whose quotes are escaped.
func unmarshalRecord(data []byte, r *sitemap.Record) error {
	i := bytes.Index(data, urlsKey)
	if i <= 0 || data[i-1] != '{' && data[i-1] != ',' {
		return json.Unmarshal(data, r)
	}
	start := i + len(urlsKey)
	n := bytes.IndexByte(data[start:], '"')
	if n < 0 {
		return json.Unmarshal(data, r)
	}
	urls := make([]byte, base64.StdEncoding.DecodedLen(n))
	m, err := base64.StdEncoding.Decode(urls, data[start:start+n])
	if err != nil {
		return json.Unmarshal(data, r)
	}
	// The rest, with the key and its value left out (and the comma that
	// joined them to the rest).
	from, to := i, start+n+1
	if data[i-1] == ',' {
		from--
	} else if to < len(data) && data[to] == ',' {
		to++
	}
	rest := append(data[:from:from], data[to:]...)
	if err := json.Unmarshal(rest, r); err != nil {
		return err
	}
	r.URLs = urls[:m]
	return nil
}

// Put sets the record of key. It is not cut short by ctx: a streaming call
// of the library puts the record of its last document once the loop has
// its URLs, when the call's context may have ended already. It has
// storeTimeout.
func (s *Store) Put(ctx context.Context, key string, r sitemap.Record) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	k := s.key(key)
	old, _ := s.kv.Get(ctx, k)
	limit := max(s.max-4096, 1024) // room for the headers of the message
	if len(data) <= limit {
		_, err = s.kv.Put(ctx, k, data)
	} else {
		err = s.putParts(ctx, k, data, limit)
	}
	if err != nil {
		return err
	}
	if old != nil {
		s.dropParts(ctx, k, old.Value())
	}
	return nil
}

// putParts writes data in parts of at most limit bytes, then the list of
// them under k.
func (s *Store) putParts(ctx context.Context, k string, data []byte, limit int) error {
	var b [6]byte
	rand.Read(b[:])
	gen := hex.EncodeToString(b[:])
	n := 0
	for off := 0; off < len(data); off += limit {
		if _, err := s.kv.Put(ctx, k+"."+gen+"."+strconv.Itoa(n), data[off:min(off+limit, len(data))]); err != nil {
			return err
		}
		n++
	}
	_, err := s.kv.Put(ctx, k, []byte(partsMark+gen+" "+strconv.Itoa(n)))
	return err
}

// dropParts deletes the parts of an old value of k, when it had any.
func (s *Store) dropParts(ctx context.Context, k string, old []byte) {
	rest, ok := bytes.CutPrefix(old, []byte(partsMark))
	if !ok {
		return
	}
	gen, n, _ := strings.Cut(string(rest), " ")
	count, _ := strconv.Atoi(n)
	for i := range count {
		s.kv.Purge(ctx, k+"."+gen+"."+strconv.Itoa(i))
	}
}
