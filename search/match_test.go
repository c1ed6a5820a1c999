package search

import (
	"bytes"
	"testing"
)

func TestLowerASCII(t *testing.T) {
	var src []byte
	for i := 0; i < 256; i++ {
		src = append(src, byte(i))
	}
	src = append(src, "Hello, WORLD! Straße ÄÖÜ @[`{"...)
	for n := 0; n <= len(src); n++ {
		dst := make([]byte, n)
		lowerASCII(dst, src[:n])
		want := make([]byte, n)
		for i, c := range src[:n] {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			want[i] = c
		}
		if !bytes.Equal(dst, want) {
			t.Fatalf("lowerASCII(%q) = %q, want %q", src[:n], dst, want)
		}
	}
}
