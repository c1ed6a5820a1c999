package llmfs_test

import (
	"bytes"
	"context"
	"io/fs"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/mem"
)

// pngHead is the start of a PNG file: what http.DetectContentType needs to call it one.
const pngHead = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"

// openCounter counts the store's Open and Stat calls.
type openCounter struct {
	store.Store
	opens, stats atomic.Int64
}

func (c *openCounter) Open(ctx context.Context, name string) (fs.File, error) {
	c.opens.Add(1)
	return c.Store.Open(ctx, name)
}

func (c *openCounter) Stat(ctx context.Context, name string) (fs.FileInfo, error) {
	c.stats.Add(1)
	return c.Store.Stat(ctx, name)
}

func TestReadTextOrImage(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "a.txt", "one\ntwo\nthree\n")
		big := pngHead + strings.Repeat("\x00\x01", 200<<10) // past the first read chunk
		put(t, w, "big.png", big)
		put(t, w, "small.png", pngHead)

		res, img, err := w.ReadTextOrImage(bg, "a.txt", llmfs.ReadOptions{Offset: 2, Limit: 1}, 0)
		noErr(t, err)
		if img != nil || res == nil || res.Content != "two\n" || res.TotalLines != 3 {
			t.Fatalf("text: img %v, res %+v", img, res)
		}
		for _, name := range []string{"small.png", "big.png"} {
			res, img, err := w.ReadTextOrImage(bg, name, llmfs.ReadOptions{}, 0)
			noErr(t, err)
			want, _ := raw(t, w, name)
			if res != nil || img == nil || img.MIMEType != "image/png" || !bytes.Equal(img.Data, []byte(want)) {
				t.Fatalf("%s: res %v, img %v", name, res, img != nil)
			}
			if img.Path != abs(w, name) {
				t.Errorf("%s: Path %q, want %q", name, img.Path, abs(w, name))
			}
			// ReadImage agrees.
			img2, err := w.ReadImage(bg, name, 0)
			noErr(t, err)
			if img2 == nil || !bytes.Equal(img2.Data, img.Data) {
				t.Fatalf("%s: ReadImage differs", name)
			}
		}
		_, _, err = w.ReadTextOrImage(bg, "big.png", llmfs.ReadOptions{}, 1000)
		wantCode(t, err, llmfs.CodeFileTooLarge)
		_, _, err = w.ReadTextOrImage(bg, "small.png", llmfs.ReadOptions{}, 10)
		wantCode(t, err, llmfs.CodeFileTooLarge)
		_, _, err = w.ReadTextOrImage(bg, "a.txt", llmfs.ReadOptions{Offset: -1}, 0)
		wantCode(t, err, llmfs.CodeInvalidArgument)
		_, _, err = w.ReadTextOrImage(bg, "missing.txt", llmfs.ReadOptions{}, 0)
		wantCode(t, err, llmfs.CodeFileNotFound)
		// Binary but no image: refused as a text read refuses it.
		put(t, w, "bin", "\x00\x01\x02")
		_, _, err = w.ReadTextOrImage(bg, "bin", llmfs.ReadOptions{}, 0)
		wantCode(t, err, llmfs.CodeBinaryFile)
	})
}

// TestReadTextOrImageOpensOnce is the repro of issue 18: every tool read opened the file
// twice (once to sniff for an image) and stat'ed it besides.
func TestReadTextOrImageOpensOnce(t *testing.T) {
	c := &openCounter{Store: mem.New()}
	w := llmfs.New(c, nil)
	put(t, w, "a.txt", "text\n")
	put(t, w, "i.png", pngHead)
	for _, name := range []string{"a.txt", "i.png"} {
		c.opens.Store(0)
		c.stats.Store(0)
		if _, _, err := w.ReadTextOrImage(bg, name, llmfs.ReadOptions{}, 0); err != nil {
			t.Fatal(err)
		}
		if o := c.opens.Load(); o != 1 {
			t.Errorf("%s: %d opens, want 1", name, o)
		}
		if s := c.stats.Load(); s != 0 {
			t.Errorf("%s: %d stats of the store, want 0", name, s)
		}
	}
}

// TestReadTextOrImageTracks checks that both kinds of read count for read-before-edit.
func TestReadTextOrImageTracks(t *testing.T) {
	eachBackend(t, &llmfs.Options{RequireRead: true}, func(t *testing.T, w *llmfs.Workspace) {
		seed := llmfs.New(w.Store(), nil)
		put(t, seed, "a.txt", "text\n")
		put(t, seed, "i.png", pngHead)
		for _, name := range []string{"a.txt", "i.png"} {
			if _, err := w.Write(bg, name, "new\n", llmfs.WriteOptions{}); err == nil {
				t.Fatalf("%s: overwrite before any read was allowed", name)
			}
			if _, _, err := w.ReadTextOrImage(bg, name, llmfs.ReadOptions{}, 0); err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write(bg, name, "new\n", llmfs.WriteOptions{}); err != nil {
				t.Fatalf("%s: overwrite after the read: %v", name, err)
			}
		}
	})
}
