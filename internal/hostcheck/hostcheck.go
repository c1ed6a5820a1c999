// Package hostcheck parses the Host and Origin headers that the HTTP faces (the console,
// the MCP server) check against the names they answer to, strictly: what is not exactly a
// host with an optional numeric port is refused, so no lenient parse can turn
// "http://127.0.0.1:80.evil.example" into the loopback address.
package hostcheck

import (
	"strconv"
	"strings"
)

// Host returns the host name of a Host header value, host[:port] (an IPv6 address in
// brackets), lowercased and without brackets, and whether the value is well formed: a
// host of letters, digits, '-', '.' and '_' (or a bracketed IPv6 address) and, when there
// is a colon, a port of 1 to 5 digits from 1 to 65535.
func Host(hostport string) (string, bool) {
	host, port := hostport, ""
	if strings.HasPrefix(hostport, "[") {
		end := strings.IndexByte(hostport, ']')
		if end < 0 {
			return "", false
		}
		host, port = hostport[1:end], hostport[end+1:]
		if !ipv6Chars(host) {
			return "", false
		}
	} else {
		if i := strings.IndexByte(hostport, ':'); i >= 0 {
			host, port = hostport[:i], hostport[i:]
		}
		if !nameChars(host) {
			return "", false
		}
	}
	if port != "" && !validPort(port) {
		return "", false
	}
	return strings.ToLower(host), true
}

// Origin returns the host name of an Origin header value, as [Host] does, and whether
// the value is a well-formed http or https origin: scheme "://" host [":" port] and nothing
// else (no user, path, query or fragment). The opaque origin "null" is not well formed.
func Origin(origin string) (string, bool) {
	scheme, hostport, ok := strings.Cut(origin, "://")
	if !ok || !strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") {
		return "", false
	}
	return Host(hostport)
}

// validPort reports whether p is ":" followed by a port number in 1..65535.
func validPort(p string) bool {
	digits, ok := strings.CutPrefix(p, ":")
	if !ok || len(digits) == 0 || len(digits) > 5 {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	n, err := strconv.Atoi(digits)
	return err == nil && n >= 1 && n <= 65535
}

func nameChars(h string) bool {
	if h == "" {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_') {
			return false
		}
	}
	return true
}

func ipv6Chars(h string) bool {
	if h == "" {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == ':' || c == '.') {
			return false
		}
	}
	return true
}

// Names is the set of host names a server answers to, lowercased, without brackets.
type Names []string

// Loopback returns the loopback names (localhost, 127.0.0.1, ::1) and extra, each as
// given to --allow-host (an IPv6 address with or without brackets).
func Loopback(extra ...string) Names {
	n := Names{"localhost", "127.0.0.1", "::1"}
	for _, h := range extra {
		n = append(n, strings.ToLower(strings.Trim(h, "[]")))
	}
	return n
}

// Host reports whether a Host header value is well formed and names one of n.
func (n Names) Host(hostport string) bool {
	h, ok := Host(hostport)
	return ok && n.has(h)
}

// Origin reports whether an Origin header value is well formed and names one of n.
func (n Names) Origin(origin string) bool {
	h, ok := Origin(origin)
	return ok && n.has(h)
}

func (n Names) has(h string) bool {
	for _, x := range n {
		if x == h {
			return true
		}
	}
	return false
}
