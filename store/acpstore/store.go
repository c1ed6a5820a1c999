//go:build !js && !wasip1

// Package acpstore is the agent side of the Agent Client Protocol's fs methods: a
// [store.Store] for agents written in Go that reads and writes through the ACP client (an
// editor) when the client advertised fs/read_text_file and fs/write_text_file, and uses
// the local disk for the rest. The protocol types and the connection are package
// [github.com/llmfs/llmfs/acp]'s.
package acpstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/acp"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/osdir"
)

// Options configure a [Store].
type Options struct {
	// Conn is the agent's connection to the client.
	Conn *acp.Conn
	// SessionID is the session the requests belong to.
	SessionID string
	// Root is the absolute host directory the store's names are relative to, normally the
	// session's cwd.
	Root string
	// Capabilities are the fs capabilities the client advertised in initialize.
	Capabilities acp.FileSystemCapability
	// Local serves what ACP cannot (listing, directories, removal, renames) and the
	// methods the client did not advertise. Nil means a sandboxed host directory on Root.
	Local store.Store
}

// Store is the agent side of ACP's fs methods: a [store.Store] for agents written in
// Go. Reading a file's content goes to the client with fs/read_text_file when the client
// advertised readTextFile, so the agent sees unsaved editor buffers; writing goes to the
// client with fs/write_text_file when it advertised writeTextFile, so the editor sees and
// tracks the change. Everything else (Stat, ReadDir, Mkdir, Remove, Rename, and any method
// not advertised) is served by the local store: ACP v1 has no listing or search. A method
// the client did not advertise is never called.
//
// Before asking the client, Open and WriteFile check the name against the local store, so
// a symbolic link that leads out of Root is refused here too.
//
// Conditional writes ([store.WriteOptions.IfMatch], IfAbsent), Exclusive and Append are
// done as a read followed by a write: they are not atomic against other writers of the
// same file, because ACP has no conditional write.
type Store struct {
	conn  *acp.Conn
	sid   string
	root  string
	caps  acp.FileSystemCapability
	local store.Store
}

// New returns a Store. It fails if Root is not an absolute directory (when Local is
// nil) or Conn is nil.
func New(opts Options) (*Store, error) {
	if opts.Conn == nil {
		return nil, errors.New("acpstore: New: nil Conn")
	}
	if !filepath.IsAbs(opts.Root) {
		return nil, fmt.Errorf("acpstore: New: root must be absolute: %q", opts.Root)
	}
	local := opts.Local
	if local == nil {
		var err error
		if local, err = osdir.New(opts.Root, false); err != nil {
			return nil, fmt.Errorf("acpstore: New: %w", err)
		}
	}
	return &Store{conn: opts.Conn, sid: opts.SessionID, root: filepath.Clean(opts.Root), caps: opts.Capabilities, local: local}, nil
}

// Capabilities returns the client's fs capabilities the store acts on.
func (s *Store) Capabilities() acp.FileSystemCapability { return s.caps }

// Local returns the store that serves what the client does not.
func (s *Store) Local() store.Store { return s.local }

func (s *Store) hostPath(name string) string {
	return filepath.Join(s.root, filepath.FromSlash(name))
}

// Stat describes name from the local store.
func (s *Store) Stat(ctx context.Context, name string) (fs.FileInfo, error) {
	return s.local.Stat(ctx, name)
}

// Lstat describes name from the local store without following a final symbolic link.
func (s *Store) Lstat(ctx context.Context, name string) (fs.FileInfo, error) {
	return store.Lstat(ctx, s.local, name)
}

// ReadDir lists name from the local store.
func (s *Store) ReadDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
	return s.local.ReadDir(ctx, name)
}

// Mkdir creates a directory in the local store.
func (s *Store) Mkdir(ctx context.Context, name string) error { return s.local.Mkdir(ctx, name) }

// Remove removes name from the local store.
func (s *Store) Remove(ctx context.Context, name string) error {
	return s.local.Remove(ctx, name)
}

// Rename renames within the local store.
func (s *Store) Rename(ctx context.Context, oldname, newname string) error {
	return s.local.Rename(ctx, oldname, newname)
}

// Open returns the content of name as the client sees it (buffer included) when the
// client serves reads, and from the local store otherwise.
func (s *Store) Open(ctx context.Context, name string) (fs.File, error) {
	if !s.caps.ReadTextFile {
		return s.local.Open(ctx, name)
	}
	fi, err := s.precheck(ctx, "open", name)
	if err != nil {
		return nil, err
	}
	content, err := s.readRemote(ctx, name)
	if err != nil {
		return nil, err
	}
	mod := time.Now()
	if fi != nil {
		mod = fi.ModTime()
	}
	return &textFile{Reader: strings.NewReader(content), info: textInfo{name: pathBase(name), size: int64(len(content)), mod: mod}}, nil
}

// precheck refuses a name the local store says is invalid, escapes, or is not a regular
// file. A name missing locally passes: the client may hold an unsaved buffer for it.
func (s *Store) precheck(ctx context.Context, op, name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: op, Path: name, Err: store.ErrInvalidName}
	}
	fi, err := s.local.Stat(ctx, name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	case fi.IsDir():
		return nil, &fs.PathError{Op: op, Path: name, Err: store.ErrIsDir}
	case !fi.Mode().IsRegular():
		return nil, &fs.PathError{Op: op, Path: name, Err: store.ErrNotRegular}
	}
	return fi, nil
}

func (s *Store) readRemote(ctx context.Context, name string) (string, error) {
	var res acp.ReadTextFileResponse
	err := s.conn.Call(ctx, acp.MethodReadTextFile, &acp.ReadTextFileRequest{SessionID: s.sid, Path: s.hostPath(name)}, &res)
	if err != nil {
		return "", remoteError("open", name, err)
	}
	return res.Content, nil
}

// WriteFile writes through the client when it serves writes, and to the local store
// otherwise. The client creates missing parents itself.
func (s *Store) WriteFile(ctx context.Context, name string, r io.Reader, opts store.WriteOptions) (int64, error) {
	if !s.caps.WriteTextFile {
		return s.local.WriteFile(ctx, name, r, opts)
	}
	fi, err := s.precheck(ctx, "write", name)
	if err != nil {
		return 0, err
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return 0, &fs.PathError{Op: "write", Path: name, Err: err}
	}
	content := string(data)
	exists := fi != nil
	if opts.Mode == store.Exclusive && exists {
		return 0, &fs.PathError{Op: "write", Path: name, Err: fs.ErrExist}
	}
	if opts.Mode == store.Replace && opts.IfAbsent && exists {
		return 0, &fs.PathError{Op: "write", Path: name, Err: store.ErrChanged}
	}
	if opts.Mode == store.Append || opts.IfMatch != "" {
		cur, err := s.current(ctx, name, exists)
		if err != nil {
			return 0, err
		}
		if opts.IfMatch != "" && (cur == nil || store.Hash([]byte(*cur)) != opts.IfMatch) {
			return 0, &fs.PathError{Op: "write", Path: name, Err: store.ErrChanged}
		}
		if opts.Mode == store.Append && cur != nil {
			content = *cur + content
		}
	}
	err = s.conn.Call(ctx, acp.MethodWriteTextFile, &acp.WriteTextFileRequest{SessionID: s.sid, Path: s.hostPath(name), Content: content}, nil)
	if err != nil {
		return 0, remoteError("write", name, err)
	}
	return int64(len(data)), nil
}

// current returns the content of name as the client sees it, or nil if it does not exist.
func (s *Store) current(ctx context.Context, name string, exists bool) (*string, error) {
	if s.caps.ReadTextFile {
		c, err := s.readRemote(ctx, name)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return &c, err
	}
	if !exists {
		return nil, nil
	}
	f, err := s.local.Open(ctx, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	c := string(b)
	return &c, nil
}

// remoteError maps a client's error to the io/fs sentinels the core classifies.
func remoteError(op, name string, err error) error {
	var e *acp.Error
	if errors.As(err, &e) {
		switch e.Code {
		case acp.CodeResourceNotFound:
			return &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
		case acp.CodeInvalidParams:
			// A refusal carries the client's llmfs code (see FileServer).
			var data struct{ Code string }
			json.Unmarshal(e.Data, &data)
			if data.Code == string(llmfs.CodePermissionDenied) {
				return &fs.PathError{Op: op, Path: name, Err: fmt.Errorf("%w: %s", fs.ErrPermission, e.Message)}
			}
			return &fs.PathError{Op: op, Path: name, Err: fmt.Errorf("%w: %s", fs.ErrInvalid, e.Message)}
		}
	}
	return &fs.PathError{Op: op, Path: name, Err: fmt.Errorf("acp client: %w", err)}
}

func pathBase(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// textFile is a file read from the client.
type textFile struct {
	*strings.Reader
	info textInfo
}

func (f *textFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *textFile) Close() error               { return nil }

type textInfo struct {
	name string
	size int64
	mod  time.Time
}

func (i textInfo) Name() string       { return i.name }
func (i textInfo) Size() int64        { return i.size }
func (i textInfo) Mode() fs.FileMode  { return 0o644 }
func (i textInfo) ModTime() time.Time { return i.mod }
func (i textInfo) IsDir() bool        { return false }
func (i textInfo) Sys() any           { return clientContent{} }

// clientContent is the Sys of a file read from the client. Its size is that of what the
// client served (an editor's unsaved buffer, it may be) and its modification time that of
// the file on the disk, so the two do not stand for the content: with a Sys that is not a
// host file's, the workspace hashes such a file instead of trusting its metadata.
type clientContent struct{}

var (
	_ store.Store   = (*Store)(nil)
	_ store.Lstater = (*Store)(nil)
)
