package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"

	"github.com/llmfs/llmfs/mcpserver/internal/listdir"
)

// A resources/list that names a uri lists that one directory (SEP-2093): see package
// listdir, which the stdio transport uses too.

// maxListBody is the largest body liftListDirHTTP looks into: a resources/list is small,
// and a large write is not read twice.
const maxListBody = 64 << 10

// liftListDirHTTP is liftListDir for the body of the HTTP request r, which holds at most
// max bytes (a longer one is left to the go-sdk to refuse).
func liftListDirHTTP(r *http.Request, max int64) *http.Request {
	if r.Method != http.MethodPost || r.Body == nil || r.ContentLength < 0 || r.ContentLength > maxListBody {
		return r
	}
	head, err := io.ReadAll(io.LimitReader(r.Body, max+1))
	rest := io.MultiReader(bytes.NewReader(head), r.Body)
	if err == nil && int64(len(head)) <= max && bytes.Contains(head, []byte(`"resources/list"`)) {
		var msg map[string]json.RawMessage
		if json.Unmarshal(head, &msg) == nil && string(msg["method"]) == `"resources/list"` && listdir.HasURI(msg["params"]) {
			msg["method"] = json.RawMessage(`"` + listdir.Method + `"`)
			if b, err := json.Marshal(msg); err == nil {
				rest = bytes.NewReader(b)
				r.ContentLength = int64(len(b))
				// 2026-07-28 checks that the Mcp-Method header names the body's method.
				if r.Header.Get("Mcp-Method") == "resources/list" {
					r.Header.Set("Mcp-Method", listdir.Method)
				}
			}
		}
	}
	r.Body = struct {
		io.Reader
		io.Closer
	}{rest, r.Body}
	return r
}
