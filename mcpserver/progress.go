package mcpserver

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultProgressInterval is the default of [Options.ProgressInterval].
const DefaultProgressInterval = 500 * time.Millisecond

// withProgress runs call, and while it runs sends the client a progress notification
// every interval if the request carries a progress token. The core reports no counts
// while it searches, so the progress is the number of intervals elapsed, with no total,
// and the message says how long the call has been running: enough for a client to show
// that a long grep or find is alive, and to offer cancelling it.
//
// A call that ends before the first interval sends nothing.
func (s *server) withProgress(ctx context.Context, req *mcp.CallToolRequest, call func() *mcp.CallToolResult) *mcp.CallToolResult {
	token := req.Params.GetProgressToken()
	if token == nil || s.progressInterval <= 0 {
		return call()
	}
	done := make(chan *mcp.CallToolResult, 1)
	go func() { done <- call() }()
	tick := time.NewTicker(s.progressInterval)
	defer tick.Stop()
	start := time.Now()
	for n := 1; ; n++ {
		select {
		case res := <-done:
			return res
		case <-tick.C:
			err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
				ProgressToken: token,
				Progress:      float64(n),
				Message:       fmt.Sprintf("%s running for %s", req.Params.Name, time.Since(start).Round(time.Millisecond)),
			})
			if err != nil {
				s.logger.Debug("progress notification failed", "error", err)
			}
		}
	}
}
