//go:build !js && !wasip1

// Command gendist writes the browser build that a binary built with the tag llmfs_webdist
// embeds: web/dist/llmfs.wasm.gz, web/dist/wasm_exec.js and web/dist/BUILD, from the source
// tree with the go command on PATH. Run it as `go generate ./web`; release/build.sh does.
// The files are build output, ignored by git: nothing of them is committed.
//
// Each file is written aside and renamed into place, so a build that embeds them while
// another gendist runs reads a whole file (the build is reproducible: both write the same
// bytes).
package main

import (
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
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gendist:", err)
		os.Exit(1)
	}
}

func run() error {
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
	for _, f := range files {
		if err := writeAtomic(filepath.Join(dist, f.name), f.data); err != nil {
			return err
		}
	}
	return nil
}

func writeAtomic(name string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), ".gendist-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}
