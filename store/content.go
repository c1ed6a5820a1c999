package store

import (
	"context"
	"io/fs"
)

// A ContentLister is a Store that can list a directory together with the content of its
// small files, for readers that will read every file listed (search). On a database store
// an open per file is a query per file; one listing query that brings the content along
// serves a directory of small files with one statement (issue 18.4).
type ContentLister interface {
	Store
	// ReadDirContent lists the directory name as ReadDir does. Entries of regular files
	// whose whole content came with the listing implement [ContentEntry]; the others are
	// opened as usual. The content is what the file held when listed.
	ReadDirContent(ctx context.Context, name string) ([]fs.DirEntry, error)
}

// A ContentEntry is a directory entry of a regular file that carries the file's content.
type ContentEntry interface {
	fs.DirEntry
	// Content returns the file's whole content; the caller must not change it.
	Content() []byte
}

// A TreeContentLister is a ContentLister that can serve one walk of a tree, which lists
// each directory once, with fewer statements than a listing each (see
// [TreeContentLister.ContentWalk]).
type TreeContentLister interface {
	ContentLister
	// ContentWalk returns a lister for one walk: it may bring the listings of a directory's
	// subdirectories along with it and keep them until the walk asks for them, each once.
	// It holds what it brought until it is dropped, so it serves one walk and no other: a
	// listing it gives is as of the walk's first listing below which it was brought.
	ContentWalk() DirContentLister
}

// A DirContentLister lists directories with their small files' content, as
// [ContentLister.ReadDirContent] does. It is safe for concurrent use.
type DirContentLister interface {
	ReadDirContent(ctx context.Context, name string) ([]fs.DirEntry, error)
}
