package hostcheck

import "testing"

func TestHost(t *testing.T) {
	for in, want := range map[string]string{
		"127.0.0.1":        "127.0.0.1",
		"127.0.0.1:8080":   "127.0.0.1",
		"LocalHost:1":      "localhost",
		"[::1]":            "::1",
		"[::1]:65535":      "::1",
		"my_host.lan:443":  "my_host.lan",
		"xn--caf-dma.test": "xn--caf-dma.test",
	} {
		if got, ok := Host(in); !ok || got != want {
			t.Errorf("Host(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{
		"", ":80", "127.0.0.1:", "127.0.0.1:80.evil.example", "127.0.0.1:0", "127.0.0.1:65536",
		"127.0.0.1:080808", "127.0.0.1:+80", "127.0.0.1:80:80", "::1", "[::1", "[::1]x", "[::1]:",
		"[evil.example]", "a@127.0.0.1", "127.0.0.1/x", "127.0.0.1%2f", "caf\u00e9", "a b",
	} {
		if got, ok := Host(in); ok {
			t.Errorf("Host(%q) = %q, accepted", in, got)
		}
	}
}

func TestOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:8080": "127.0.0.1",
		"https://[::1]":         "::1",
		"HTTP://localhost":      "localhost",
	} {
		if got, ok := Origin(in); !ok || got != want {
			t.Errorf("Origin(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{
		"http://127.0.0.1:8080.evil.example", "http://127.0.0.1:80@evil.example", "null",
		"http://127.0.0.1/", "http://127.0.0.1:80/x", "ftp://127.0.0.1", "127.0.0.1:80",
		"http://", "chrome-extension://127.0.0.1", "http://127.0.0.1?x", "http://127.0.0.1#x",
	} {
		if got, ok := Origin(in); ok {
			t.Errorf("Origin(%q) = %q, accepted", in, got)
		}
	}
}
