//go:build !js && !wasip1

package llmfs_test

import (
	"testing"

	"github.com/llmfs/llmfs"
	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// TestStoreQuotaLeavesNothing checks that an operation the store's own quota refuses leaves
// nothing behind, not even the parent directories it made before the refusal.
func TestStoreQuotaLeavesNothing(t *testing.T) {
	for _, b := range sqlBackends() {
		t.Run(b.name, func(t *testing.T) {
			w := b.new(t, &llmfs.Options{})
			s := w.Store().(*sqlstore.Store)
			if err := s.SetQuota(bg, sqlstore.Quota{MaxFiles: 3, MaxBytes: 10}); err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write(bg, "a.txt", "12345", llmfs.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			for name, op := range map[string]func() error{
				// x and x/y fit, x/y/z does not.
				"mkdir": func() error { _, err := w.Mkdir(bg, "x/y/z"); return err },
				// p fits, p/q.txt has too many bytes.
				"write": func() error { _, err := w.Write(bg, "p/q.txt", "123456", llmfs.WriteOptions{}); return err },
				"copy":  func() error { _, err := w.Copy(bg, "a.txt", "p/q/r.txt"); return err },
			} {
				if err := op(); llmfs.CodeOf(err) != llmfs.CodeQuotaExceeded {
					t.Errorf("%s: %v, want QUOTA_EXCEEDED", name, err)
				}
				entries, err := w.List(bg, ".")
				if err != nil || len(entries) != 1 || entries[0].Name != "a.txt" {
					t.Errorf("after %s: %v, %v; want only a.txt", name, entries, err)
				}
				if _, u, _ := s.Quota(bg); u != (sqlstore.Usage{Bytes: 5, Files: 1}) {
					t.Errorf("after %s: usage %+v, want 5 bytes in 1 entry", name, u)
				}
			}
		})
	}
}
