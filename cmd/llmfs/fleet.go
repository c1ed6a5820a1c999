//go:build !js && !wasip1

package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/internal/buildinfo"
	"github.com/llmfs/llmfs/mcpserver"
	"github.com/llmfs/llmfs/mcpserver/fleet"
	sqlstore "github.com/llmfs/llmfs/store/sql"
	"github.com/llmfs/llmfs/tools"
)

// fleetConfig holds the serve flags that apply to a fleet.
type fleetConfig struct {
	addr       string
	allowHosts []string
	maxBody    int64
	memBudget  int64
	maxOpen    int
	dbConns    int
	// OAuth resource-server mode: the issuer, this server's audience, and optionally
	// the issuer's keys' URL.
	oauthIssuer, oauthAudience, oauthJWKS string
}

// serveFleet serves every workspace of --store, each at /mcp/ID, to the holders of its
// tokens (llmfs ws token), statelessly.
func serveFleet(ctx context.Context, e *env, f *mcpFlags, c fleetConfig, logger *slog.Logger) error {
	w := f.ws
	switch {
	case len(f.roots) > 0 || w.relaxed:
		return usagef("--root and --relaxed have no meaning with --store")
	case w.review.on:
		return usagef("--review serves one workspace: give --workspace ID")
	case w.set("quota-bytes") || w.set("max-file-bytes") || w.set("max-files"):
		return usagef("quotas belong to each workspace: set them with --workspace ID, or at 'ws create'")
	case f.requireRead.set && f.requireRead.v:
		return usagef("--require-read needs a session per client; serving every workspace is stateless: give --workspace ID")
	}
	relaxGC()
	if err := checkDSN(w.storeDSN); err != nil {
		return err
	}
	db, err := existingDB(withBlobs(ctx, w.blobs), w.storeDSN)
	if err != nil {
		return err
	}
	defer db.Close()
	if c.dbConns > 0 {
		// Every request checks its token and reads or writes its workspace: without a
		// bound, a burst opens a connection per request, and replicas together can
		// pass PostgreSQL's max_connections. Past the bound requests wait for one.
		db.SQL().SetMaxOpenConns(c.dbConns)
	}
	w.actor = "mcp"
	base, _, err := w.options()
	if err != nil {
		return err
	}
	base.Quota = llmfs.Quota{} // each store enforces its own
	open := func(ctx context.Context, id string, mode llmfs.Mode) (*llmfs.Workspace, error) {
		s, err := db.Workspace(ctx, id, nil)
		if err != nil {
			return nil, err
		}
		o := *base
		o.Mode = lesserMode(mode, base.Mode)
		ws := llmfs.New(s, &o)
		return ws, ws.Err()
	}
	var oauth *fleet.OAuth
	if c.oauthIssuer != "" || c.oauthAudience != "" {
		if c.oauthIssuer == "" || c.oauthAudience == "" {
			return usagef("--oauth-issuer and --oauth-audience go together")
		}
		if oauth, err = fleet.NewOAuth(ctx, fleet.OAuthOptions{Issuer: c.oauthIssuer, Audience: c.oauthAudience, JWKSURL: c.oauthJWKS}); err != nil {
			return err
		}
	}
	authorize := func(ctx context.Context, token, workspace string) (fleet.Grant, error) {
		if oauth != nil && !strings.HasPrefix(token, "llmfs_") {
			return oauth.Authorize(ctx, token, workspace)
		}
		t, err := db.CheckToken(ctx, token)
		if errors.Is(err, sqlstore.ErrBadToken) {
			return fleet.Grant{}, fmt.Errorf("%w: %v", fleet.ErrUnauthorized, err)
		}
		if err != nil {
			return fleet.Grant{}, err
		}
		return fleet.Grant{Workspace: t.Workspace, Mode: llmfs.Mode(t.Mode), Actor: "mcp:token-" + t.ID}, nil
	}
	ln, err := listen(c.addr)
	if err != nil {
		return err
	}
	host, _, _ := net.SplitHostPort(ln.Addr().String())
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() && len(c.allowHosts) == 0 {
		logger.Warn("listening on all interfaces, but only loopback names are accepted in the Host header; add --allow-host NAME for the names clients use")
	}
	h, err := fleet.NewHandler(&fleet.Options{
		Authorize: authorize,
		Open:      open,
		Server:    &mcpserver.Options{Dialect: tools.Dialect(f.dialect), HistoryTools: f.history, Version: buildinfo.Version(), Logger: logger},
		HTTP: &mcpserver.HTTPOptions{
			Hosts:        append([]string{host}, c.allowHosts...),
			MaxBodyBytes: c.maxBody,
			MemoryBudget: c.memBudget,
			Logger:       logger,
		},
		MaxOpen:          c.maxOpen,
		ResourceMetadata: metadataURL(c.oauthAudience, oauth != nil),
	})
	if err != nil {
		return usagef("%v", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp/", h)
	if oauth != nil {
		// RFC 9728: at the well-known path, and below it for clients that append the
		// resource's path.
		mux.Handle("/.well-known/oauth-protected-resource", oauth.MetadataHandler())
		mux.Handle("/.well-known/oauth-protected-resource/", oauth.MetadataHandler())
	}
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
		ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	fmt.Fprintf(e.stderr, "llmfs: every workspace of %s\n", redactDSN(w.storeDSN))
	fmt.Fprintf(e.stderr, "llmfs: serving MCP at http://%s/mcp/{workspace} (tokens: 'llmfs ws token create --store DSN ID')\n", ln.Addr())
	return runHTTP(ctx, hs, ln, logger, func() {})
}

// metadataURL returns the URL of the protected resource metadata of the server whose
// resource identifier is audience, when OAuth is on.
func metadataURL(audience string, on bool) string {
	u, err := url.Parse(audience)
	if !on || err != nil || u.Host == "" {
		return ""
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/.well-known/oauth-protected-resource"}).String()
}

// lesserMode returns the mode that allows less of a and b.
func lesserMode(a, b llmfs.Mode) llmfs.Mode {
	rank := map[llmfs.Mode]int{llmfs.ReadOnly: 0, llmfs.ReadWrite: 1, llmfs.Full: 2, "": 2}
	if rank[a] <= rank[b] {
		return a
	}
	return b
}
