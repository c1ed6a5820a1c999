package mcpserver

import (
	"context"
	_ "embed"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The review view as an MCP App (SEP-1865, the io.modelcontextprotocol/ui extension): the
// reviewer's server offers ReviewAppURI, one self-contained HTML page (inline script and
// style, nothing fetched), and each review tool names it in _meta.ui.resourceUri. A host
// that renders MCP Apps shows it in a sandboxed frame beside the tool's result; the page
// lists the pending changes with their diffs and applies or discards one through the host
// (JSON-RPC tools/call over postMessage), at the version it showed.

const (
	// ReviewAppURI is the review view's resource.
	ReviewAppURI = "ui://llmfs/review"
	// AppMIMEType is the MIME type of an MCP App's HTML.
	AppMIMEType = "text/html;profile=mcp-app"
	// AppsExtension is the MCP Apps extension's identifier in capabilities.extensions.
	AppsExtension = "io.modelcontextprotocol/ui"
)

//go:embed reviewapp.html
var reviewAppHTML string

// appsCapability declares the extension, with the MIME types of the views offered.
func appsCapability(c *mcp.ServerCapabilities) {
	c.AddExtension(AppsExtension, map[string]any{"mimeTypes": []string{AppMIMEType}})
}

// reviewAppMeta is the _meta of a review tool: the view to show with it. The flat
// "ui/resourceUri" key is the one hosts read before the spec settled on _meta.ui.
func reviewAppMeta() mcp.Meta {
	return mcp.Meta{
		"ui":             map[string]any{"resourceUri": ReviewAppURI},
		"ui/resourceUri": ReviewAppURI,
	}
}

// addReviewApp adds the review view's resource to srv.
func addReviewApp(srv *mcp.Server) {
	// The page fetches nothing and opens no connection: the host's default CSP (no
	// network) suits it, so its _meta.ui asks for no domains.
	meta := mcp.Meta{"ui": map[string]any{"prefersBorder": true}}
	srv.AddResource(&mcp.Resource{
		URI:         ReviewAppURI,
		Name:        "llmfs-review",
		Title:       "llmfs review",
		Description: "The changes pending review, with their diffs and apply and discard buttons (an MCP App).",
		MIMEType:    AppMIMEType,
		Meta:        meta,
	}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
			URI:      ReviewAppURI,
			MIMEType: AppMIMEType,
			Text:     reviewAppHTML,
			Meta:     meta,
		}}}, nil
	})
}
