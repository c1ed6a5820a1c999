//go:build !js && !wasip1

package acp

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/acp/internal/jsonrpc"
	"github.com/llmfs/llmfs/store"
)

// The file server's writes: each one recorded, so the client can list and undo it.

// write is one write of the agent: the change as it was reported, where its journal entry
// is, and the editor's unsaved buffer it replaced, which the journal does not know.
type write struct {
	ch     Change
	ws     *llmfs.Workspace // the root's workspace, as the session's actor
	rel    string           // the file's name in it
	entry  int64            // the journal's change id; 0 when the root keeps no journal
	buffer *string          // the buffer over the file before the write, if any
}

// Change is one write of the agent. The write itself is in the journal of the root's
// workspace, as a change of actor "acp:<session id>" (see [Change.Entry]), so `llmfs log`,
// `llmfs undo` and `llmfs restore` see it too.
type Change struct {
	// ID numbers the server's changes from 1 in the order they happened, across all the
	// roots (each root has a journal of its own, with ids of its own).
	ID        int
	SessionID string
	// Path is the canonical absolute path of the file written.
	Path string
	Time time.Time
	// BeforeHash and AfterHash are the SHA-256 (hex, as [store.Hash]) of the content before
	// and after the write, as the editor held it (its buffer, if any, else the disk);
	// BeforeHash is empty when the file did not exist (Created), or when the root keeps no
	// journal.
	BeforeHash, AfterHash string
	// Created reports that the file existed neither on disk nor as a buffer.
	Created bool
	// Bytes is the size of the content written.
	Bytes int
	// Undone reports that the change has been taken back ([FileServer.Undo], or an undo
	// or restore through the journal by anyone).
	Undone bool
	// Entry is the id of the write in the journal of the root's workspace; 0 when the root
	// keeps no journal (then the change cannot be undone).
	Entry int64
}

// Changes returns the agent's writes so far, oldest first. Whether each is undone is read
// from the journal.
func (s *FileServer) Changes() []Change {
	s.mu.Lock()
	ws := slices.Clone(s.writes)
	s.mu.Unlock()
	out := make([]Change, len(ws))
	for i, w := range ws {
		out[i] = w.ch
		out[i].Undone = w.undone(context.Background())
	}
	return out
}

// undone reports whether a later undo or restore put back what the write found.
func (w *write) undone(ctx context.Context) bool {
	if w.entry == 0 {
		return false
	}
	c, err := w.ws.History().ChangeByID(ctx, w.entry)
	if err != nil {
		return false
	}
	later, err := w.ws.History().List(ctx, llmfs.HistoryFilter{Path: w.rel, After: w.entry})
	if err != nil {
		return false
	}
	// Newest first: count back through undos of undos (a redo) to the oldest undo.
	undone := false
	for i := len(later) - 1; i >= 0; i-- {
		u := later[i]
		if u.Path != c.Path || (u.Op != llmfs.ChangeUndo && u.Op != llmfs.ChangeRestore) {
			continue
		}
		switch {
		case !undone && u.Before.Equal(c.After) && u.After.Equal(c.Before):
			undone = true
		case undone && u.Before.Equal(c.Before) && u.After.Equal(c.After):
			undone = false
		}
	}
	return undone
}

// WriteTextFile serves fs/write_text_file and records the write as a [Change].
func (s *FileServer) WriteTextFile(ctx context.Context, req *WriteTextFileRequest) (*WriteTextFileResponse, error) {
	if !s.writable() {
		return nil, jsonrpc.MethodNotFound(MethodWriteTextFile)
	}
	r, rel, key, err := s.locate(req.SessionID, req.Path)
	if err != nil {
		return nil, err
	}
	s.writeMu.Lock()
	ch, err := s.write(ctx, req, r, rel, key)
	s.writeMu.Unlock()
	if err != nil {
		return nil, err
	}
	if s.opts.OnChange != nil {
		s.opts.OnChange(ch)
	}
	return &WriteTextFileResponse{}, nil
}

func (s *FileServer) write(ctx context.Context, req *WriteTextFileRequest, r fsRoot, rel, key string) (Change, error) {
	w := &write{ch: Change{SessionID: req.SessionID, Path: key, AfterHash: store.Hash([]byte(req.Content)), Bytes: len(req.Content)}, ws: r.ws, rel: rel}
	s.mu.Lock()
	if buf, ok := s.buffers[key]; ok {
		w.buffer = &buf
	}
	s.mu.Unlock()
	res, err := r.ws.Write(ctx, rel, req.Content, llmfs.WriteOptions{Mode: llmfs.Overwrite})
	if err != nil {
		return Change{}, rpcError(req.Path, err)
	}
	w.ch.Time = time.Now()
	w.ch.Created = res.Created
	if r.ws.Settings().Journaled {
		// Writes are one at a time (writeMu), and this session's actor is the server's
		// own: the newest change of it to the file is this write.
		cs, err := r.ws.History().List(ctx, llmfs.HistoryFilter{Path: rel, Actor: r.ws.Settings().Actor, Limit: 1})
		if err == nil && len(cs) == 1 {
			c := cs[0]
			w.entry, w.ch.Entry, w.ch.Time = c.ID, c.ID, c.Time
			if c.Before.Kind == store.File {
				w.ch.BeforeHash = c.Before.Hash
			}
		}
	}
	// Created and BeforeHash describe the file as the editor held it: its buffer if any.
	if w.buffer != nil {
		w.ch.Created, w.ch.BeforeHash = false, store.Hash([]byte(*w.buffer))
	}
	s.mu.Lock()
	if _, ok := s.buffers[key]; ok {
		s.buffers[key] = req.Content
	}
	s.writes = append(s.writes, w)
	w.ch.ID = len(s.writes)
	s.mu.Unlock()
	return w.ch, nil
}

// Undo reverts the change with the given ID through the journal of its root
// ([llmfs.History.Undo], journaled as the session's actor): it puts the file on disk back
// as it was before (removing it if the write created it), and the editor buffer over it as
// it was, if there was one. It refuses, changing nothing, when the file has changed since,
// on disk ([llmfs.CodeFileChanged], with the diff) or in its buffer; when the change was
// already undone; and when the root keeps no journal.
func (s *FileServer) Undo(ctx context.Context, id int) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.mu.Lock()
	if id < 1 || id > len(s.writes) {
		s.mu.Unlock()
		return fmt.Errorf("acp: no change %d", id)
	}
	w := s.writes[id-1]
	buf, open := s.buffers[w.ch.Path]
	s.mu.Unlock()
	switch {
	case w.entry == 0:
		return fmt.Errorf("acp: change %d cannot be undone: %s keeps no journal", id, w.ws.Root())
	case w.undone(ctx):
		return fmt.Errorf("acp: change %d is already undone", id)
	case open && store.Hash([]byte(buf)) != w.ch.AfterHash:
		return &llmfs.Error{Code: llmfs.CodeFileChanged, Path: w.ch.Path,
			Msg: fmt.Sprintf("change %d cannot be undone: the editor's buffer of %s has changed since; nothing was touched", id, w.ch.Path)}
	}
	c, err := w.ws.History().ChangeByID(ctx, w.entry)
	if err != nil {
		return err
	}
	if _, err := w.ws.History().Undo(ctx, w.entry); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, open = s.buffers[w.ch.Path]
	switch {
	case w.buffer != nil:
		s.buffers[w.ch.Path] = *w.buffer
	case open && c.Before.Kind == store.File: // opened since: it shows the disk again
		if res, err := w.ws.Read(ctx, w.rel, llmfs.ReadOptions{Offset: 1, Limit: llmfs.NoLimit}); err == nil {
			s.buffers[w.ch.Path] = res.Content
		} else {
			delete(s.buffers, w.ch.Path)
		}
	case open:
		delete(s.buffers, w.ch.Path)
	}
	return nil
}
