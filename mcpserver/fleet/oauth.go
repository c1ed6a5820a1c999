package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/llmfs/llmfs"
)

// OAuth makes a fleet an OAuth 2.1 resource server: it accepts JWT access tokens issued
// by one authorization server, checked against the issuer's published keys (JWKS), the
// audience (this server), the expiry, and scopes naming a workspace and a mode:
// "llmfs:WORKSPACE:MODE", MODE one of read-only, read-write or full. A token with
// scopes for several workspaces grants each in its mode.
//
// Only signed tokens of the asymmetric algorithms (RS*, PS*, ES*, EdDSA) are accepted:
// never "none", never a shared-secret HMAC, whatever the token's header says.
type OAuth struct {
	issuer, audience, jwksURL string
	client                    *http.Client

	mu      sync.Mutex
	keys    jose.JSONWebKeySet
	fetched time.Time // of keys; zero: never
}

// OAuthOptions configure [NewOAuth].
type OAuthOptions struct {
	// Issuer is the authorization server's issuer identifier: the "iss" every token must
	// carry, and what the protected resource metadata names. Required.
	Issuer string
	// Audience is this server's resource identifier (its URL, as clients name it in
	// their "resource" parameter): the "aud" every token must include. Required.
	Audience string
	// JWKSURL is where the issuer publishes its keys. Empty: looked up in the issuer's
	// authorization server metadata (/.well-known/oauth-authorization-server, then
	// /.well-known/openid-configuration), "jwks_uri".
	JWKSURL string
	// HTTPClient fetches the metadata and keys. Nil: a client with a 10 s timeout.
	HTTPClient *http.Client
}

// ScopePrefix starts the scopes that grant a workspace: "llmfs:WORKSPACE:MODE".
const ScopePrefix = "llmfs:"

// jwksRefetch is how soon after one fetch of the keys a token signed by an unknown key
// may cause another: the issuer rotating its keys is picked up, a stream of forged key
// ids does not hammer it.
const jwksRefetch = 30 * time.Second

// oauthLeeway is the clock skew allowed on exp, nbf and iat.
const oauthLeeway = 30 * time.Second

// NewOAuth returns a verifier for the tokens of opts.Issuer, fetching its keys now so a
// misconfiguration shows at start.
func NewOAuth(ctx context.Context, opts OAuthOptions) (*OAuth, error) {
	if opts.Issuer == "" || opts.Audience == "" {
		return nil, errors.New("fleet: OAuth needs an issuer and an audience")
	}
	o := &OAuth{issuer: opts.Issuer, audience: opts.Audience, jwksURL: opts.JWKSURL, client: opts.HTTPClient}
	if o.client == nil {
		o.client = &http.Client{Timeout: 10 * time.Second}
	}
	if o.jwksURL == "" {
		u, err := o.discover(ctx)
		if err != nil {
			return nil, err
		}
		o.jwksURL = u
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.fetchKeys(ctx); err != nil {
		return nil, err
	}
	return o, nil
}

// discover reads the jwks_uri of the issuer's metadata (RFC 8414, or OpenID Connect
// discovery).
func (o *OAuth) discover(ctx context.Context) (string, error) {
	base := strings.TrimSuffix(o.issuer, "/")
	var errs []error
	for _, p := range []string{"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"} {
		var meta struct {
			Issuer  string `json:"issuer"`
			JWKSURI string `json:"jwks_uri"`
		}
		if err := o.getJSON(ctx, base+p, &meta); err != nil {
			errs = append(errs, err)
			continue
		}
		if meta.Issuer != o.issuer || meta.JWKSURI == "" {
			errs = append(errs, fmt.Errorf("%s%s: issuer %q, jwks_uri %q", base, p, meta.Issuer, meta.JWKSURI))
			continue
		}
		return meta.JWKSURI, nil
	}
	return "", fmt.Errorf("mcpserver: finding the keys of issuer %s: %w", o.issuer, errors.Join(errs...))
}

func (o *OAuth) getJSON(ctx context.Context, url string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := o.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(v)
}

// fetchKeys replaces the keys by the issuer's current ones. Called with o.mu held.
func (o *OAuth) fetchKeys(ctx context.Context) error {
	var set jose.JSONWebKeySet
	if err := o.getJSON(ctx, o.jwksURL, &set); err != nil {
		return fmt.Errorf("mcpserver: fetching the keys of issuer %s: %w", o.issuer, err)
	}
	o.keys, o.fetched = set, time.Now()
	return nil
}

// key returns the issuer's public key kid, fetching the keys again if it is unknown
// and they were not fetched lately.
func (o *OAuth) key(ctx context.Context, kid string) (*jose.JSONWebKey, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	find := func() *jose.JSONWebKey {
		for _, k := range o.keys.Keys {
			if (k.KeyID == kid || kid == "" && len(o.keys.Keys) == 1) && k.IsPublic() && k.Use != "enc" {
				return &k
			}
		}
		return nil
	}
	if k := find(); k != nil {
		return k, nil
	}
	if time.Since(o.fetched) >= jwksRefetch {
		if err := o.fetchKeys(ctx); err != nil {
			return nil, err
		}
		if k := find(); k != nil {
			return k, nil
		}
	}
	return nil, fmt.Errorf("%w: signed by an unknown key %q", ErrUnauthorized, kid)
}

// signatureAlgorithms are the algorithms a token may be signed with.
var signatureAlgorithms = []jose.SignatureAlgorithm{
	jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512,
	jose.ES256, jose.ES384, jose.ES512, jose.EdDSA,
}

// claims are the claims of an access token llmfs reads.
type claims struct {
	jwt.Claims
	Scope string `json:"scope"` // space-separated (RFC 9068)
}

// Authorize implements [Options.Authorize] for JWT access tokens: it returns the
// grant of the token's scopes for workspace, or, when they grant only others, one of
// theirs (so the fleet answers 403); an invalid token (signature, issuer, audience,
// expiry, or no llmfs scope) is an error wrapping [ErrUnauthorized].
func (o *OAuth) Authorize(ctx context.Context, token, workspace string) (Grant, error) {
	tok, err := jwt.ParseSigned(token, signatureAlgorithms)
	if err != nil {
		return Grant{}, fmt.Errorf("%w: %v", ErrUnauthorized, err)
	}
	if len(tok.Headers) != 1 {
		return Grant{}, fmt.Errorf("%w: want one signature", ErrUnauthorized)
	}
	key, err := o.key(ctx, tok.Headers[0].KeyID)
	if err != nil {
		if errors.Is(err, ErrUnauthorized) {
			return Grant{}, err
		}
		return Grant{}, fmt.Errorf("%w: %v", ErrUnauthorized, err)
	}
	var c claims
	if err := tok.Claims(key.Key, &c); err != nil {
		return Grant{}, fmt.Errorf("%w: %v", ErrUnauthorized, err)
	}
	if c.Expiry == nil {
		return Grant{}, fmt.Errorf("%w: the token has no expiry", ErrUnauthorized)
	}
	if err := c.ValidateWithLeeway(jwt.Expected{Issuer: o.issuer, AnyAudience: jwt.Audience{o.audience}, Time: time.Now()}, oauthLeeway); err != nil {
		return Grant{}, fmt.Errorf("%w: %v", ErrUnauthorized, err)
	}
	var grants []Grant
	for _, s := range strings.Fields(c.Scope) {
		rest, ok := strings.CutPrefix(s, ScopePrefix)
		i := strings.LastIndexByte(rest, ':')
		if !ok || i <= 0 {
			continue
		}
		m := llmfs.Mode(rest[i+1:])
		if m == "" || !m.Valid() {
			continue
		}
		grants = append(grants, Grant{Workspace: rest[:i], Mode: m, Actor: "mcp:oauth-" + termSafe(c.Subject)})
	}
	if len(grants) == 0 {
		return Grant{}, fmt.Errorf("%w: no %s scope", ErrUnauthorized, ScopePrefix)
	}
	// The widest grant for the workspace, if several name it.
	var best *Grant
	for i, g := range grants {
		if g.Workspace == workspace && (best == nil || rank(g.Mode) > rank(best.Mode)) {
			best = &grants[i]
		}
	}
	if best != nil {
		return *best, nil
	}
	return grants[0], nil
}

// termSafe keeps the first 64 bytes of s that are printable ASCII other than a space,
// for a subject named in the journal.
func termSafe(s string) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() >= 64 {
			break
		}
		if r > ' ' && r < 0x7f {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// MetadataHandler serves the OAuth Protected Resource Metadata (RFC 9728) of the
// fleet: its resource identifier, the authorization server, the scopes' form and that
// tokens go in the Authorization header. Mount it at
// /.well-known/oauth-protected-resource (and, for clients that append the resource's
// path, below it).
func (o *OAuth) MetadataHandler() http.Handler {
	body, _ := json.Marshal(map[string]any{
		"resource":                 o.audience,
		"authorization_servers":    []string{o.issuer},
		"bearer_methods_supported": []string{"header"},
		"scopes_supported":         []string{ScopePrefix + "{workspace}:read-only", ScopePrefix + "{workspace}:read-write", ScopePrefix + "{workspace}:full"},
		"resource_name":            "llmfs",
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !slices.Contains([]string{http.MethodGet, http.MethodHead}, r.Method) {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "max-age=300")
		w.Write(body)
	})
}
