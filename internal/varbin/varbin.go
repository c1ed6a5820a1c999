// Package varbin reads the varint-framed records llmfs keeps under its cache directory (the
// host journal's intent log, the line index). Such a file may be torn by a crash or damaged
// by anyone who can write the cache, so a [Decoder] never panics and never allocates more
// than its input could hold: its first error sticks, and every read after it returns zero.
package varbin

import (
	"encoding/binary"
	"errors"
)

// ErrMalformed is the error of a read past the end of the input or of a malformed number.
var ErrMalformed = errors.New("malformed or truncated record")

// A Decoder reads values off the front of a byte slice.
type Decoder struct {
	b   []byte
	err error
}

// NewDecoder returns a decoder of b; the values it returns from [Decoder.Bytes] alias b.
func NewDecoder(b []byte) *Decoder { return &Decoder{b: b} }

// Err returns the first error, or nil.
func (d *Decoder) Err() error { return d.err }

// Len returns the number of bytes not read yet.
func (d *Decoder) Len() int { return len(d.b) }

// Varint reads a signed varint.
func (d *Decoder) Varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = ErrMalformed
		return 0
	}
	d.b = d.b[n:]
	return v
}

// Uvarint reads an unsigned varint.
func (d *Decoder) Uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = ErrMalformed
		return 0
	}
	d.b = d.b[n:]
	return v
}

// Count reads a number of items that each take at least min bytes (min > 0), refusing one
// the rest of the input cannot hold, so that a damaged count never makes a huge allocation.
func (d *Decoder) Count(min int) int {
	n := d.Uvarint()
	if n > uint64(len(d.b)/min) {
		d.fail()
		return 0
	}
	return int(n)
}

// Bytes reads a length-prefixed byte string. The result aliases the input and has no spare
// capacity, so appending to it never writes over what follows.
func (d *Decoder) Bytes() []byte {
	n := d.Uvarint()
	if d.err != nil {
		return nil
	}
	if n > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	b := d.b[:n:n]
	d.b = d.b[n:]
	return b
}

// String reads a length-prefixed string.
func (d *Decoder) String() string { return string(d.Bytes()) }

func (d *Decoder) fail() {
	if d.err == nil {
		d.err = ErrMalformed
	}
}
