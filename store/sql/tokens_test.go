//go:build !js && !wasip1

package sqlstore

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"
)

// Issue 19.5: tokens grant one workspace in one mode, are kept hashed, listed without
// secrets and stop working when revoked, in every process of the database.
func TestTokens(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		x := b.connect(t)
		a, other := newWorkspace(t, x, Quota{}), newWorkspace(t, x, Quota{})
		secret, tok, err := x.CreateToken(ctx, a.id, "read-only", "ci")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(secret, "llmfs_"+tok.ID+"_") || len(secret) < 40 {
			t.Fatalf("secret %q does not carry the token id %q and 128 random bits", secret, tok.ID)
		}
		var stored []byte
		if err := x.db.QueryRowContext(ctx, x.d.rebind(`SELECT hash FROM llmfs_tokens WHERE id = ?`), tok.ID).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(stored), secret[len(secret)-26:]) || len(stored) != 32 {
			t.Fatalf("stored %d bytes, want the 32 of a SHA-256", len(stored))
		}
		// Another process sees it.
		y := b.connect(t)
		got, err := y.CheckToken(ctx, secret)
		if err != nil || got.Workspace != a.id || got.Mode != "read-only" || got.ID != tok.ID || got.Name != "ci" {
			t.Fatalf("CheckToken = %+v, %v", got, err)
		}
		for _, bad := range []string{"", "llmfs_", "llmfs_" + tok.ID + "_", secret + "x", otherLast(secret), "Bearer " + secret} {
			if _, err := y.CheckToken(ctx, bad); !errors.Is(err, ErrBadToken) {
				t.Errorf("CheckToken(%q) = %v, want ErrBadToken", bad, err)
			}
		}
		list, err := x.Tokens(ctx, a.id)
		if err != nil || len(list) != 1 || list[0].ID != tok.ID {
			t.Fatalf("Tokens = %+v, %v", list, err)
		}
		if l, err := x.Tokens(ctx, other.id); err != nil || len(l) != 0 {
			t.Fatalf("Tokens of the other workspace = %+v, %v", l, err)
		}
		if err := x.RevokeToken(ctx, other.id, tok.ID); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("revoking through another workspace = %v, want ErrNotExist", err)
		}
		if err := x.RevokeToken(ctx, a.id, tok.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := y.CheckToken(ctx, secret); !errors.Is(err, ErrBadToken) {
			t.Fatalf("revoked token: %v, want ErrBadToken", err)
		}
		if _, _, err := x.CreateToken(ctx, "no-such-workspace-19", "full", ""); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("token for a missing workspace: %v", err)
		}
		if _, _, err := x.CreateToken(ctx, a.id, "", ""); !errors.Is(err, fs.ErrInvalid) {
			t.Fatalf("token without a mode: %v", err)
		}
		// Removing the workspace removes its tokens.
		s2, _, err := x.CreateToken(ctx, other.id, "full", "")
		if err != nil {
			t.Fatal(err)
		}
		if err := x.Remove(ctx, other.id); err != nil {
			t.Fatal(err)
		}
		if err := x.Create(ctx, other.id, Quota{}); err != nil {
			t.Fatal(err)
		}
		if _, err := x.CheckToken(ctx, s2); !errors.Is(err, ErrBadToken) {
			t.Fatalf("token of a removed workspace, recreated: %v", err)
		}
	})
}

// otherLast is secret with its last character replaced by another one.
func otherLast(secret string) string {
	c := "A"
	if strings.HasSuffix(secret, c) {
		c = "B"
	}
	return secret[:len(secret)-1] + c
}
