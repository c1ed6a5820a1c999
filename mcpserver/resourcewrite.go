package mcpserver

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime"
	"path"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mcpserver/internal/listdir"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/tools"
)

// Resource writes, experimental: the Files Working Group's inputs (SEP-2571's
// resources/create and resources/delete, SEP-2093's resources/metadata and a resources/list
// scoped to one directory), with names that may still change, so they are announced under
// the experimental capability [ResourceWriteCapability] only.
//
// Every write goes through the session's workspace exactly as a tool call does: the
// journal (as the session's actor), the mode, the deny rules, the quotas, the client's
// roots and, under --review, the review layer. The etag of a file is the SHA-256 of its
// content in hex ([store.Hash]); resources/read returns it as _meta.etag. An ifMatch that
// is not the file's etag fails with FILE_CHANGED and writes nothing. The check and the
// write are made under the server's lock, so no two resource writes of one server
// interleave; a write by another process between the two is not seen.

// ResourceWriteCapability is the experimental server capability that announces the
// resource write methods.
const ResourceWriteCapability = "io.github.llmfs/resource-write"

// The resource write methods.
const (
	methodResourceCreate   = "resources/create"
	methodResourceUpdate   = "resources/update"
	methodResourceDelete   = "resources/delete"
	methodResourceMetadata = "resources/metadata"
	// methodListDir is where the transports send a resources/list that names a uri (see
	// package listdir): the go-sdk's resources/list params have no uri.
	methodListDir = listdir.Method
)

// directoryMIME is the MIME type of a directory, as SEP-2640 names it.
const directoryMIME = "inode/directory"

// ResourceWriteParams are the params of resources/create and resources/update: the
// content as text or as base64 (blob), one of the two; ifMatch, for an update, the etag
// the file must still have.
type ResourceWriteParams struct {
	mcp.ParamsBase
	URI     string  `json:"uri"`
	Text    *string `json:"text,omitempty"`
	Blob    *string `json:"blob,omitempty"`
	IfMatch string  `json:"ifMatch,omitempty"`
}

// ResourceDeleteParams are the params of resources/delete.
type ResourceDeleteParams struct {
	mcp.ParamsBase
	URI     string `json:"uri"`
	IfMatch string `json:"ifMatch,omitempty"`
}

// ResourceURIParams are the params of resources/metadata, and of resources/list with a uri.
type ResourceURIParams struct {
	mcp.ParamsBase
	URI    string `json:"uri"`
	Cursor string `json:"cursor,omitempty"`
}

// ResourceStat is the result of resources/metadata and of a write: what a stat says, no
// content. Etag is empty for a directory.
type ResourceStat struct {
	mcp.ResultBase
	URI          string `json:"uri"`
	Name         string `json:"name"`
	MIMEType     string `json:"mimeType,omitempty"`
	Size         int64  `json:"size"`
	LastModified string `json:"lastModified,omitempty"`
	Etag         string `json:"etag,omitempty"`
	// Created says a write made the file (resources/create and resources/update only).
	Created *bool `json:"created,omitempty"`
	// Capabilities are SEP-2093's: list for a directory.
	Capabilities *resourceCaps `json:"capabilities,omitempty"`
}

type resourceCaps struct {
	List bool `json:"list,omitempty"`
}

// ResourceDeleted is the result of resources/delete.
type ResourceDeleted struct {
	mcp.ResultBase
	URI string `json:"uri"`
}

// addResourceWrites registers the methods on srv.
func (s *server) addResourceWrites(srv *mcp.Server) error {
	for _, err := range []error{
		mcp.AddReceivingCustomMethod(srv, methodResourceCreate, s.createResource),
		mcp.AddReceivingCustomMethod(srv, methodResourceUpdate, s.updateResource),
		mcp.AddReceivingCustomMethod(srv, methodResourceDelete, s.deleteResource),
		mcp.AddReceivingCustomMethod(srv, methodResourceMetadata, s.resourceMetadata),
		mcp.AddReceivingCustomMethod(srv, methodListDir, s.listDir),
		// SEP-2640's name for the same listing, which the Working Group chose over a uri
		// on resources/list.
		mcp.AddReceivingCustomMethod(srv, "resources/directory/read", s.listDir),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

func (s *server) createResource(ctx context.Context, ss *mcp.ServerSession, p *ResourceWriteParams) (*ResourceStat, error) {
	if p.IfMatch != "" {
		return nil, codedRPCError(p.URI, &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: "resources/create takes no ifMatch: it fails if the file exists"})
	}
	return s.writeResource(ctx, ss, p, llmfs.Create)
}

func (s *server) updateResource(ctx context.Context, ss *mcp.ServerSession, p *ResourceWriteParams) (*ResourceStat, error) {
	return s.writeResource(ctx, ss, p, llmfs.Overwrite)
}

// writeResource writes the content of p to its file in mode.
func (s *server) writeResource(ctx context.Context, ss *mcp.ServerSession, p *ResourceWriteParams, mode llmfs.WriteMode) (*ResourceStat, error) {
	content, err := p.content()
	if err != nil {
		return nil, codedRPCError(p.URI, err)
	}
	ws, fp, err := s.resolveResource(ctx, ss, p.Meta, p.URI)
	if err != nil {
		return nil, codedRPCError(p.URI, err)
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if p.IfMatch != "" {
		if err := checkEtag(ctx, ws, fp, p.IfMatch); err != nil {
			return nil, codedRPCError(p.URI, err)
		}
		// The etag vouches for what the client knows of the file, as a read does under
		// read-before-edit; without one, that rule holds (FILE_NOT_READ).
		ws = ws.With(llmfs.RequireRead(false))
	}
	res, err := ws.Write(ctx, fp, content, llmfs.WriteOptions{Mode: mode, IfMatch: p.IfMatch})
	if err != nil {
		return nil, codedRPCError(p.URI, err)
	}
	st := &ResourceStat{URI: p.URI, Name: path.Base(fp), MIMEType: mimeType(fp, []byte(content)),
		Size: res.Bytes, Etag: store.Hash([]byte(content)), Created: &res.Created}
	if e, err := stat(ctx, ws, fp); err == nil && !e.ModTime.IsZero() {
		st.LastModified = e.ModTime.UTC().Format(time.RFC3339Nano)
	}
	return st, nil
}

// content returns the text, or the decoded blob, of p: exactly one of them.
func (p *ResourceWriteParams) content() (string, error) {
	switch {
	case p.Text != nil && p.Blob != nil:
		return "", &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: "give text or blob, not both"}
	case p.Text != nil:
		return *p.Text, nil
	case p.Blob != nil:
		b, err := base64.StdEncoding.DecodeString(*p.Blob)
		if err != nil {
			return "", &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: "blob is not base64: " + err.Error()}
		}
		return string(b), nil
	}
	return "", &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: "give the content as text or blob"}
}

func (s *server) deleteResource(ctx context.Context, ss *mcp.ServerSession, p *ResourceDeleteParams) (*ResourceDeleted, error) {
	ws, fp, err := s.resolveResource(ctx, ss, p.Meta, p.URI)
	if err != nil {
		return nil, codedRPCError(p.URI, err)
	}
	if err := s.ask.confirm(ctx, ss, nil, AskDelete, "delete "+fp+"?"); err != nil {
		return nil, codedRPCError(p.URI, err)
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if p.IfMatch != "" {
		if err := checkEtag(ctx, ws, fp, p.IfMatch); err != nil {
			return nil, codedRPCError(p.URI, err)
		}
	}
	if _, err := ws.Delete(ctx, fp); err != nil {
		return nil, codedRPCError(p.URI, err)
	}
	return &ResourceDeleted{URI: p.URI}, nil
}

// checkEtag fails with FILE_CHANGED unless the file at p has the etag want.
func checkEtag(ctx context.Context, ws *llmfs.Workspace, p, want string) error {
	b, err := ws.ReadFile(ctx, p, DefaultMaxResourceBytes)
	if err != nil {
		return err
	}
	if got := store.Hash(b); got != want {
		return &llmfs.Error{Code: llmfs.CodeFileChanged, Path: p,
			Msg: fmt.Sprintf("%s has changed: its etag is %s, not the ifMatch %s; nothing was written. Read it again, then retry with its etag.", p, got, want)}
	}
	return nil
}

func (s *server) resourceMetadata(ctx context.Context, ss *mcp.ServerSession, p *ResourceURIParams) (*ResourceStat, error) {
	ws, fp, err := s.resolveResource(ctx, ss, p.Meta, p.URI)
	if err != nil {
		return nil, codedRPCError(p.URI, err)
	}
	e, err := stat(ctx, ws, fp)
	if err != nil {
		return nil, codedRPCError(p.URI, err)
	}
	st := statOf(p.URI, fp, e)
	if e.Type != llmfs.TypeDirectory {
		b, err := ws.ReadFile(ctx, fp, DefaultMaxResourceBytes)
		switch {
		case llmfs.CodeOf(err) == llmfs.CodeFileTooLarge:
			// Too large to hash: the stat without an etag.
		case err != nil:
			return nil, codedRPCError(p.URI, err)
		default:
			st.Etag, st.Size, st.MIMEType = store.Hash(b), int64(len(b)), mimeType(fp, b)
		}
	}
	return st, nil
}

// statOf is the stat of entry e at p (uri), without its etag.
func statOf(uri, p string, e llmfs.Entry) *ResourceStat {
	st := &ResourceStat{URI: uri, Name: path.Base(p), Size: e.Size, MIMEType: mime.TypeByExtension(path.Ext(p))}
	if e.Type == llmfs.TypeDirectory {
		st.MIMEType, st.Capabilities = directoryMIME, &resourceCaps{List: true}
	}
	if !e.ModTime.IsZero() {
		st.LastModified = e.ModTime.UTC().Format(time.RFC3339Nano)
	}
	return st
}

// stat returns the entry of p: from a listing of its parent, or, for the directory
// itself (the root has no parent in the workspace), from a listing of p.
func stat(ctx context.Context, ws *llmfs.Workspace, p string) (llmfs.Entry, error) {
	if dir := path.Dir(p); dir != p {
		entries, err := ws.List(ctx, dir)
		if err == nil {
			for _, e := range entries {
				if e.Name == path.Base(p) {
					return e, nil
				}
			}
			return llmfs.Entry{}, &llmfs.Error{Code: llmfs.CodeFileNotFound, Path: p, Msg: "no such file or directory: " + p}
		}
	}
	if _, err := ws.List(ctx, p); err != nil {
		return llmfs.Entry{}, err
	}
	return llmfs.Entry{Name: path.Base(p), Type: llmfs.TypeDirectory}, nil
}

// listDir answers a resources/list with a uri: the entries of that one directory, files
// and directories (mimeType inode/directory), a page at a time; the cursor is the index
// of the next entry.
func (s *server) listDir(ctx context.Context, ss *mcp.ServerSession, p *ResourceURIParams) (*mcp.ListResourcesResult, error) {
	ws, dir, err := s.resolveResource(ctx, ss, p.Meta, p.URI)
	if err != nil {
		return nil, codedRPCError(p.URI, err)
	}
	entries, err := ws.List(ctx, dir)
	if err != nil {
		return nil, codedRPCError(p.URI, err)
	}
	from := 0
	if p.Cursor != "" {
		if from, err = strconv.Atoi(p.Cursor); err != nil || from < 0 || from > len(entries) {
			return nil, codedRPCError(p.URI, &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: "invalid cursor"})
		}
	}
	res := &mcp.ListResourcesResult{Resources: []*mcp.Resource{}}
	setCacheable(ctx, nil, &res.Cacheable)
	for i := from; i < len(entries); i++ {
		if len(res.Resources) == s.pageSize {
			res.NextCursor = strconv.Itoa(i)
			break
		}
		e := entries[i]
		fp := path.Join(dir, e.Name)
		st := statOf(fileURIOf(fp), fp, e)
		r := &mcp.Resource{URI: st.URI, Name: st.Name, MIMEType: st.MIMEType, Size: e.Size}
		if st.LastModified != "" {
			r.Annotations = &mcp.Annotations{LastModified: st.LastModified}
		}
		res.Resources = append(res.Resources, r)
	}
	return res, nil
}

// codedRPCError is err as a JSON-RPC error: resource-not-found for a missing file, else
// invalid-params whose message starts with the llmfs code; its data holds {"code",
// "message"} (besides the uri of a missing one), as a failed tool call's _meta does.
func codedRPCError(uri string, err error) error {
	e := resourceError(uri, err)
	je, ok := e.(*jsonrpc.Error)
	if !ok {
		return e
	}
	data := map[string]any{}
	_ = json.Unmarshal(je.Data, &data) // the uri of resource-not-found, if any
	o := tools.ErrorOf(err)
	data["code"], data["message"] = o.Code, o.Message
	je.Data, _ = json.Marshal(data)
	return je
}
