//go:build !js

package nfs_test

import (
	"context"
	"testing"
	"time"

	nfsc "github.com/willscott/go-nfs-client/nfs"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mount/nfs"
	"github.com/llmfs/llmfs/store"
)

const nf3Lnk = 5 // NF3LNK, the file type of a symbolic link

// TestNFSLinksAndAttrs: SYMLINK, READLINK, and SETATTR of a mode and a time through an
// NFS client reach the workspace: the link stored as a link, the execute bit and the time
// kept by the store after the server is closed, each journaled as the client's.
func TestNFSLinksAndAttrs(t *testing.T) {
	ctx := context.Background()
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ws := b.open(t, &llmfs.Options{}, map[string]string{"a.txt": "a\n", "d/f.txt": "f\n"})
			s := serve(t, ws, nfs.Options{})
			if err := s.c.Symlink("d/f.txt", "/link"); err != nil {
				t.Fatalf("symlink: %v", err)
			}
			if err := s.c.Symlink("x", "/link"); err == nil {
				t.Errorf("symlink over an existing name succeeded")
			}
			if fa, err := s.c.Getattr("/link"); err != nil || fa.Type != nf3Lnk {
				t.Errorf("getattr of the link: %+v, %v; want type NF3LNK", fa, err)
			}
			f, err := s.c.Open("/link")
			if err != nil {
				t.Fatal(err)
			}
			if got, err := f.Readlink(); err != nil || got != "d/f.txt" {
				t.Errorf("readlink = %q, %v", got, err)
			}
			f.Close()
			if err := s.write("/run.sh", "#!/bin/sh\n"); err != nil {
				t.Fatal(err)
			}
			if err := s.c.Setattr("/run.sh", nfsc.Sattr3{Mode: nfsc.SetMode{SetIt: true, Mode: 0o755}}); err != nil {
				t.Fatalf("chmod: %v", err)
			}
			when := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
			mt := nfsc.SetTime{SetIt: nfsc.SetToClientTime, Time: nfsc.NFS3Time{Seconds: uint32(when.Unix())}}
			if err := s.c.Setattr("/a.txt", nfsc.Sattr3{Mtime: mt}); err != nil {
				t.Fatalf("touch: %v", err)
			}
			s.close()
			if got, err := ws.Store().(store.Symlinker).Readlink(ctx, "link"); err != nil || got != "d/f.txt" {
				t.Errorf("Readlink(link) on the workspace = %q, %v", got, err)
			}
			if fi, err := ws.Store().Stat(ctx, "run.sh"); err != nil || fi.Mode().Perm() != 0o755 {
				t.Errorf("run.sh on the workspace: %v, %v; want mode 0755", fi, err)
			}
			if fi, err := ws.Store().Stat(ctx, "a.txt"); err != nil || !fi.ModTime().Equal(when) {
				t.Errorf("a.txt on the workspace: %v, %v; want the time set", fi, err)
			}
			ops := map[string]string{}
			for _, c := range journal(t, ws) {
				ops[c.Op] = c.Actor
			}
			for _, op := range []string{llmfs.ChangeSymlink, llmfs.ChangeChmod} {
				if a, ok := ops[op]; !ok || a != "nfs:127.0.0.1" {
					t.Errorf("journal: %s by %q, want one by the client: %v", op, a, ops)
				}
			}
		})
	}
}
