//go:build !js && !wasip1

package sqlstore

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
)

// badIDs are ids no method may accept: the ones issue 31 (item 2) found 'ws fork' took
// as a destination, and more of their kind.
var badIDs = []string{"../x", "a/b", "..", ".", "a b", "café", strings.Repeat("a", 200), "-",
	"", "-rf", "a\nb", "x\x1b[2K", strings.Repeat("a", MaxIDLength+1), `a\b`, "a:b", "%2e%2e"}

func TestCheckID(t *testing.T) {
	for _, id := range badIDs {
		err := CheckID(id)
		var ie *IDError
		if !errors.As(err, &ie) || !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("CheckID(%q) = %v, want an IDError wrapping fs.ErrInvalid", id, err)
		}
	}
	for _, id := range []string{"demo", "my-demo_2.0", "A", strings.Repeat("z", MaxIDLength), ".hidden", "..x", "x-"} {
		if err := CheckID(id); err != nil {
			t.Errorf("CheckID(%q) = %v", id, err)
		}
	}
}

// TestEveryMethodChecksIDs: each method of DB that names a workspace refuses a bad id
// with fs.ErrInvalid and creates nothing (issue 31, item 2).
func TestEveryMethodChecksIDs(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		src := newWorkspace(t, x, Quota{}).ID()
		before, err := x.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range badIDs {
			calls := map[string]error{
				"Create":           x.Create(ctx, id, Quota{}),
				"Fork destination": x.Fork(ctx, src, id),
				"Fork source":      x.Fork(ctx, id, src+"-f"),
				"Remove":           x.Remove(ctx, id),
				"RevokeToken":      x.RevokeToken(ctx, id, "t"),
			}
			_, calls["Workspace"] = x.Workspace(ctx, id, &Options{Create: true})
			_, calls["Log"] = x.Log(ctx, id)
			_, _, calls["CreateToken"] = x.CreateToken(ctx, id, "full", "n")
			_, calls["Tokens"] = x.Tokens(ctx, id)
			for name, err := range calls {
				if !errors.Is(err, fs.ErrInvalid) {
					t.Errorf("%s(%q) = %v, want fs.ErrInvalid", name, id, err)
				}
			}
		}
		after, err := x.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(after) != len(before) {
			t.Errorf("%d workspaces before the calls, %d after", len(before), len(after))
		}
	})
}
