package mcpserver

import "context"

// actorKey is the context key of a request's actor ([WithActor]).
type actorKey struct{}

// WithActor returns ctx naming actor as the journal's name for the changes of the
// request's session ("mcp:token-ID"), in place of the "mcp:<session id>" made up for it.
// It is for handlers in front of a stateless server ([Options.Stateless]) that know who
// the client is, as package fleet's do; an empty actor changes nothing.
func WithActor(ctx context.Context, actor string) context.Context {
	return context.WithValue(ctx, actorKey{}, actor)
}

// statelessKey marks the context of a request served by the stateless HTTP handler: its
// session has no protocol session ID, and the one made up for it says so ("http-").
type statelessKey struct{}
