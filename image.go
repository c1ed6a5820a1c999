package llmfs

import (
	"context"
	"io"
	"net/http"
)

// DefaultMaxImageBytes is the largest image [Workspace.ReadImage] returns by default.
const DefaultMaxImageBytes = 5 << 20

// Image is an image file read whole: its MIME type and bytes.
type Image struct {
	Path     string // absolute
	MIMEType string // image/png, image/jpeg, image/gif or image/webp
	Data     []byte
}

// ReadImage reads the file at p if it is a PNG, JPEG, GIF or WebP image (told by its
// first bytes, not its name) of at most max bytes (0: [DefaultMaxImageBytes]). It
// returns nil and no error for a file that is not such an image, so a caller can fall
// back to a text read; a bigger image is [CodeFileTooLarge], never a part of one. The
// policy is a read's, and so is read-before-edit: the session has then read the file.
func (w *Workspace) ReadImage(ctx context.Context, p string, max int64) (*Image, error) {
	if max <= 0 {
		max = DefaultMaxImageBytes
	}
	r, err := w.resolve(p)
	if err != nil {
		return nil, err
	}
	if err := w.check(ctx, OpRead, r); err != nil {
		return nil, err
	}
	fi, err := w.store.Stat(ctx, r.name)
	if err != nil {
		return nil, storeError(p, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, nil
	}
	f, err := w.store.Open(ctx, r.name)
	if err != nil {
		return nil, storeError(p, err)
	}
	defer f.Close()
	head := make([]byte, 512)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, storeError(p, err)
	}
	mime := http.DetectContentType(head[:n])
	switch mime {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
	default:
		return nil, nil
	}
	if fi.Size() > max {
		return nil, errorf(CodeFileTooLarge, p, "%s is a %s image of %d bytes, over the %d-byte limit for images", p, mime, fi.Size(), max)
	}
	rest, err := io.ReadAll(io.LimitReader(f, max+1-int64(n)))
	if err != nil {
		return nil, storeError(p, err)
	}
	data := append(head[:n:n], rest...)
	if int64(len(data)) > max {
		return nil, errorf(CodeFileTooLarge, p, "%s is an image over the %d-byte limit for images", p, max)
	}
	if w.tracker != nil {
		// An image read whole is a read: the session may then overwrite or delete it.
		w.tracker.record(r.name, seenOf(data))
	}
	return &Image{Path: w.display(r.name), MIMEType: mime, Data: data}, nil
}
