package s3blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// A rawGetter reads objects from a server named by an endpoint with plain signed HTTP
// requests, not through the SDK's operation stack: a grep reads about 1,000 chunks of the
// Go tree, one GET each, and the SDK's middleware (serializers, endpoint resolution,
// user agent, retry and checksum wrappers) cost more CPU per GET than the request itself
// (a 64 KiB GET from versitygw: about 490-560 µs CPU through the SDK, 310-390 µs signed
// by hand, load 15). Puts go the same way (rawput.go); deletes and listings keep the SDK.
type rawGetter struct {
	hc     doer   // the SDK's client: one pool of connections for both
	base   string // endpoint, path style: "http://host:port/bucket/"
	creds  aws.CredentialsProvider
	region string
	signer *v4.Signer
}

// newRawGetter returns the getter for bucket at endpoint, or nil when there are no
// credentials to sign with (the SDK then says why).
func newRawGetter(hc doer, endpoint, bucket string, cfg aws.Config) *rawGetter {
	if cfg.Credentials == nil || endpoint == "" {
		return nil
	}
	return &rawGetter{
		hc:     hc,
		base:   strings.TrimRight(endpoint, "/") + "/" + url.PathEscape(bucket) + "/",
		creds:  cfg.Credentials,
		region: cfg.Region,
		// S3 signs the path as sent, not escaped a second time.
		signer: v4.NewSigner(func(o *v4.SignerOptions) { o.DisableURIPathEscaping = true }),
	}
}

type doer interface {
	Do(*http.Request) (*http.Response, error)
}

// statusError is a response other than 200 or 206: its status, as the SDK's errors carry
// it (see status).
type statusError struct {
	code int
	msg  string
}

func (e *statusError) Error() string       { return fmt.Sprintf("HTTP %d: %s", e.code, e.msg) }
func (e *statusError) HTTPStatusCode() int { return e.code }

// get returns the object at key (the whole prefixed key), or the bytes rng names ("" for
// all). A failure the server may get over (a connection error, 429, 5xx) is tried again,
// as the SDK's standard retryer does: maxAttempts in all, with jittered exponential
// backoff up to maxBackoff.
func (g *rawGetter) get(ctx context.Context, key, rng string) ([]byte, error) {
	for attempt := 1; ; attempt++ {
		data, err := g.get1(ctx, key, rng)
		if err == nil || attempt == maxAttempts || !transient(err) || ctx.Err() != nil {
			return data, err
		}
		d := min(maxBackoff, 50*time.Millisecond<<attempt)
		d = d/2 + rand.N(d/2+1)
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return nil, err
		}
	}
}

func transient(err error) bool {
	var se *statusError
	if errors.As(err, &se) {
		return se.code == http.StatusTooManyRequests || se.code >= 500
	}
	return !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

func (g *rawGetter) get1(ctx context.Context, key, rng string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, g.url(key), nil)
	if err != nil {
		return nil, err
	}
	if rng != "" {
		req.Header.Set("Range", rng)
	}
	resp, err := g.send(ctx, req, "UNSIGNED-PAYLOAD") // a GET has no body
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusPartialContent {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // keep the connection
		return nil, &statusError{code: resp.StatusCode, msg: strings.TrimSpace(string(msg))}
	}
	return readBody(resp.Body, resp.ContentLength)
}

// url returns the URL of the object at key (the whole prefixed key).
// send signs req (Signature Version 4, with payload as its payload's hash) and sends it.
func (g *rawGetter) send(ctx context.Context, req *http.Request, payload string) (*http.Response, error) {
	req.Header.Set("X-Amz-Content-Sha256", payload)
	creds, err := g.creds.Retrieve(ctx)
	if err != nil {
		return nil, err
	}
	if err := g.signer.SignHTTP(ctx, creds, req, payload, "s3", g.region, time.Now()); err != nil {
		return nil, err
	}
	return g.hc.Do(req)
}

func (g *rawGetter) url(key string) string {
	segs := strings.Split(key, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return g.base + strings.Join(segs, "/")
}

// readBody reads a response body of n bytes (-1: unknown) into one allocation of its size.
func readBody(r io.Reader, n int64) ([]byte, error) {
	if n < 0 || n > 1<<30 {
		return io.ReadAll(r)
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, err
	}
	return buf, nil
}
