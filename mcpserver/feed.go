package mcpserver

import (
	"context"
	"crypto/sha256"
	"errors"
	"path"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/tools"
)

// watches are the resource subscriptions of a server and the journal feeds that serve
// them (see the package comment of resources.go).
type watches struct {
	mu    sync.Mutex
	subs  map[string]*watch    // by URI, as the client gave it
	feeds map[int]*feedRunning // by directory, while anyone listens
}

type watch struct {
	root     int    // the directory that holds the file
	path     string // the file, in the dialect's terms
	sessions map[*mcp.ServerSession]bool
	stop     context.CancelFunc // the fallback poll's, without a journal; else nil
}

// feedRunning is a running feed and the number of listeners holding it: subscriptions,
// subscriptions/listen streams and sessions interested in list_changed.
type feedRunning struct {
	refs int
	stop context.CancelFunc
}

// hold starts the feed of directory i unless it runs, and counts one more listener. It
// returns the journal's error when the directory has no feed to run (no journal). Called with w.mu held.
func (s *server) hold(i int) error {
	if f := s.watches.feeds[i]; f != nil {
		f.refs++
		return nil
	}
	ws := s.workspace(i)
	ctx, stop := context.WithCancel(context.Background())
	// The newest change now is where the feed starts: it sends what comes after.
	newest, err := ws.History().List(ctx, llmfs.HistoryFilter{Limit: 1})
	if err != nil {
		stop()
		return err
	}
	var after int64
	if len(newest) > 0 {
		after = newest[0].ID
	}
	s.watches.feeds[i] = &feedRunning{refs: 1, stop: stop}
	go s.feed(ctx, i, ws, after)
	return nil
}

// release undoes one [server.hold] of directory i, and stops the feed with its last
// listener. Called with w.mu held.
func (s *server) release(i int) {
	f := s.watches.feeds[i]
	if f == nil {
		return
	}
	if f.refs--; f.refs <= 0 {
		f.stop()
		delete(s.watches.feeds, i)
	}
}

// holdAll holds the feed of every directory that has one, and returns the function
// that releases them.
func (s *server) holdAll() func() {
	s.watches.mu.Lock()
	defer s.watches.mu.Unlock()
	var held []int
	for i := range s.roots {
		if s.hold(i) == nil {
			held = append(held, i)
		}
	}
	return func() {
		s.watches.mu.Lock()
		defer s.watches.mu.Unlock()
		for _, i := range held {
			s.release(i)
		}
	}
}

// feedRetry is the pause after a failed read of the journal.
const feedRetry = time.Second

// feed follows the journal of directory i from change after on, and tells the
// subscribers of what changed.
func (s *server) feed(ctx context.Context, i int, ws *llmfs.Workspace, after int64) {
	for {
		if err := ws.History().WaitChange(ctx, after); err != nil {
			if ctx.Err() != nil {
				return
			}
			s.logger.Warn("the journal feed failed; retrying", "error", err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(feedRetry):
			}
			continue
		}
		changes, err := ws.History().List(ctx, llmfs.HistoryFilter{After: after})
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			s.logger.Warn("reading the journal failed; retrying", "error", err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(feedRetry):
			}
			continue
		}
		var touched []string
		listChanged := false
		for _, c := range changes {
			after = max(after, c.ID)
			for _, p := range []string{c.Path, c.Other} {
				if p != "" {
					touched = append(touched, path.Clean(p))
				}
			}
			// Appeared, vanished, changed kind, or moved or copied (a path appeared).
			if c.Before.Kind != c.After.Kind || c.Other != "" {
				listChanged = true
			}
		}
		s.notify(ctx, i, touched)
		if listChanged {
			s.listChanged()
		}
	}
}

// notify sends resources/updated for each subscribed file of directory i that is, or
// lies below, one of the touched paths.
func (s *server) notify(ctx context.Context, i int, touched []string) {
	s.watches.mu.Lock()
	var uris []string
	for uri, w := range s.watches.subs {
		if w.root != i || w.stop != nil {
			continue
		}
		for _, p := range touched {
			if within(p, w.path) {
				uris = append(uris, uri)
				break
			}
		}
	}
	s.watches.mu.Unlock()
	for _, uri := range uris {
		if err := s.srv.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri}); err != nil && !errors.Is(err, context.Canceled) {
			s.logger.Debug("resource update notification failed", "uri", uri, "error", err)
		}
	}
}

// listChangedURI names the placeholder resource whose addition and removal make the
// go-sdk send notifications/resources/list_changed, which it offers no call for. The
// two coalesce into one notification; resources/list is answered by llmfs's own
// handler, so the placeholder is never listed.
const listChangedURI = "llmfs:list-changed"

func (s *server) listChanged() {
	s.srv.AddResource(&mcp.Resource{URI: listChangedURI, Name: "list-changed"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return nil, mcp.ResourceNotFoundError(listChangedURI)
	})
	s.srv.RemoveResources(listChangedURI)
}

// subscribe watches the resource's file through the journal feed of its directory (or,
// without a journal, by polling it).
func (s *server) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	ws, p, err := s.resolveResource(ctx, req.Session, req.Params.Meta, uri)
	if err != nil {
		return resourceError(uri, err)
	}
	if err := readable(ctx, ws, p); err != nil {
		return resourceError(uri, err)
	}
	_, i, err := s.locate(p)
	if err != nil {
		return resourceError(uri, err)
	}
	s.watches.mu.Lock()
	defer s.watches.mu.Unlock()
	w := s.watches.subs[uri]
	if w == nil {
		w = &watch{root: i, path: path.Clean(p), sessions: map[*mcp.ServerSession]bool{}}
		if err := s.hold(i); err != nil {
			// No journal (or none readable): poll the file instead.
			s.logger.Debug("no journal feed; polling the subscribed file", "uri", uri, "error", err)
			wctx, stop := context.WithCancel(context.Background())
			w.stop = stop
			go s.poll(wctx, ws, p, uri)
		}
		s.watches.subs[uri] = w
	}
	w.sessions[req.Session] = true
	return nil
}

// readable runs the checks resources/read runs on p (path rules, a link that leads out of
// the root, deny rules, the mode) without reading it: a watch must not tell a client when
// a file it may not read changes. A file that is not there yet may be watched, and so may
// a big one (the watch reads no content to the client).
func readable(ctx context.Context, ws *llmfs.Workspace, p string) error {
	_, err := ws.ReadFile(ctx, p, 0) // 0: stop at the size, after the checks and the open
	switch llmfs.CodeOf(err) {
	case llmfs.CodeFileNotFound, llmfs.CodeFileTooLarge:
		return nil
	}
	return err
}

func (s *server) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	s.dropWatch(req.Params.URI, req.Session)
	return nil
}

// dropWatch removes ss from the watchers of uri (of every URI when uri is ""), and
// releases the feeds and polls nobody watches any more.
func (s *server) dropWatch(uri string, ss *mcp.ServerSession) {
	s.watches.mu.Lock()
	defer s.watches.mu.Unlock()
	for u, w := range s.watches.subs {
		if uri != "" && u != uri {
			continue
		}
		delete(w.sessions, ss)
		if len(w.sessions) == 0 {
			if w.stop != nil {
				w.stop()
			} else {
				s.release(w.root)
			}
			delete(s.watches.subs, u)
		}
	}
}

// listenMiddleware refuses resources/subscribe on a stateless server, and holds the
// journal feeds while a subscriptions/listen stream (the
// 2026-07-28 way to receive notifications) is open, so that it gets list_changed even
// without a resource subscription; and, for a session of an older revision that lists
// resources, for the rest of the session.
func (s *server) listenMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "resources/subscribe":
			if s.stateless {
				// The subscription would end with this request's session: say so
				// rather than accept one that can never tell anything.
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
					Message: "this server is stateless: resources/subscribe ends with its request; subscribe with subscriptions/listen (protocol 2026-07-28)"}
			}
		case "subscriptions/listen":
			defer s.holdAll()()
		case "resources/list":
			if ss, ok := req.GetSession().(*mcp.ServerSession); ok && !s.stateless {
				if st, err := s.session(ctx, ss); err == nil && st.listing.CompareAndSwap(false, true) {
					release := s.holdAll()
					go func() {
						ss.Wait()
						release()
					}()
				}
			}
		}
		return next(ctx, method, req)
	}
}

// poll hashes the file every interval and tells the subscribers when it changes: the
// fallback for a workspace without a journal.
func (s *server) poll(ctx context.Context, ws *llmfs.Workspace, p, uri string) {
	state := func() [32]byte {
		b, err := ws.ReadFile(ctx, p, DefaultMaxResourceBytes)
		if err != nil {
			return sha256.Sum256([]byte("error: " + tools.ErrorOf(err).Code))
		}
		return sha256.Sum256(b)
	}
	last := state()
	t := time.NewTicker(s.pollInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		now := state()
		if ctx.Err() != nil {
			return
		}
		if now != last {
			last = now
			if err := s.srv.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri}); err != nil && !errors.Is(err, context.Canceled) {
				s.logger.Debug("resource update notification failed", "uri", uri, "error", err)
			}
		}
	}
}
