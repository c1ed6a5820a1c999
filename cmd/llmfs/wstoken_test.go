//go:build !js && !wasip1

package main

import (
	"context"
	"strings"
	"testing"

	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// Issue 19.5: ws token create prints the secret once; list shows no secret; revoke
// stops it; a bad mode is a usage error.
func TestWSToken(t *testing.T) {
	t.Chdir(t.TempDir())
	dsn := "sqlite:llmfs.db"
	if code, out, errOut := runCLI(t, "ws", "create", "--store", dsn, "a"); code != 0 {
		t.Fatal(out, errOut)
	}
	code, secret, errOut := runCLI(t, "ws", "token", "create", "a", "--mode", "ro", "--name", "ci bot", "--store", dsn)
	secret = strings.TrimSpace(secret)
	if code != 0 || !strings.HasPrefix(secret, "llmfs_") || !strings.Contains(errOut, "read-only") {
		t.Fatalf("token create: %d %q %q", code, secret, errOut)
	}
	db, err := sqlstore.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tok, err := db.CheckToken(context.Background(), secret)
	if err != nil || tok.Mode != "read-only" || tok.Workspace != "a" {
		t.Fatalf("CheckToken: %+v %v", tok, err)
	}
	code, list, _ := runCLI(t, "ws", "token", "list", "a", "--store", dsn)
	if code != 0 || !strings.Contains(list, tok.ID) || !strings.Contains(list, "ci bot") || strings.Contains(list, secret[len(secret)-20:]) {
		t.Fatalf("token list: %d %s", code, list)
	}
	if code, _, errOut := runCLI(t, "ws", "token", "create", "a", "--mode", "root", "--store", dsn); code != 2 || !strings.Contains(errOut, "--mode") {
		t.Errorf("bad mode: %d %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, "ws", "token", "create", "nope", "--store", dsn); code == 0 || !strings.Contains(errOut, `no workspace "nope"`) {
		t.Errorf("missing workspace: %d %s", code, errOut)
	}
	if code, out, errOut := runCLI(t, "ws", "token", "revoke", "a", tok.ID, "--store", dsn); code != 0 || !strings.Contains(out, "revoked") {
		t.Fatalf("revoke: %d %s %s", code, out, errOut)
	}
	if _, err := db.CheckToken(context.Background(), secret); err == nil {
		t.Error("a revoked token still checks")
	}
	if code, _, errOut := runCLI(t, "ws", "token", "revoke", "a", tok.ID, "--store", dsn); code == 0 || !strings.Contains(errOut, "no token") {
		t.Errorf("revoking twice: %d %s", code, errOut)
	}
	// Serving every workspace takes no --token.
	if code, _, errOut := runCLI(t, "serve", "--store", dsn, "--token", "x", "--addr", "127.0.0.1:0"); code != 2 || !strings.Contains(errOut, "ws token") {
		t.Errorf("serve --store --token: %d %s", code, errOut)
	}
}
