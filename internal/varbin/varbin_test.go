package varbin

import (
	"encoding/binary"
	"errors"
	"testing"
)

func TestDecoder(t *testing.T) {
	var b []byte
	b = binary.AppendVarint(b, -5)
	b = binary.AppendUvarint(b, 300)
	b = binary.AppendUvarint(b, 3)
	b = append(b, "abc"...)
	d := NewDecoder(b)
	if v := d.Varint(); v != -5 {
		t.Errorf("Varint = %d", v)
	}
	if v := d.Uvarint(); v != 300 {
		t.Errorf("Uvarint = %d", v)
	}
	s := d.Bytes()
	if string(s) != "abc" || cap(s) != 3 || d.Len() != 0 || d.Err() != nil {
		t.Errorf("Bytes = %q (cap %d), Len %d, Err %v", s, cap(s), d.Len(), d.Err())
	}
	// Past the end: the error sticks and every later read is zero.
	if v := d.Uvarint(); v != 0 || !errors.Is(d.Err(), ErrMalformed) {
		t.Errorf("read past the end = %d, %v", v, d.Err())
	}
	if s := d.String(); s != "" {
		t.Errorf("String after an error = %q", s)
	}
}

func TestDecoderRefusesHugeLengths(t *testing.T) {
	b := binary.AppendUvarint(nil, 1<<40)
	if d := NewDecoder(b); d.Bytes() != nil || d.Err() == nil {
		t.Error("a length past the input was accepted")
	}
	if d := NewDecoder(append(b, 1, 2, 3)); d.Count(1) != 0 || d.Err() == nil {
		t.Error("a count past the input was accepted")
	}
}

func FuzzDecoder(f *testing.F) {
	f.Add([]byte{3, 'a', 'b', 'c', 0x80})
	f.Fuzz(func(t *testing.T, b []byte) {
		d := NewDecoder(b)
		for d.Err() == nil && d.Len() > 0 {
			switch d.Len() % 4 {
			case 0:
				d.Varint()
			case 1:
				d.Uvarint()
			case 2:
				if n := d.Count(1); n > len(b) {
					t.Fatalf("Count = %d of %d bytes", n, len(b))
				}
			default:
				d.Bytes()
			}
		}
	})
}
