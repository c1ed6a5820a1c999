//go:build !js && !wasip1

package sqlstore

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/llmfs/llmfs/store"
)

const (
	casDSNEnv  = "LLMFS_CAS_CHILD_DSN"
	casWSEnv   = "LLMFS_CAS_CHILD_WS"
	casAdds    = 100
	casWorkers = 3
)

// TestCASChild is a worker process of TestCASProcesses; run alone it does nothing. It adds
// one to the counter file casAdds times, each by a read and a write conditional on the
// hash of what it read, retrying when another process got there first.
func TestCASChild(t *testing.T) {
	dsn := os.Getenv(casDSNEnv)
	if dsn == "" {
		t.Skip("a worker process of TestCASProcesses")
	}
	s, err := OpenDSN(ctx, dsn, os.Getenv(casWSEnv), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fmt.Println("ready") // the database is open
	// Start when the parent says so, so that the workers overlap.
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	lost := 0
	for done := 0; done < casAdds; {
		cur := readAll(t, s, "counter")
		n, err := strconv.Atoi(cur)
		if err != nil {
			t.Fatalf("counter holds %q", cur)
		}
		_, err = s.WriteFile(ctx, "counter", strings.NewReader(strconv.Itoa(n+1)),
			store.WriteOptions{IfMatch: store.Hash([]byte(cur))})
		switch {
		case err == nil:
			done++
		case errors.Is(err, store.ErrChanged):
			lost++
		default:
			t.Fatal(err)
		}
	}
	fmt.Printf("lost %d races\n", lost)
}

// TestCASProcesses runs several processes that increment one counter file by
// compare-and-swap: the final count shows whether any update was lost.
func TestCASProcesses(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		s := newWorkspace(t, x, Quota{})
		writeString(t, s, "counter", "0", store.WriteOptions{})
		dsn := os.Getenv(postgresEnv)
		if b.name == "SQLite" {
			dsn = "sqlite:" + filepath.Join(testDir(t), "llmfs.db")
		}
		var wg sync.WaitGroup
		outs := make([]bytes.Buffer, casWorkers)
		errs := make([]error, casWorkers)
		var starts []io.WriteCloser
		readies := make([]chan struct{}, casWorkers)
		exited := make([]chan struct{}, casWorkers)
		for i := range casWorkers {
			cmd := exec.Command(os.Args[0], "-test.run=^TestCASChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), casDSNEnv+"="+dsn, casWSEnv+"="+s.ID())
			readies[i], exited[i] = make(chan struct{}), make(chan struct{})
			out := &readyGate{w: &outs[i], ready: readies[i]}
			cmd.Stdout, cmd.Stderr = out, out
			start, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			starts = append(starts, start)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			wg.Go(func() { errs[i] = cmd.Wait(); close(exited[i]) })
		}
		for i := range casWorkers { // every worker has the database open (or failed)
			select {
			case <-readies[i]:
			case <-exited[i]:
			}
		}
		for _, w := range starts {
			io.WriteString(w, "go\n")
			w.Close()
		}
		wg.Wait()
		lost := 0
		for i, err := range errs {
			if err != nil {
				t.Fatalf("worker %d: %v\n%s", i, err, outs[i].String())
			}
			var n int
			if _, err := fmt.Sscanf(outs[i].String(), "lost %d races", &n); err == nil {
				lost += n
			}
		}
		if got, want := readAll(t, s, "counter"), strconv.Itoa(casWorkers*casAdds); got != want {
			t.Fatalf("counter = %s, want %s: an update was lost", got, want)
		}
		t.Logf("%d processes x %d increments, %d lost races retried", casWorkers, casAdds, lost)
	})
}

// readyGate passes a worker's output on to w but for its first line, "ready", and closes
// ready when that line has come. A first line that is not "ready" (a failure) is passed
// on too.
type readyGate struct {
	w     io.Writer
	ready chan struct{}
	head  []byte // the first line while it comes
	open  bool
}

func (g *readyGate) Write(p []byte) (int, error) {
	n := len(p)
	if !g.open {
		g.head = append(g.head, p...)
		i := bytes.IndexByte(g.head, '\n')
		if i < 0 {
			return n, nil
		}
		g.open = true
		close(g.ready)
		if p = g.head; string(g.head[:i]) == "ready" {
			p = g.head[i+1:]
		}
	}
	_, err := g.w.Write(p)
	return n, err
}
