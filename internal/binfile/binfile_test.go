package binfile

import "testing"

// TestBinaryMagic checks formats whose headers hold no NUL byte, and text that must pass.
//
// Issue 13.8: a PNG or PDF without a NUL in its first block read as text.
func TestBinaryMagic(t *testing.T) {
	for _, b := range []string{
		"\x89PNG\r\n\x1a\n\xff\xff", "\xff\xd8\xff\xe0JFIF", "GIF89a\x01\x01", "%PDF-1.7\n%\xe2\xe3",
		"PK\x03\x04\x14", "\x1f\x8b\x08\x08", "RIFF\x10\x10\x10\x10WEBPVP8 ", "\x7fELF\x02\x01\x01",
		"BZh91AY&SY", "\x28\xb5\x2f\xfd\x04", "x\x00y",
	} {
		if !Sniff([]byte(b), true) {
			t.Errorf("Sniff(%q) = false, want true", b)
		}
	}
	for _, b := range []string{"", "package main\n", "%PD", "PK is a name\n", "GIF is a format\n", "RIFF raff\n", "BZh9 words\n", "\xef\xbb\xbftext"} {
		if Sniff([]byte(b), true) {
			t.Errorf("Sniff(%q) = true, want false", b)
		}
	}
	if Sniff([]byte("\x89PNG\r\n\x1a\n"), false) {
		t.Error("a magic number in the middle of a file made it binary")
	}
}
