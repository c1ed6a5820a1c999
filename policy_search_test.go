package llmfs_test

import (
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
)

// TestSearch_DeniedPathsInvisible checks that find and grep never show what the deny rules
// hide, whatever the case of the name, and that grepping a denied path is refused.
func TestSearch_DeniedPathsInvisible(t *testing.T) {
	eachBackend(t, &llmfs.Options{Deny: []string{"secrets/**"}}, func(t *testing.T, w *llmfs.Workspace) {
		// Write below the policy, straight to the store: the rules protect these files.
		open := llmfs.New(w.Store(), &llmfs.Options{Root: w.Root(), NoDefaultDeny: true})
		put(t, open, "a.txt", "token=1\n")
		put(t, open, "secrets/key.txt", "token=2\n")
		put(t, open, "SECRETS/upper.txt", "token=3\n")
		put(t, open, "app/.env", "token=4\n")
		res, err := w.Grep(bg, llmfs.GrepOptions{Pattern: "token", Mode: llmfs.GrepFiles, Hidden: true})
		noErr(t, err)
		if got := strings.Join(res.Files(), ","); got != "a.txt" {
			t.Errorf("grep found %q, want only a.txt", got)
		}
		found, err := w.Find(bg, "*.txt", llmfs.FindOptions{Hidden: true})
		noErr(t, err)
		for _, f := range found.Files {
			if f.Path != "a.txt" {
				t.Errorf("find shows denied %s", f.Path)
			}
		}
		found, err = w.Find(bg, "**/.env", llmfs.FindOptions{Hidden: true})
		noErr(t, err)
		if len(found.Files) != 0 {
			t.Errorf("find shows %v, want no .env", found.Files)
		}
		_, err = w.Grep(bg, llmfs.GrepOptions{Pattern: "token", Path: "secrets"})
		wantCode(t, err, llmfs.CodePermissionDenied)
	})
}
