//go:build !js && !wasip1

package mcpserver_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mcpserver/fleet"
	"github.com/llmfs/llmfs/store/mem"
)

// issuer is a local OAuth authorization server: its metadata and its keys, and a way
// to sign tokens with them.
type issuer struct {
	srv  *httptest.Server
	priv *rsa.PrivateKey
}

func startIssuer(t *testing.T) *issuer {
	t.Helper()
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	is := &issuer{priv: priv}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]string{"issuer": is.srv.URL, "jwks_uri": is.srv.URL + "/jwks"})
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &priv.PublicKey, KeyID: "k1", Algorithm: "RS256", Use: "sig"}}})
	})
	is.srv = httptest.NewServer(mux)
	t.Cleanup(is.srv.Close)
	return is
}

type tokenClaims struct {
	jwt.Claims
	Scope string `json:"scope,omitempty"`
}

// sign returns a token with claims c, signed by key (the issuer's if nil) as kid.
func (is *issuer) sign(t *testing.T, c tokenClaims, key any, alg jose.SignatureAlgorithm, kid string) string {
	t.Helper()
	if key == nil {
		key = is.priv
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: jose.JSONWebKey{Key: key, KeyID: kid}}, (&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := jwt.Signed(signer).Claims(c).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Issue 19.5 (OAuth): a fleet in resource-server mode publishes its Protected Resource
// Metadata and accepts the JWT access tokens of its issuer, checked against the issuer's
// JWKS, the audience and the expiry, their scopes mapped to workspace and mode; every
// other token gets 401, and one for another workspace 403.
func TestFleetOAuth(t *testing.T) {
	is := startIssuer(t)
	const audience = "https://mcp.example/mcp"
	ctx := context.Background()
	o, err := fleet.NewOAuth(ctx, fleet.OAuthOptions{Issuer: is.srv.URL, Audience: audience})
	if err != nil {
		t.Fatal(err)
	}
	stores := map[string]*mem.Store{"a": mem.New(), "b": mem.New()}
	h, err := fleet.NewHandler(&fleet.Options{
		Authorize:        o.Authorize,
		ResourceMetadata: "http://127.0.0.1/.well-known/oauth-protected-resource",
		Open: func(_ context.Context, id string, mode llmfs.Mode) (*llmfs.Workspace, error) {
			s, ok := stores[id]
			if !ok {
				return nil, fs.ErrNotExist
			}
			return llmfs.New(s, &llmfs.Options{Mode: mode}), nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp/", h)
	mux.Handle("/.well-known/oauth-protected-resource", o.MetadataHandler())
	srv := httptest.NewServer(mux)
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/.well-known/oauth-protected-resource")
	if err != nil {
		t.Fatal(err)
	}
	var prm struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if json.Unmarshal(b, &prm) != nil || prm.Resource != audience || len(prm.AuthorizationServers) != 1 || prm.AuthorizationServers[0] != is.srv.URL {
		t.Fatalf("protected resource metadata: %s", b)
	}

	now := time.Now()
	good := func(scope string) tokenClaims {
		return tokenClaims{Claims: jwt.Claims{Issuer: is.srv.URL, Audience: jwt.Audience{audience}, Subject: "agent-1",
			Expiry: jwt.NewNumericDate(now.Add(time.Hour)), IssuedAt: jwt.NewNumericDate(now)}, Scope: scope}
	}
	ro := is.sign(t, good("openid llmfs:a:read-only"), nil, jose.RS256, "k1")
	if code, body := rpc(t, srv.URL+"/mcp/a", ro, "tools/list", `{}`); code != 200 || strings.Contains(body, "file_write") {
		t.Fatalf("read-only token: %d %.300s", code, body)
	}
	if _, body := rpc(t, srv.URL+"/mcp/a", ro, "tools/call", `{"name":"file_write","arguments":{"path":"/x","content":"x"}}`); !strings.Contains(body, "PERMISSION_DENIED") {
		t.Errorf("write with a read-only scope: %.300s", body)
	}
	both := is.sign(t, good("llmfs:b:read-only llmfs:a:full"), nil, jose.RS256, "k1")
	if _, body := rpc(t, srv.URL+"/mcp/a", both, "tools/call", `{"name":"file_write","arguments":{"path":"/x","content":"x"}}`); strings.Contains(body, `"isError":true`) {
		t.Errorf("write with a full scope: %.300s", body)
	}

	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	wrongRSA, _ := rsa.GenerateKey(rand.Reader, 2048)
	expired := good("llmfs:a:full")
	expired.Expiry = jwt.NewNumericDate(now.Add(-time.Hour))
	noExp := good("llmfs:a:full")
	noExp.Expiry = nil
	wrongAud := good("llmfs:a:full")
	wrongAud.Audience = jwt.Audience{"https://other.example/mcp"}
	wrongIss := good("llmfs:a:full")
	wrongIss.Issuer = "https://evil.example"
	future := good("llmfs:a:full")
	future.NotBefore = jwt.NewNumericDate(now.Add(time.Hour))
	for _, tc := range []struct {
		name, token string
		want        int
	}{
		{"expired", is.sign(t, expired, nil, jose.RS256, "k1"), 401},
		{"no expiry", is.sign(t, noExp, nil, jose.RS256, "k1"), 401},
		{"wrong audience", is.sign(t, wrongAud, nil, jose.RS256, "k1"), 401},
		{"wrong issuer", is.sign(t, wrongIss, nil, jose.RS256, "k1"), 401},
		{"not yet valid", is.sign(t, future, nil, jose.RS256, "k1"), 401},
		{"no llmfs scope", is.sign(t, good("openid"), nil, jose.RS256, "k1"), 401},
		{"bad mode", is.sign(t, good("llmfs:a:root"), nil, jose.RS256, "k1"), 401},
		{"another key, same kid", is.sign(t, good("llmfs:a:full"), wrongRSA, jose.RS256, "k1"), 401},
		{"unknown key", is.sign(t, good("llmfs:a:full"), other, jose.ES256, "k9"), 401},
		{"HMAC", is.sign(t, good("llmfs:a:full"), []byte("0123456789abcdef0123456789abcdef"), jose.HS256, "k1"), 401},
		{"garbage", "a.b.c", 401},
		{"another workspace", is.sign(t, good("llmfs:b:full"), nil, jose.RS256, "k1"), 403},
	} {
		code, body := rpc(t, srv.URL+"/mcp/a", tc.token, "tools/list", `{}`)
		if code != tc.want {
			t.Errorf("%s: %d, want %d (%s)", tc.name, code, tc.want, body)
		}
	}
	// A 401 points the client to the metadata.
	req, _ := http.NewRequest("POST", srv.URL+"/mcp/a", strings.NewReader(`{}`))
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != 401 || !strings.Contains(got, `resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"`) {
		t.Errorf("401 without a token: %d, WWW-Authenticate %q", resp.StatusCode, got)
	}
}

// Issue 19.5 (OAuth): `llmfs serve --store postgres://... --oauth-issuer URL
// --oauth-audience URL` takes the issuer's JWTs besides its own tokens, and publishes
// the protected resource metadata.
func TestFleetOAuthServe(t *testing.T) {
	dsn := postgresDSN(t)
	is := startIssuer(t)
	db, ids := fleetDB(t, dsn, 2)
	const audience = "http://127.0.0.1/mcp"
	base := startFleet(t, dsn, 1, "--oauth-issuer", is.srv.URL, "--oauth-audience", audience)[0].base
	now := time.Now()
	tok := is.sign(t, tokenClaims{Claims: jwt.Claims{Issuer: is.srv.URL, Audience: jwt.Audience{audience},
		Expiry: jwt.NewNumericDate(now.Add(time.Hour))}, Scope: "llmfs:" + ids[0] + ":read-write"}, nil, jose.RS256, "k1")
	if code, body := rpc(t, base+ids[0], tok, "tools/call", `{"name":"file_write","arguments":{"path":"/o.txt","content":"o"}}`); code != 200 || strings.Contains(body, `"isError":true`) {
		t.Fatalf("JWT at its workspace: %d %.300s", code, body)
	}
	if code, _ := rpc(t, base+ids[1], tok, "tools/list", `{}`); code != 403 {
		t.Errorf("JWT at another workspace: %d", code)
	}
	own, _ := newToken(t, db, ids[1], llmfs.ReadOnly)
	if code, _ := rpc(t, base+ids[1], own, "tools/list", `{}`); code != 200 {
		t.Errorf("llmfs token beside OAuth: %d", code)
	}
	resp, err := http.Get(strings.TrimSuffix(base, "/mcp/") + "/.well-known/oauth-protected-resource")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), is.srv.URL) {
		t.Errorf("metadata: %d %s", resp.StatusCode, b)
	}
}
