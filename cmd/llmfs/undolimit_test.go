//go:build !js && !wasip1

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUndoMaxFileBytesSetting: --undo-max-file-bytes and undo_max_file_bytes in the
// configuration reach the workspace, and the refusal names them (issue 31, item 5).
func TestUndoMaxFileBytesSetting(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	for _, viaConfig := range []bool{false, true} {
		dir := t.TempDir()
		var limit []string
		if viaConfig {
			mkfile(t, filepath.Join(dir, configName), `{"undo_max_file_bytes": 8}`)
		} else {
			limit = []string{"--undo-max-file-bytes", "8"}
		}
		if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("0123456789abcdef\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		args := append([]string{"write", "--root", dir}, limit...)
		if status, _, stderr := llmfsRun(t, append(args, "f.txt", "small")...); status != 0 {
			t.Fatalf("write: %d %s", status, stderr)
		}
		_, out, _ := llmfsRun(t, "log", "--root", dir)
		id := strings.Fields(out)[0]
		args = append([]string{"undo", "--root", dir}, limit...)
		status, _, stderr := llmfsRun(t, append(args, id)...)
		msg := wantErrCode(t, status, stderr, "FILE_TOO_LARGE")
		if !strings.Contains(msg, "up to 8 bytes") || !strings.Contains(msg, "undo_max_file_bytes") {
			t.Errorf("config %v: refusal %q does not name the limit and the setting", viaConfig, msg)
		}
	}
}
