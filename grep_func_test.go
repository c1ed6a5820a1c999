//go:build !js && !wasip1

package llmfs_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
)

// TestGrepFuncYieldsGrep checks that GrepFunc hands out the entries Grep returns, paths
// relative to the workspace and long lines cut alike, with the same page bounds, and that
// a yield returning false stops it without an error.
func TestGrepFuncYieldsGrep(t *testing.T) {
	files := map[string]string{"long.txt": "needle " + strings.Repeat("z", 3*llmfs.DefaultMaxLineLength) + "\n"}
	for _, d := range []string{"a", "b/c", "d"} {
		files[d+"/f.txt"] = strings.Repeat("one needle\nno\n", 300)
	}
	w, _ := hostWorkspace(t, files, nil)
	ctx := context.Background()
	for _, o := range []llmfs.GrepOptions{
		{Pattern: "needle", Mode: llmfs.GrepContent, LineNumbers: true, After: 1},
		{Pattern: "needle", Mode: llmfs.GrepContent, MaxBytes: 4000, Offset: 20},
		{Pattern: "needle", Mode: llmfs.GrepCount, HeadLimit: 2},
	} {
		want, err := w.Grep(ctx, o)
		noErr(t, err)
		var got []llmfs.GrepEntry
		res, err := w.GrepFunc(ctx, o, func(e llmfs.GrepEntry) bool {
			got = append(got, e)
			return true
		})
		noErr(t, err)
		if !slices.Equal(got, want.Entries) || len(got) == 0 {
			t.Errorf("%+v: GrepFunc yielded %d entries, Grep returned %d", o, len(got), len(want.Entries))
		}
		if res.Truncated != want.Truncated || res.NextOffset != want.NextOffset || res.CutLines != want.CutLines || res.Note != want.Note {
			t.Errorf("%+v: GrepFunc's result %+v, Grep's %+v", o, res, want)
		}
		n := 0
		_, err = w.GrepFunc(ctx, o, func(llmfs.GrepEntry) bool { n++; return false })
		if err != nil || n != 1 {
			t.Errorf("%+v: a yield that stops at once saw %d entries, err %v", o, n, err)
		}
	}
}
