package console_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestConsoleStrictOrigin: an Origin or Host whose "port" is not a number (or that has
// more than scheme, host and port) is foreign, even though it starts with a loopback
// address (issue 31, item 11).
func TestConsoleStrictOrigin(t *testing.T) {
	_, url := newConsole(t)
	port := url[strings.LastIndexByte(url, ':')+1:]
	for _, o := range []string{
		"http://127.0.0.1:" + port + ".evil.example",
		"http://127.0.0.1:" + port + "@evil.example",
		"http://127.0.0.1:" + port + "/x",
		"http://localhost:99999",
	} {
		if code, _ := request(t, "GET", url+"/api/list", "tok", "", "Origin", o); code != 403 {
			t.Errorf("Origin %q: %d, want 403", o, code)
		}
	}
	if code, _ := request(t, "GET", url+"/api/list", "tok", "", "Origin", "http://127.0.0.1:"+port); code != 200 {
		t.Errorf("the console's own origin: %d, want 200", code)
	}
	req, _ := http.NewRequest("GET", url+"/api/list", nil)
	req.Host = "127.0.0.1:" + port + ".evil.example"
	req.Header.Set("Authorization", "Bearer tok")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 403 {
		t.Errorf("Host %q: %d, want 403", req.Host, res.StatusCode)
	}
}
