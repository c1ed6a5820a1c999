// Package listdir routes a resources/list that names a uri (SEP-2093: list one
// directory) to a method of its own. The go-sdk reads resources/list params without a
// uri, so llmfs's transports (stdio and HTTP) rename such a request to [Method] before
// the go-sdk reads it; the server handles [Method] as a custom method.
package listdir

import (
	"bytes"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Method is where the transports send a resources/list that names a uri.
const Method = "io.github.llmfs/resources/list-dir"

// Lift renames req to [Method] if it is a resources/list with a uri.
func Lift(req *jsonrpc.Request) {
	if req.Method == "resources/list" && HasURI(req.Params) {
		req.Method = Method
	}
}

// HasURI reports whether params hold a non-empty "uri".
func HasURI(params json.RawMessage) bool {
	if !bytes.Contains(params, []byte(`"uri"`)) {
		return false
	}
	var p struct {
		URI string `json:"uri"`
	}
	return json.Unmarshal(params, &p) == nil && p.URI != ""
}
