package llmfs

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"reflect"
	"testing"
)

// TestIndexBuilder: whatever the chunks, the builder's offsets are where the indexed lines
// start, and its index survives encoding.
func TestIndexBuilder(t *testing.T) {
	var data []byte
	for i := 0; i < 1000; i++ {
		data = append(data, bytes.Repeat([]byte{'a'}, i%37)...)
		data = append(data, '\n')
	}
	for _, every := range []int{1, 3, 64, 1000, 5000} {
		for _, chunk := range []int{1, 7, 4096, len(data)} {
			b := &indexBuilder{every: every, offs: []int64{0}, x: lineIndex{path: "/f", id: fileID{size: int64(len(data)), mtime: 5, ino: 9, ctime: 6}}}
			for p := 0; p < len(data); p += chunk {
				b.feed(data[p:min(p+chunk, len(data))])
			}
			x := b.finish(int64(len(data)), 1000)
			if x == nil {
				t.Fatalf("every %d, chunk %d: no index", every, chunk)
			}
			line, off := 1, int64(0)
			for k, o := range x.offs {
				for line < k*every+1 {
					off += int64(bytes.IndexByte(data[off:], '\n') + 1)
					line++
				}
				if o != off {
					t.Fatalf("every %d, chunk %d: offs[%d] = %d, want %d", every, chunk, k, o, off)
				}
			}
			y, err := decodeLineIndex(x.encode())
			if err != nil || !reflect.DeepEqual(x, y) {
				t.Fatalf("decode(encode) = %+v, %v; want %+v", y, err, x)
			}
		}
	}
}

// FuzzDecodeLineIndex: the decoder never panics, and what it accepts is consistent and
// encodes back to the same bytes.
func FuzzDecodeLineIndex(f *testing.F) {
	x := &lineIndex{path: "/a/b", id: fileID{size: 100, mtime: 1, ino: 2, ctime: 3}, every: 2, total: 5, offs: []int64{0, 10, 50}}
	f.Add(x.encode())
	f.Add(x.encode()[:len(x.encode())-4])
	f.Add([]byte(lineIndexMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		// As given, and with a correct checksum appended, so that the fuzzer reaches
		// past the checksum into the fields.
		for _, b := range [][]byte{b, binary.LittleEndian.AppendUint32(bytes.Clone(b), crc32.ChecksumIEEE(b))} {
			x, err := decodeLineIndex(b)
			if err != nil {
				continue
			}
			if !x.valid() {
				t.Fatalf("accepted an inconsistent index %+v", x)
			}
			if !bytes.Equal(x.encode(), b) {
				t.Fatalf("encode(decode(b)) differs from b")
			}
		}
	})
}
