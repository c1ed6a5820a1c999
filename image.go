package llmfs

import (
	"bytes"
	"context"
	"io"
	"io/fs"
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
//
// A caller that reads the file as text when it is not an image should call
// [Workspace.ReadTextOrImage], which opens it once.
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
	head := make([]byte, sniffImageLen)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, storeError(p, err)
	}
	mime := imageType(head[:n])
	if mime == "" {
		return nil, nil
	}
	return w.imageRest(f, p, r, mime, head[:n], err == nil, max)
}

// ReadTextOrImage reads the file at p as [Workspace.ReadImage] does if its first bytes say
// it is an image, and as [Workspace.Read] does with opts if not, from one open of the file:
// it returns either the image or the text read, never both. max caps the image as in
// ReadImage (0: [DefaultMaxImageBytes]); opts apply to a text file only, but are checked
// for every file.
func (w *Workspace) ReadTextOrImage(ctx context.Context, p string, opts ReadOptions, max int64) (*ReadResult, *Image, error) {
	if max <= 0 {
		max = DefaultMaxImageBytes
	}
	return w.read(ctx, p, opts, max)
}

// sniffImageLen is how much of a file's start is read to tell an image by (as much as
// http.DetectContentType looks at).
const sniffImageLen = 512

// imageType returns the MIME type of the image that head, the start of a file, begins, or
// "" if it is not a PNG, JPEG, GIF or WebP image. It checks the signatures that
// http.DetectContentType checks for these four and gives the same answer
// (TestImageTypeAsHTTP), without linking net/http into the core.
func imageType(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\x0D\x0A\x1A\x0A")):
		return "image/png"
	case bytes.HasPrefix(head, []byte("\xFF\xD8\xFF")):
		return "image/jpeg"
	case bytes.HasPrefix(head, []byte("GIF87a")), bytes.HasPrefix(head, []byte("GIF89a")):
		return "image/gif"
	case len(head) >= 14 && bytes.HasPrefix(head, []byte("RIFF")) && string(head[8:14]) == "WEBPVP":
		return "image/webp"
	}
	return ""
}

// imageRest reads the rest of the image f, of which head has been read (all of the file
// unless more is true), and records the read. An image over max bytes is
// [CodeFileTooLarge].
func (w *Workspace) imageRest(f fs.File, p string, r resolved, mime string, head []byte, more bool, max int64) (*Image, error) {
	tooLarge := func() error {
		return errorf(CodeFileTooLarge, p, "%s is a %s image over the %d-byte limit for images", p, mime, max)
	}
	if fi, err := f.Stat(); err == nil && fi.Size() > max {
		return nil, errorf(CodeFileTooLarge, p, "%s is a %s image of %d bytes, over the %d-byte limit for images", p, mime, fi.Size(), max)
	}
	if int64(len(head)) > max {
		return nil, tooLarge()
	}
	data := append([]byte(nil), head...) // head may be a pooled buffer
	if more {
		rest, err := io.ReadAll(io.LimitReader(f, max+1-int64(len(head))))
		if err != nil {
			return nil, storeError(p, err)
		}
		data = append(data, rest...)
	}
	if int64(len(data)) > max {
		return nil, tooLarge()
	}
	if w.tracker != nil {
		// An image read whole is a read: the session may then overwrite or delete it.
		w.tracker.record(r.name, seenOf(data))
	}
	return &Image{Path: w.display(r.name), MIMEType: mime, Data: data}, nil
}
