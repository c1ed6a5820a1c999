package llmfs

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/llmfs/llmfs/internal/varbin"
	"github.com/llmfs/llmfs/store"
)

// A read deep into a large host file would pass over every byte before the lines it wants,
// and a model-facing read over every byte after them too, to report total_lines. A line
// index spares both: the byte offset of every lineIndexEvery-th line and the number of
// lines, built during the first read that passes over the whole file, kept in memory (a
// small LRU) and in a file under the llmfs cache directory (never inside the root), and
// used only while the file's identity ([identityOf]) is the one it was built for. A read
// with an index seeks to the nearest indexed line at or before its offset and stops once it
// has its lines; what it returns is byte for byte what the read without it returns.

// lineIndexMin is the size from which files are indexed, and lineIndexEvery the spacing
// of indexed lines: an index costs about one byte in the cache per 16 KiB of a file with
// lines of 60 bytes. Variables so that tests can index small files.
var (
	lineIndexMin   int64 = 16 << 20
	lineIndexEvery       = 65536
)

// lineIndexStore is what a store offers for line indexes: where to keep a file's index.
// Host directories (store/osdir) implement it; other stores are not indexed.
type lineIndexStore interface {
	store.Locator
	LineIndexPath(name string) (string, error)
}

// lineIndex is the index of one file.
type lineIndex struct {
	path  string // the file's host path
	id    fileID
	every int
	total int     // lines in the file
	offs  []int64 // offs[k] is where line k*every+1 starts; offs[0] is 0
}

// lineIndexUse is what one read has of an index: the one to use, or the builder of one,
// or neither.
type lineIndexUse struct {
	idx   *lineIndex
	build *indexBuilder
	file  string // where the index is kept
}

// start returns the indexed line at or before line, and its byte offset.
func (x *lineIndex) start(line int) (int, int64) {
	k := min((line-1)/x.every, len(x.offs)-1)
	return k*x.every + 1, x.offs[k]
}

// lineIndexFor returns what the read of name, open as f, can do with an index.
func (w *Workspace) lineIndexFor(name string, f fs.File) *lineIndexUse {
	ls, ok := w.store.(lineIndexStore)
	if !ok {
		return nil
	}
	if _, ok := f.(io.Seeker); !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil || fi.Size() <= lineIndexMin {
		return nil
	}
	id, ok := identityOf(fi, time.Now())
	if !ok || id.ino == 0 && id.ctime == 0 {
		// Changed too recently, or no change time to tell a rewrite that kept the size
		// and the modification time.
		return nil
	}
	file, err := ls.LineIndexPath(name)
	if err != nil {
		return nil
	}
	host := ls.HostPath(name)
	if x := lineIndexes.get(host, id, file); x != nil {
		return &lineIndexUse{idx: x, file: file}
	}
	return &lineIndexUse{build: &indexBuilder{every: lineIndexEvery, offs: []int64{0}, x: lineIndex{path: host, id: id}}, file: file}
}

// indexBuilder collects the offsets of every every-th line from the chunks of a file
// read from its start.
type indexBuilder struct {
	every int
	pos   int64 // offset of the next byte fed
	lines int   // newlines fed
	offs  []int64
	x     lineIndex // path and identity of the file
}

// feed takes the next chunk of the file and returns the number of newlines in it, so that
// the scan need not count them again.
func (b *indexBuilder) feed(chunk []byte) int {
	before := b.lines
	for len(chunk) > 0 {
		need := b.every - b.lines%b.every // newlines to the next indexed line
		blk := chunk[:min(len(chunk), 16<<10)]
		if c := bytes.Count(blk, nl); c < need {
			b.lines += c
			b.pos += int64(len(blk))
			chunk = chunk[len(blk):]
			continue
		}
		i := 0
		for range need {
			i += bytes.IndexByte(blk[i:], '\n') + 1
		}
		b.lines += need
		b.pos += int64(i)
		chunk = chunk[i:]
		b.offs = append(b.offs, b.pos)
	}
	return b.lines - before
}

// finish returns the index of a file of size bytes and total lines, the whole of which
// was fed, or nil if what was fed is not that file.
func (b *indexBuilder) finish(size int64, total int) *lineIndex {
	if b.pos != size || size != b.x.id.size {
		return nil
	}
	offs := b.offs
	if len(offs) > 1 && offs[len(offs)-1] >= size {
		offs = offs[:len(offs)-1] // the file ends with the newline before an indexed line
	}
	x := b.x
	x.every, x.total, x.offs = b.every, total, offs
	if !x.valid() {
		return nil
	}
	return &x
}

// valid reports whether x is consistent in itself.
func (x *lineIndex) valid() bool {
	if x.every < 1 || x.total < 0 || int64(x.total) > x.id.size || len(x.offs) < 1 || x.offs[0] != 0 {
		return false
	}
	want := 1
	if x.total > 0 {
		want = (x.total-1)/x.every + 1
	}
	if len(x.offs) != want {
		return false
	}
	for k := 1; k < len(x.offs); k++ {
		if x.offs[k] <= x.offs[k-1] || x.offs[k] >= x.id.size {
			return false
		}
	}
	return true
}

const lineIndexMagic = "llmfs line index 1\n"

// encode returns the file form of x: a magic line, the path, identity, spacing, line
// count and offsets (the differences) as varints, and a CRC-32 of all that.
func (x *lineIndex) encode() []byte {
	b := []byte(lineIndexMagic)
	b = binary.AppendUvarint(b, uint64(len(x.path)))
	b = append(b, x.path...)
	b = binary.AppendVarint(b, x.id.size)
	b = binary.AppendVarint(b, x.id.mtime)
	b = binary.AppendUvarint(b, x.id.ino)
	b = binary.AppendVarint(b, x.id.ctime)
	b = binary.AppendUvarint(b, uint64(x.every))
	b = binary.AppendUvarint(b, uint64(x.total))
	b = binary.AppendUvarint(b, uint64(len(x.offs)))
	for k := 1; k < len(x.offs); k++ {
		b = binary.AppendUvarint(b, uint64(x.offs[k]-x.offs[k-1]))
	}
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

var errBadIndex = errors.New("not a valid line index")

// decodeLineIndex parses what encode wrote, refusing anything else: a truncated, corrupt
// or inconsistent file is errBadIndex, never a wrong index.
func decodeLineIndex(b []byte) (*lineIndex, error) {
	if len(b) < len(lineIndexMagic)+4 || string(b[:len(lineIndexMagic)]) != lineIndexMagic {
		return nil, errBadIndex
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, errBadIndex
	}
	d := varbin.NewDecoder(body[len(lineIndexMagic):])
	x := &lineIndex{path: d.String()}
	x.id.size = d.Varint()
	x.id.mtime = d.Varint()
	x.id.ino = d.Uvarint()
	x.id.ctime = d.Varint()
	every, total, count := d.Uvarint(), d.Uvarint(), d.Uvarint()
	// Every offset after the first takes at least one byte.
	if d.Err() != nil || every == 0 || every > math.MaxInt32 || total > math.MaxInt || count == 0 || count-1 > uint64(d.Len()) {
		return nil, errBadIndex
	}
	x.every, x.total = int(every), int(total)
	x.offs = make([]int64, count)
	for k := 1; k < len(x.offs); k++ {
		delta := d.Uvarint()
		if delta == 0 || delta > 1<<62 {
			return nil, errBadIndex
		}
		x.offs[k] = x.offs[k-1] + int64(delta)
	}
	// Only what encode writes: a number written in more bytes than it needs (varints
	// allow that) is not an index this program made.
	if d.Err() != nil || d.Len() != 0 || !x.valid() || !bytes.Equal(x.encode(), b) {
		return nil, errBadIndex
	}
	return x, nil
}

// lineIndexCache holds the most recently used indexes of the process.
type lineIndexCache struct {
	mu  sync.Mutex
	lru []*lineIndex // most recent last
}

const lineIndexCacheSize = 8

var lineIndexes lineIndexCache

// get returns the index of the file at host with identity id, from memory or else from
// the index file, or nil.
func (c *lineIndexCache) get(host string, id fileID, file string) *lineIndex {
	c.mu.Lock()
	for i, x := range c.lru {
		if x.path == host {
			if x.id != id {
				c.lru = append(c.lru[:i], c.lru[i+1:]...)
				break
			}
			c.lru = append(append(c.lru[:i], c.lru[i+1:]...), x)
			c.mu.Unlock()
			return x
		}
	}
	c.mu.Unlock()
	b, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	x, err := decodeLineIndex(b)
	if err != nil || x.path != host || x.id != id || x.every < 1 {
		return nil
	}
	c.add(x)
	return x
}

func (c *lineIndexCache) add(x *lineIndex) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, y := range c.lru {
		if y.path == x.path {
			c.lru = append(c.lru[:i], c.lru[i+1:]...)
			break
		}
	}
	if len(c.lru) == lineIndexCacheSize {
		c.lru = c.lru[1:]
	}
	c.lru = append(c.lru, x)
}

// reset empties the cache (for tests).
func (c *lineIndexCache) reset() {
	c.mu.Lock()
	c.lru = nil
	c.mu.Unlock()
}

// keep puts x in memory and in file, atomically. A failure to write is ignored: the
// index is a cache.
func (c *lineIndexCache) keep(x *lineIndex, file string) {
	c.add(x)
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(dir, ".idx-*")
	if err != nil {
		return
	}
	_, err = tmp.Write(x.encode())
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}
