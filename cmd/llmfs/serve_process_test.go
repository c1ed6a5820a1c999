//go:build unix

package main

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// startServe starts the llmfs binary (the test binary's copy testscript puts on $PATH)
// as `llmfs serve` in dir and returns it with the console's address, once it serves.
func startServe(t *testing.T, dir string, args ...string) (*exec.Cmd, string, *strings.Builder) {
	t.Helper()
	bin, err := exec.LookPath("llmfs")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"serve", "--token", "tok", "--agent-md=false"}, args...)...)
	cmd.Dir = dir
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	found := make(chan string, 1)
	var out strings.Builder
	consoleRE := regexp.MustCompile(`console at http://(\S+)/#`)
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() {
			out.WriteString(sc.Text() + "\n")
			if m := consoleRE.FindStringSubmatch(sc.Text()); m != nil && !sent {
				sent = true
				found <- m[1]
			}
		}
		close(found)
	}()
	select {
	case addr, ok := <-found:
		if !ok {
			t.Fatalf("serve exited before serving")
		}
		return cmd, addr, &out
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not start")
	}
	return nil, "", nil
}

// TestServeStopsAtOnceWithOpenFeed: SIGINT with a console tab open (its live change
// feed is an open event stream) stops the server at once, exit status 0 (issue 33 item 5:
// it waited out a 10 s timeout and exited 1, "context deadline exceeded").
func TestServeStopsAtOnceWithOpenFeed(t *testing.T) {
	cmd, addr, _ := startServe(t, t.TempDir(), "--addr", "127.0.0.1:0")
	req, _ := http.NewRequestWithContext(context.Background(), "GET", "http://"+addr+"/api/history/events", nil)
	req.Header.Set("Authorization", "Bearer tok")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("events: %s", resp.Status)
	}
	start := time.Now()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err := <-waited:
		if err != nil {
			t.Fatalf("serve exited with %v after SIGINT; want status 0", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("serve still running 5 s after SIGINT")
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("serve took %v to stop; want well under the shutdown timeout", took)
	}
	t.Logf("stopped in %v", time.Since(start))
}

// TestServeBusyPort: on a port another program holds, serve says what to do (doctor's
// fix) and prints no bearer token, since it will serve nothing (issue 33 item 6).
func TestServeBusyPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	t.Chdir(t.TempDir())
	code, _, errOut := runCLI(t, "serve", "--addr", ln.Addr().String(), "--agent-md=false")
	if code != 1 || !strings.Contains(errOut, "fix: "+portFix) || strings.Contains(errOut, "token") {
		t.Errorf("serve on a busy port: exit %d, stderr:\n%s\nwant exit 1, the fix, no token", code, errOut)
	}
	t.Log(errOut)
}
