//go:build !js && !wasip1

// Command reviewprep makes N files under ROOT and N pending changes to them in the CLI's
// review layer for ROOT (LLMFS_CACHE_DIR), for timing 'llmfs review' and 'llmfs apply'.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/overlay"
	sqlstore "github.com/llmfs/llmfs/store/sql"
)

func main() {
	root, n := os.Args[1], 1000
	if len(os.Args) > 2 {
		n, _ = strconv.Atoi(os.Args[2])
	}
	ctx := context.Background()
	body := func(i int, tag string) string {
		var sb strings.Builder
		for l := range 20 {
			if l == 10 {
				fmt.Fprintf(&sb, "line %d of file %d %s\n", l, i, tag)
				continue
			}
			fmt.Fprintf(&sb, "line %d of file %d\n", l, i)
		}
		return sb.String()
	}
	if os.Getenv("PREP_FILES") != "" {
		for i := range n {
			p := filepath.Join(root, fmt.Sprintf("d%02d/f%04d.txt", i%20, i))
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte(body(i, "")), 0o644)
		}
		return
	}
	ws, err := host.Open(&llmfs.Options{Root: root})
	must(err)
	// The key and DSN the CLI gives the review layer of a root (cmd/llmfs reviewKey, reviewDSN).
	sum := sha256.Sum256([]byte("root:" + ws.Root()))
	key := hex.EncodeToString(sum[:12])
	dir := filepath.Join(os.Getenv("LLMFS_CACHE_DIR"), "review")
	must(os.MkdirAll(dir, 0o700))
	up, err := sqlstore.OpenDSN(ctx, "sqlite:"+filepath.Join(dir, key+".db"), "review-"+key, &sqlstore.Options{Create: true})
	must(err)
	ov, err := overlay.New(ctx, ws.Store(), up)
	must(err)
	for i := range n {
		_, err := ov.WriteFile(ctx, fmt.Sprintf("d%02d/f%04d.txt", i%20, i), strings.NewReader(body(i, "CHANGED")), storeOpts())
		must(err)
	}
	must(up.Close())
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func storeOpts() store.WriteOptions { return store.WriteOptions{} }
