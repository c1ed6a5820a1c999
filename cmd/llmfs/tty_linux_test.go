package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY returns the two ends of a new pseudo-terminal.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return m, s
}

// Issue 12.8: a file name with a newline and an escape sequence, listed on a terminal,
// must not forge or erase a line; through a pipe it stays byte for byte.
func TestCLINamesOnTerminal(t *testing.T) {
	t.Setenv("TERM", "xterm")
	dir := t.TempDir()
	evil := "x\n[fs] modified /etc/passwd\x1b[2K.txt"
	mkfile(t, filepath.Join(dir, evil), "pwned\n")
	master, slave := openPTY(t)
	var got bytes.Buffer
	read := make(chan struct{})
	go func() { // until the slave end closes (EIO)
		defer close(read)
		io.Copy(&got, master)
	}()
	for _, args := range [][]string{{"ls"}, {"find", "*.txt"}, {"write", evil, "again\n"}} {
		code := run(context.Background(), append(args, "--root", dir), strings.NewReader(""), slave, os.Stderr)
		if code != 0 {
			t.Fatalf("llmfs %q = %d", args, code)
		}
	}
	slave.Close()
	select {
	case <-read:
	case <-time.After(10 * time.Second):
		t.Fatal("the terminal's output never ended")
	}
	out := got.String()
	if strings.Contains(out, "\x1b") || strings.Contains(out, "\n[fs]") {
		t.Errorf("a raw name reached the terminal:\n%q", out)
	}
	// The name holds slashes: ls lists its first directory, find and write the file.
	if !strings.Contains(out, `  "x\n[fs] modified "/`+"\r\n") {
		t.Errorf("ls did not quote the directory name:\n%q", out)
	}
	if n := strings.Count(out, `x\n[fs] modified /etc/passwd\x1b[2K.txt"`+"\r\n"); n != 2 {
		t.Errorf("the quoted name appears %d times, want 2 (find, write):\n%q", n, out)
	}

	// Through a pipe, the name is printed as it is.
	status, stdout, _ := llmfsRun(t, "find", "*.txt", "--root", dir)
	if status != 0 || stdout != evil+"\n" {
		t.Errorf("find through a pipe = %d, %q", status, stdout)
	}
}
