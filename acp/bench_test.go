//go:build !js && !wasip1

package acp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchServer returns a file server on a directory holding a file of size bytes, and an
// agent connection to it over OS pipes.
func benchServer(b *testing.B, size int) (*Conn, string) {
	b.Helper()
	dir, _ := filepath.EvalSymlinks(b.TempDir())
	var sb strings.Builder
	for i := 0; sb.Len() < size; i++ {
		fmt.Fprintf(&sb, "line %d: some text of a typical length for source code\n", i)
	}
	path := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	srv := NewFileServer(nil)
	if err := srv.AddSession("s", dir); err != nil {
		b.Fatal(err)
	}
	ar, bw, _ := os.Pipe()
	br, aw, _ := os.Pipe()
	agent := NewConn(ar, aw, nil)
	server := NewConn(br, bw, srv.Handle)
	b.Cleanup(func() { agent.Close(); server.Close(); ar.Close(); br.Close() })
	b.SetBytes(int64(sb.Len()))
	return agent, path
}

func BenchmarkReadTextFile(b *testing.B) {
	for _, size := range []int{4 << 10, 1 << 20, 20 << 20} {
		b.Run(fmt.Sprintf("%dKiB", size>>10), func(b *testing.B) {
			agent, path := benchServer(b, size)
			ctx := context.Background()
			for b.Loop() {
				var res ReadTextFileResponse
				if err := agent.Call(ctx, MethodReadTextFile, &ReadTextFileRequest{SessionID: "s", Path: path}, &res); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkWriteTextFile(b *testing.B) {
	agent, path := benchServer(b, 1<<20)
	content, _ := os.ReadFile(path)
	ctx := context.Background()
	for b.Loop() {
		if err := agent.Call(ctx, MethodWriteTextFile, &WriteTextFileRequest{SessionID: "s", Path: path, Content: string(content)}, nil); err != nil {
			b.Fatal(err)
		}
	}
}
