// Package binfile tells binary files from text by their first bytes, the one rule that reads,
// edits and searches share.
package binfile

import "bytes"

// Len is how many leading bytes of a file [Sniff] looks at: a NUL byte among them makes
// the file binary, as in git and ripgrep.
const Len = 8000

// Sniff reports whether b, bytes of a file, say the file is binary: a NUL byte in b, or,
// when b is the start of the file (atStart), the magic number of a binary format. Formats
// whose headers hold no NUL (PNG, JPEG, GIF, PDF, ZIP, gzip, WebP, ELF, ...) would
// otherwise pass for text until a NUL turned up, or never.
func Sniff(b []byte, atStart bool) bool {
	return bytes.IndexByte(b, 0) >= 0 || atStart && Magic(b)
}

// Why is [Sniff] with a reason for messages: "it contains NUL bytes" or "it starts with
// the signature of a binary format"; "" when b looks like text.
func Why(b []byte, atStart bool) string {
	switch {
	case bytes.IndexByte(b, 0) >= 0:
		return "it contains NUL bytes"
	case atStart && Magic(b):
		return "it starts with the signature of a binary format"
	}
	return ""
}

// magics are the leading bytes of binary formats. Only signatures of four bytes or more
// are listed, so that no common text starts with one.
var magics = [][]byte{
	[]byte("\x89PNG\r\n\x1a\n"),
	[]byte("\xff\xd8\xff"), // JPEG: 0xFFD8 is no valid UTF-8 start
	[]byte("GIF87a"), []byte("GIF89a"),
	[]byte("%PDF-"),
	[]byte("PK\x03\x04"), []byte("PK\x05\x06"), []byte("PK\x07\x08"), // ZIP, and jar, docx, apk, ...
	[]byte("\x1f\x8b\x08"), // gzip (deflate)
	[]byte("\x7fELF"),
	[]byte("\xfd7zXZ"),
	[]byte("7z\xbc\xaf\x27\x1c"),
	[]byte("\x28\xb5\x2f\xfd"), // zstd
	[]byte("Rar!\x1a\x07"),
	[]byte("\xca\xfe\xba\xbe"),                                                                                     // Java class, Mach-O universal
	[]byte("\xfe\xed\xfa\xce"), []byte("\xfe\xed\xfa\xcf"), []byte("\xce\xfa\xed\xfe"), []byte("\xcf\xfa\xed\xfe"), // Mach-O
	[]byte("OggS"), []byte("fLaC"), []byte("ID3\x03"), []byte("ID3\x04"),
	[]byte("wOFF"), []byte("wOF2"), // web fonts
	[]byte("\x00asm"),
}

// Magic reports whether b begins with the magic number of a binary format.
func Magic(b []byte) bool {
	for _, m := range magics {
		if bytes.HasPrefix(b, m) {
			return true
		}
	}
	// RIFF containers: WebP, WAV, AVI.
	if len(b) >= 12 && string(b[:4]) == "RIFF" {
		switch string(b[8:12]) {
		case "WEBP", "WAVE", "AVI ":
			return true
		}
	}
	// bzip2: "BZh", a block size digit, then the block magic.
	if len(b) >= 10 && string(b[:3]) == "BZh" && '1' <= b[3] && b[3] <= '9' && string(b[4:10]) == "1AY&SY" {
		return true
	}
	return false
}
