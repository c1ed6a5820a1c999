package llmfs

import (
	"math/rand/v2"
	"net/http"
	"testing"
)

// httpImageType is what imageType stands in for: http.DetectContentType, kept to the four
// image types.
func httpImageType(head []byte) string {
	switch mime := http.DetectContentType(head[:min(len(head), sniffImageLen)]); mime {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		return mime
	}
	return ""
}

// TestImageTypeAsHTTP: imageType tells the four image types as http.DetectContentType does,
// for their signatures, signatures cut short or one byte off, and random starts.
func TestImageTypeAsHTTP(t *testing.T) {
	sigs := []string{
		"\x89PNG\x0D\x0A\x1A\x0A", "\xFF\xD8\xFF", "GIF87a", "GIF89a", "RIFF\x01\x02\x03\x04WEBPVP8 ",
		"RIFF\x00\x00\x00\x00WEBPVP", "RIFF\x00\x00\x00\x00AVI LIST", "BM", "%PDF-", "\xFF\xFE", "\xEF\xBB\xBF",
		"<html>", "  \x89PNG\x0D\x0A\x1A\x0A", "",
	}
	var heads [][]byte
	for _, s := range sigs {
		for n := 0; n <= len(s); n++ {
			heads = append(heads, []byte(s[:n]), []byte(s[:n]+"tail\x00\x01"))
			if n < len(s) {
				b := []byte(s)
				b[n] ^= 0x20
				heads = append(heads, b)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		if len(b) > 0 && r.IntN(2) == 0 {
			copy(b, sigs[r.IntN(len(sigs))])
		}
		heads = append(heads, b)
	}
	for _, h := range heads {
		if got, want := imageType(h), httpImageType(h); got != want {
			t.Errorf("imageType(%q) = %q, want %q", h, got, want)
		}
	}
}
