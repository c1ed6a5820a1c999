//go:build !js && !wasip1

package sqlstore

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/llmfs/llmfs/store/blob/s3blob"
)

// The batch crash test runs this test binary again as an importing process, over
// PostgreSQL and the S3 server of LLMFS_TEST_S3 (see .ci/s3.sh), and kills it with SIGKILL
// in the middle of its batches.
const (
	crashBatchWSEnv = "LLMFS_CRASH_BATCH_WS"
	crashBatches    = 60
	crashBatchFiles = 100
)

// crashBatchContent is the content of file f of batch k: small mostly, two chunks and more
// (kept in object storage) for one file in 10.
func crashBatchContent(k, f int) []byte {
	n := 100 + (k*crashBatchFiles+f)%3000
	if f%10 == 0 {
		n = 2*ChunkSize + k*f
	}
	return big(fmt.Sprintf("batch %d file %d", k, f), n)
}

func crashS3(t *testing.T) *s3blob.Store {
	u := os.Getenv("LLMFS_TEST_S3")
	if u == "" || os.Getenv(postgresEnv) == "" {
		t.Skip("needs LLMFS_TEST_S3 and " + postgresEnv + " (see .ci/s3.sh and .ci/postgres.sh)")
	}
	b, err := s3blob.Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCrashBatchChild is the importing process of TestCrashBatch; run alone it does nothing.
func TestCrashBatchChild(t *testing.T) {
	id := os.Getenv(crashBatchWSEnv)
	if id == "" {
		t.Skip("the importing process of TestCrashBatch")
	}
	s, err := OpenDSN(ctx, os.Getenv(postgresEnv), id, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.DB().SetBlobs(crashS3(t))
	for k := range crashBatches {
		err := s.Batch(ctx, func(b *Batch) error {
			for f := range crashBatchFiles {
				if _, err := b.WriteFile(fmt.Sprintf("b%d-f%d", k, f), bytes.NewReader(crashBatchContent(k, f))); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("batch %d\n", k)
	}
}

// Issue 38: an import into PostgreSQL+S3 killed with SIGKILL half-way leaves every file
// whole or absent, the batches it acknowledged whole, and no chunk row naming an object
// the object store lacks (each file present reads back, every chunk checked against its
// hash), with the usage counters matching the rows.
func TestCrashBatch(t *testing.T) {
	objs := crashS3(t)
	x := connectPostgres(t)
	x.SetBlobs(objs)
	s := newWorkspace(t, x, Quota{})
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashBatchChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashBatchWSEnv+"="+s.ID())
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	const killAfter = 4
	acked, killed := -1, false
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		k, err := strconv.Atoi(strings.TrimPrefix(sc.Text(), "batch "))
		if err != nil {
			continue // test framework output
		}
		acked = k
		if k >= killAfter && !killed {
			cmd.Process.Signal(syscall.SIGKILL)
			killed = true
		}
	}
	cmd.Wait()
	if !killed || acked == crashBatches-1 {
		t.Fatalf("the import finished (batch %d) before it could be killed", acked)
	}
	t.Logf("killed after batch %d", acked)
	files := int64(0)
	for k := range crashBatches {
		for f := range crashBatchFiles {
			name := fmt.Sprintf("b%d-f%d", k, f)
			if _, err := s.Stat(ctx, name); err != nil && k > acked {
				continue // absent: the batch never committed
			}
			if err := readBack(s, name, crashBatchContent(k, f)); err != nil {
				t.Fatalf("batch %d (acknowledged up to %d): %v", k, acked, err)
			}
			files++
		}
	}
	if files%crashBatchFiles != 0 {
		t.Errorf("%d files: a batch landed in part", files)
	}
	if _, u, err := s.Quota(ctx); err != nil || u.Files != files {
		t.Errorf("usage %+v, %v; want %d files", u, err, files)
	}
}
