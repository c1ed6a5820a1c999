package main

import (
	"strings"
	"testing"
)

// Issue 13.21: plain `go test ./...` hid every skip; the report lists each with its
// reason and fails the run when one names a dependency CI installs.
func TestSkipsReported(t *testing.T) {
	const stream = `{"Action":"start","Package":"example.com/a"}
{"Action":"run","Package":"example.com/a","Test":"TestBrowser"}
{"Action":"output","Package":"example.com/a","Test":"TestBrowser","Output":"=== RUN   TestBrowser\n"}
{"Action":"output","Package":"example.com/a","Test":"TestBrowser","Output":"    browser_test.go:39: no chromium on PATH (Debian: apt-get install -y chromium)\n"}
{"Action":"output","Package":"example.com/a","Test":"TestBrowser","Output":"--- SKIP: TestBrowser (0.00s)\n"}
{"Action":"skip","Package":"example.com/a","Test":"TestBrowser","Elapsed":0}
{"Action":"run","Package":"example.com/a","Test":"TestRoot"}
{"Action":"output","Package":"example.com/a","Test":"TestRoot","Output":"    errors_host_test.go:15: root ignores file modes\n"}
{"Action":"skip","Package":"example.com/a","Test":"TestRoot","Elapsed":0}
{"Action":"run","Package":"example.com/a","Test":"TestOK"}
{"Action":"output","Package":"example.com/a","Test":"TestOK","Output":"quiet\n"}
{"Action":"pass","Package":"example.com/a","Test":"TestOK","Elapsed":0}
{"Action":"output","Package":"example.com/a","Output":"ok  \texample.com/a\t0.01s\n"}
{"Action":"pass","Package":"example.com/a","Elapsed":0.01}
`
	var out strings.Builder
	r := &report{out: &out, pending: map[string][]string{}}
	if err := r.read(strings.NewReader(stream)); err != nil {
		t.Fatal(err)
	}
	if r.summary(false) {
		t.Error("a Chromium skip passed")
	}
	got := out.String()
	for _, want := range []string{
		"ok  \texample.com/a\t0.01s\n",
		"== 2 skipped tests\n",
		"  example.com/a TestBrowser: browser_test.go:39: no chromium on PATH (Debian: apt-get install -y chromium)  [needs Chromium]\n",
		"  example.com/a TestRoot: errors_host_test.go:15: root ignores file modes\n",
		"FAIL: 1 tests skipped for a dependency CI installs (Chromium and others above)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "quiet") {
		t.Errorf("a passing test's output was printed:\n%s", got)
	}
	var out2 strings.Builder
	r2 := &report{out: &out2, pending: map[string][]string{}}
	r2.read(strings.NewReader(stream))
	if !r2.summary(true) {
		t.Errorf("-allow-missing still failed:\n%s", out2.String())
	}
}

func TestFailuresReported(t *testing.T) {
	const stream = `{"Action":"run","Package":"example.com/b","Test":"TestBad"}
{"Action":"output","Package":"example.com/b","Test":"TestBad","Output":"    b_test.go:9: boom\n"}
{"Action":"output","Package":"example.com/b","Test":"TestBad","Output":"--- FAIL: TestBad (0.00s)\n"}
{"Action":"fail","Package":"example.com/b","Test":"TestBad","Elapsed":0}
{"Action":"output","Package":"example.com/b","Output":"FAIL\texample.com/b\t0.01s\n"}
{"Action":"fail","Package":"example.com/b","Elapsed":0.01}
{"ImportPath":"example.com/c","Action":"build-output","Output":"c.go:3:1: syntax error\n"}
{"ImportPath":"example.com/c","Action":"build-fail"}
`
	var out strings.Builder
	r := &report{out: &out, pending: map[string][]string{}}
	r.read(strings.NewReader(stream))
	if r.summary(false) {
		t.Error("a failing run passed")
	}
	for _, want := range []string{"b_test.go:9: boom", "--- FAIL: TestBad", "FAIL\texample.com/b", "c.go:3:1: syntax error"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}
