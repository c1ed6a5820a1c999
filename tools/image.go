package tools

import (
	"context"
	"encoding/base64"

	"github.com/llmfs/llmfs"
)

// image returns the result of a read of an image file, {path, type: "image", mime_type,
// data (base64)}, and true; or false for a file that is not an image. The codex, anthropic
// and gemini reads use it.
func (tb *Toolbox) image(ctx context.Context, p string) (any, bool, error) {
	img, err := tb.ws.ReadImage(ctx, p, 0)
	if err != nil || img == nil {
		// Not an image (or no such file): the text read says what is wrong, if anything.
		if llmfs.CodeOf(err) == llmfs.CodeFileTooLarge {
			return nil, true, err
		}
		return nil, false, nil
	}
	return map[string]any{"path": img.Path, "type": "image", "mime_type": img.MIMEType,
		"data": base64.StdEncoding.EncodeToString(img.Data), "bytes": len(img.Data)}, true, nil
}
