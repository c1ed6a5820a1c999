package tools

import (
	"context"
	"encoding/base64"
	"fmt"

	"github.com/llmfs/llmfs"
)

// Images: every dialect's read returns a PNG, JPEG, GIF or WebP file (told by its first
// bytes, whatever its name) as an image rather than refusing it as binary, up to
// [llmfs.DefaultMaxImageBytes] (5 MiB). A bigger image is FILE_TOO_LARGE for a read of
// one file, and a note in read_many_files; it is never cut short.
//
// The JSON result carries the image as {path, type: "image", mime_type, data, bytes}, data
// in base64, so a plain tool loop ([Toolbox.Call], llmfs call) gets the bytes. [Result]
// also carries the images themselves (Images) and the result without the base64
// (Structured), for faces that send images their own way: the MCP server sends each as
// image content.

// imageResult is the result of a call that read images: obj is the result object with the
// images' base64 data, lean the same without it; text is what a model reads (lean's JSON).
type imageResult struct {
	obj, lean any
	images    []*llmfs.Image
}

func (r imageResult) MarshalJSON() ([]byte, error) { return Marshal(r.obj) }

// imageObject is an image's result object; with data false, the base64 is left out.
func imageObject(img *llmfs.Image, data bool) map[string]any {
	o := map[string]any{"path": img.Path, "type": "image", "mime_type": img.MIMEType, "bytes": len(img.Data)}
	if data {
		o["data"] = base64.StdEncoding.EncodeToString(img.Data)
	}
	return o
}

// readAny reads p as an image if its first bytes say it is one, and as text with opts if
// not, opening it once: it returns the image's result (non-nil) or the text read. An image
// over the cap is FILE_TOO_LARGE.
func (tb *Toolbox) readAny(ctx context.Context, p string, opts llmfs.ReadOptions) (any, *llmfs.ReadResult, error) {
	res, img, err := tb.ws.ReadTextOrImage(ctx, p, opts, 0)
	if err != nil || img == nil {
		return nil, res, err
	}
	return imageResult{obj: imageObject(img, true), lean: imageObject(img, false), images: []*llmfs.Image{img}}, nil, nil
}

// imageNote is what read_many_files says in its text about an image it read, or one it
// left out for being too large.
func imageNote(img *llmfs.Image) string {
	return fmt.Sprintf("(a %s image of %d bytes; it comes as an image)", img.MIMEType, len(img.Data))
}
