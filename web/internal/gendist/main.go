//go:build !js && !wasip1

// Command gendist rebuilds the browser build that package web embeds: it writes
// web/dist/llmfs.wasm.gz, web/dist/wasm_exec.js and web/dist/BUILD from the source tree
// with the go command on PATH. Run it as `go generate ./web`, and commit what changed.
//
// With -check it writes nothing and exits 1 when the committed files differ from a fresh
// build, naming them (CI runs it so; the build is reproducible for one Go version).
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/llmfs/llmfs/web/internal/wasmbuild"
)

func main() {
	check := flag.Bool("check", false, "compare with the committed files instead of writing them")
	flag.Parse()
	if err := run(*check); err != nil {
		fmt.Fprintln(os.Stderr, "gendist:", err)
		os.Exit(1)
	}
}

func run(check bool) error {
	dir, err := wasmbuild.ModuleDir()
	if err != nil {
		return err
	}
	wasm, wasmExec, err := wasmbuild.Build(context.Background())
	if err != nil {
		return err
	}
	gz := wasmbuild.Gzip(wasm)
	dist := filepath.Join(dir, "web", "dist")
	files := []struct {
		name string
		data []byte
	}{
		{"llmfs.wasm.gz", gz},
		{"wasm_exec.js", wasmExec},
		{"BUILD", fmt.Appendf(nil, "%s js/wasm sha256:%x (%d bytes; gzip: %d)\n", runtime.Version(), sha256.Sum256(wasm), len(wasm), len(gz))},
	}
	var stale []string
	for _, f := range files {
		p := filepath.Join(dist, f.name)
		if check {
			if old, err := os.ReadFile(p); err != nil || !bytes.Equal(old, f.data) {
				stale = append(stale, "web/dist/"+f.name)
			}
			continue
		}
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			return err
		}
	}
	if len(stale) > 0 {
		old, _ := os.ReadFile(filepath.Join(dist, "BUILD"))
		return fmt.Errorf("the embedded browser build is stale: %v differ from a fresh build.\ncommitted: %sfresh:     %srun `go generate ./web` and commit web/dist", stale, old, files[2].data)
	}
	return nil
}
