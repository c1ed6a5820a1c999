//go:build !js && !wasip1

package tools_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/tools"
)

// testImages are the real image files of testdata/images (made with Go's image encoders,
// and a 1x1 lossless WebP), by name, with the MIME type each must be read as.
var testImages = map[string]string{
	"pixel.png":  "image/png",
	"pixel.jpg":  "image/jpeg",
	"pixel.gif":  "image/gif",
	"pixel.webp": "image/webp",
}

// imageDir copies testdata/images into a new directory, adds a PNG named shot.txt and a
// text file named fake.png (the type is told by content, not name), and returns it.
func imageDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name := range testImages {
		b, err := os.ReadFile(filepath.Join("testdata/images", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
		if name == "pixel.png" {
			if err := os.WriteFile(filepath.Join(dir, "shot.txt"), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "fake.png"), []byte("not an image\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// imageRead is how each dialect reads one file: its tool and arguments for name.
var imageReads = []struct {
	d    tools.Dialect
	tool string
	args func(name string) string
}{
	{tools.Agentool, "file_read", func(n string) string { return `{"path":"` + n + `"}` }},
	{tools.RTC, "read", func(n string) string { return `{"path":"/` + n + `"}` }},
	{tools.Codex, "read_file", func(n string) string { return `{"file_path":"` + n + `"}` }},
	{tools.Anthropic, "str_replace_based_edit_tool", func(n string) string { return `{"command":"view","path":"/` + n + `"}` }},
	{tools.Gemini, "read_file", func(n string) string { return `{"file_path":"` + n + `"}` }},
}

// Issue 17.6: every dialect's read returns a PNG, JPEG, GIF or WebP file as an image,
// told by its content (a PNG named shot.txt is one; a text file named fake.png is text):
// the JSON result holds it base64 with its MIME type, and the Result carries the image
// itself and a structured form without the base64.
func TestReadImageEveryDialect(t *testing.T) {
	ctx := context.Background()
	dir := imageDir(t)
	files := map[string]string{"shot.txt": "image/png"}
	for n, m := range testImages {
		files[n] = m
	}
	for _, r := range imageReads {
		ws, err := host.Open(&llmfs.Options{Root: dir})
		if err != nil {
			t.Fatal(err)
		}
		tb, err := tools.New(ws, r.d)
		if err != nil {
			t.Fatal(err)
		}
		for name, mime := range files {
			want, _ := os.ReadFile(filepath.Join(dir, name))
			res, err := tb.CallResult(ctx, r.tool, json.RawMessage(r.args(name)))
			if err != nil {
				t.Fatalf("%s %s %s: %v", r.d, r.tool, name, err)
			}
			var obj map[string]any
			if err := json.Unmarshal(res.JSON, &obj); err != nil {
				t.Fatal(err)
			}
			data, _ := base64.StdEncoding.DecodeString(obj["data"].(string))
			if obj["type"] != "image" || obj["mime_type"] != mime || !bytes.Equal(data, want) || obj["bytes"] != float64(len(want)) {
				t.Errorf("%s %s %s: result %.200s, want a %s image of %d bytes", r.d, r.tool, name, res.JSON, mime, len(want))
			}
			if p, _ := obj["path"].(string); !strings.HasSuffix(p, "/"+name) {
				t.Errorf("%s %s: path %q", r.d, name, p)
			}
			if len(res.Images) != 1 || res.Images[0].MIMEType != mime || !bytes.Equal(res.Images[0].Data, want) {
				t.Errorf("%s %s: Result.Images = %v", r.d, name, res.Images)
			}
			var lean map[string]any
			if err := json.Unmarshal(res.Structured, &lean); err != nil {
				t.Fatalf("%s %s: Structured %q: %v", r.d, name, res.Structured, err)
			}
			if _, has := lean["data"]; has || lean["mime_type"] != mime || res.Text != string(res.Structured) {
				t.Errorf("%s %s: Structured %s, Text %.100s: want the result without data, as the text", r.d, name, res.Structured, res.Text)
			}
		}
		// A file named like an image that holds text is read as text.
		res, err := tb.CallResult(ctx, r.tool, json.RawMessage(r.args("fake.png")))
		if err != nil {
			t.Fatalf("%s fake.png: %v", r.d, err)
		}
		if len(res.Images) != 0 || !strings.Contains(string(res.JSON), "not an image") {
			t.Errorf("%s fake.png: %s, want its text", r.d, res.JSON)
		}
	}
}

// Issue 17.6: an image over the cap is a FILE_TOO_LARGE error in every dialect's read of
// one file, never a truncated image.
func TestReadImageOverCap(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	png, err := os.ReadFile("testdata/images/pixel.png")
	if err != nil {
		t.Fatal(err)
	}
	big := append(png, bytes.Repeat([]byte{0}, llmfs.DefaultMaxImageBytes)...)
	if err := os.WriteFile(filepath.Join(dir, "big.png"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, r := range imageReads {
		ws, err := host.Open(&llmfs.Options{Root: dir})
		if err != nil {
			t.Fatal(err)
		}
		tb, err := tools.New(ws, r.d)
		if err != nil {
			t.Fatal(err)
		}
		out, err := tb.Call(ctx, r.tool, json.RawMessage(r.args("big.png")))
		if llmfs.CodeOf(err) != llmfs.CodeFileTooLarge {
			t.Errorf("%s %s: %.100s, %v; want FILE_TOO_LARGE", r.d, r.tool, out, err)
		}
	}
}

// Issue 17.6: gemini's read_many_files returns the images among its files as images, in
// order, with a line in its text for each; one over the cap is a note, and the call
// still reads the rest.
func TestReadManyFilesImages(t *testing.T) {
	ctx := context.Background()
	dir := imageDir(t)
	png, _ := os.ReadFile(filepath.Join(dir, "pixel.png"))
	big := append(append([]byte{}, png...), bytes.Repeat([]byte{0}, llmfs.DefaultMaxImageBytes)...)
	if err := os.WriteFile(filepath.Join(dir, "big.png"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	tb, err := tools.New(ws, tools.Gemini)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tb.CallResult(ctx, "read_many_files", json.RawMessage(`{"include":["pixel.gif","fake.png","big.png","pixel.webp"]}`))
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(res.JSON, &raw); err != nil {
		t.Fatal(err)
	}
	content, _ := raw["content"].(string)
	imgs, _ := raw["images"].([]any)
	if len(imgs) != 2 || len(res.Images) != 2 || res.Images[0].MIMEType != "image/gif" || res.Images[1].MIMEType != "image/webp" {
		t.Fatalf("images %v, Result.Images %d, want the GIF and the WebP", imgs, len(res.Images))
	}
	for i, name := range []string{"pixel.gif", "pixel.webp"} {
		want, _ := os.ReadFile(filepath.Join(dir, name))
		m := imgs[i].(map[string]any)
		data, _ := base64.StdEncoding.DecodeString(m["data"].(string))
		if !bytes.Equal(data, want) || !strings.HasSuffix(m["path"].(string), name) {
			t.Errorf("image %d: %v", i, m)
		}
	}
	for _, want := range []string{"--- pixel.gif ---\n(a image/gif image of", "not an image", "--- big.png ---\n(", "over the", "--- pixel.webp ---"} {
		if !strings.Contains(content, want) {
			t.Errorf("content %q lacks %q", content, want)
		}
	}
	if strings.Contains(string(res.Structured), `"data"`) {
		t.Errorf("Structured %s holds the base64", res.Structured)
	}
}

// Issue 17.6: reading an image is a read: with read-before-edit on, the session may then
// overwrite the file.
func TestReadImageCountsAsRead(t *testing.T) {
	ctx := context.Background()
	ws, err := host.Open(&llmfs.Options{Root: imageDir(t)})
	if err != nil {
		t.Fatal(err)
	}
	tb, err := tools.New(ws, tools.RTC)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tb.Call(ctx, "write", json.RawMessage(`{"path":"/pixel.png","content":"x"}`)); llmfs.CodeOf(err) != llmfs.CodeFileNotRead {
		t.Fatalf("write before reading: %v, want FILE_NOT_READ", err)
	}
	if _, err := tb.Call(ctx, "read", json.RawMessage(`{"path":"/pixel.png"}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := tb.Call(ctx, "write", json.RawMessage(`{"path":"/pixel.png","content":"x"}`)); err != nil {
		t.Errorf("write after reading the image: %v", err)
	}
}
