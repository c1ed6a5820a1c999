// Package s3blob keeps llmfs content in S3-compatible object storage (AWS S3, MinIO,
// versitygw, R2 ...): a [blob.Store] opened from a URL
//
//	s3://BUCKET[/PREFIX]?endpoint=URL&region=R
//
// Credentials come from the standard AWS_* environment variables or the AWS config and
// credentials files, never from the URL. With an endpoint, requests use path-style URLs
// (http://host/bucket/key), which every S3-compatible server understands.
package s3blob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"

	"github.com/llmfs/llmfs/store/blob"
)

// Bounds on a request: how often it is tried (with exponential backoff and jitter in
// between, the SDK's standard retryer) and how long each operation may take in all, so a
// store that is down or slow fails a write within a bound instead of hanging it.
const (
	maxAttempts = 4
	maxBackoff  = 2 * time.Second
	opTimeout   = 60 * time.Second
)

// Store is a [blob.Store] in one bucket, under one key prefix.
type Store struct {
	c       *s3.Client
	bucket  string
	prefix  string // "" or ending in "/"
	timeout time.Duration
	raw     *rawGetter // gets and puts without the SDK, when an endpoint is set (rawget.go)
}

var _ blob.Store = (*Store)(nil)

// Open returns the store that rawURL names (see the package doc). Query parameters:
// endpoint (the server's URL; default AWS), region (default $AWS_REGION, else us-east-1),
// timeout (a Go duration bounding each operation, retries included; default 60s).
func Open(ctx context.Context, rawURL string) (*Store, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme != "s3" || u.Host == "" {
		return nil, fmt.Errorf("blobs %q: want s3://BUCKET[/PREFIX]?endpoint=URL&region=R", rawURL)
	}
	if u.User != nil {
		return nil, fmt.Errorf("blobs %q: credentials do not go in the URL: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY or use the AWS config files", u.Redacted())
	}
	q := u.Query()
	for k := range q {
		switch k {
		case "endpoint", "region", "timeout":
		default:
			return nil, fmt.Errorf("blobs %q: unknown parameter %q (want endpoint, region, timeout)", rawURL, k)
		}
	}
	s := &Store{bucket: u.Host, prefix: strings.Trim(u.Path, "/"), timeout: opTimeout}
	if s.prefix != "" {
		s.prefix += "/"
	}
	if t := q.Get("timeout"); t != "" {
		if s.timeout, err = time.ParseDuration(t); err != nil || s.timeout <= 0 {
			return nil, fmt.Errorf("blobs %q: timeout %q is not a positive duration", rawURL, t)
		}
	}
	hc := httpClient()
	opts := []func(*config.LoadOptions) error{
		config.WithHTTPClient(hc),
		config.WithRetryer(func() aws.Retryer {
			return retry.NewStandard(func(o *retry.StandardOptions) {
				o.MaxAttempts = maxAttempts
				o.MaxBackoff = maxBackoff
			})
		}),
	}
	if r := q.Get("region"); r != "" {
		opts = append(opts, config.WithRegion(r))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("blobs %q: %w", rawURL, err)
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1"
	}
	endpoint := q.Get("endpoint")
	if endpoint != "" {
		if e, err := url.Parse(endpoint); err != nil || (e.Scheme != "http" && e.Scheme != "https") || e.Host == "" {
			return nil, fmt.Errorf("blobs %q: endpoint %q is not an http(s) URL", rawURL, endpoint)
		}
	}
	s.raw = newRawGetter(hc, endpoint, s.bucket, cfg)
	s.c = s3.NewFromConfig(cfg, func(o *s3.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
			o.UsePathStyle = true
		}
		// Checksums only where the API requires them: S3-compatible servers vary in
		// what they accept, and every object is checked against its own hash anyway.
		o.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
		o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
	})
	return s, nil
}

// idleConns is how many idle connections to the object store are kept for reuse. The
// SDK's default, 10, is fewer than the requests a server's readers (16 clients grepping,
// each reading ahead) have in flight: every request past it dialed a connection of its own,
// and a grep of the Go tree spent 15% of its CPU dialing (800 connections for 1,000 chunks).
const idleConns = 256

// httpClient returns the SDK's HTTP client with idleConns idle connections kept.
func httpClient() *awshttp.BuildableClient {
	return awshttp.NewBuildableClient().WithTransportOptions(func(t *http.Transport) {
		t.MaxIdleConns = idleConns
		t.MaxIdleConnsPerHost = idleConns
	})
}

// NewFromClient returns a store over a client the caller configured.
func NewFromClient(c *s3.Client, bucket, prefix string) *Store {
	prefix = strings.Trim(prefix, "/")
	if prefix != "" {
		prefix += "/"
	}
	return &Store{c: c, bucket: bucket, prefix: prefix, timeout: opTimeout}
}

func (s *Store) op(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.timeout)
}

// PutIfAbsent implements [blob.Store] with If-None-Match: *.
func (s *Store) PutIfAbsent(ctx context.Context, key string, data []byte) (bool, error) {
	ctx, cancel := s.op(ctx)
	defer cancel()
	if s.raw != nil {
		created, err := s.raw.put(ctx, s.prefix+key, data)
		if err != nil {
			return false, s.fail("put", key, err)
		}
		return created, nil
	}
	_, err := s.c.PutObject(ctx, &s3.PutObjectInput{
		Bucket:        aws.String(s.bucket),
		Key:           aws.String(s.prefix + key),
		Body:          bytes.NewReader(data),
		ContentLength: aws.Int64(int64(len(data))),
		IfNoneMatch:   aws.String("*"),
	})
	if err == nil {
		return true, nil
	}
	switch status(err) {
	case http.StatusPreconditionFailed, http.StatusConflict:
		// There already (409: a concurrent conditional put of the same key won).
		return false, nil
	}
	return false, s.fail("put", key, err)
}

func (s *Store) Get(ctx context.Context, key string) ([]byte, error) {
	return s.get(ctx, key, "")
}

func (s *Store) GetRange(ctx context.Context, key string, off, n int64) ([]byte, error) {
	if n <= 0 {
		return []byte{}, nil
	}
	return s.get(ctx, key, "bytes="+strconv.FormatInt(off, 10)+"-"+strconv.FormatInt(off+n-1, 10))
}

func (s *Store) get(ctx context.Context, key, rng string) ([]byte, error) {
	ctx, cancel := s.op(ctx)
	defer cancel()
	if s.raw != nil {
		data, err := s.raw.get(ctx, s.prefix+key, rng)
		if err != nil {
			if status(err) == http.StatusRequestedRangeNotSatisfiable {
				return []byte{}, nil
			}
			return nil, s.fail("get", key, err)
		}
		return data, nil
	}
	in := &s3.GetObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(s.prefix + key)}
	if rng != "" {
		in.Range = aws.String(rng)
	}
	out, err := s.c.GetObject(ctx, in)
	if err != nil {
		if status(err) == http.StatusRequestedRangeNotSatisfiable {
			return []byte{}, nil
		}
		return nil, s.fail("get", key, err)
	}
	defer out.Body.Close()
	var buf bytes.Buffer
	if out.ContentLength != nil && *out.ContentLength > 0 {
		buf.Grow(int(*out.ContentLength))
	}
	if _, err := io.Copy(&buf, out.Body); err != nil {
		return nil, s.fail("get", key, err)
	}
	return buf.Bytes(), nil
}

func (s *Store) Delete(ctx context.Context, key string) error {
	ctx, cancel := s.op(ctx)
	defer cancel()
	_, err := s.c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(s.prefix + key)})
	if err != nil && status(err) != http.StatusNotFound {
		return s.fail("delete", key, err)
	}
	return nil
}

func (s *Store) List(ctx context.Context, prefix string, fn func(blob.Object) error) error {
	p := s3.NewListObjectsV2Paginator(s.c, &s3.ListObjectsV2Input{
		Bucket: aws.String(s.bucket),
		Prefix: aws.String(s.prefix + prefix),
	})
	for p.HasMorePages() {
		octx, cancel := s.op(ctx)
		page, err := p.NextPage(octx)
		cancel()
		if err != nil {
			return s.fail("list", prefix, err)
		}
		for _, o := range page.Contents {
			obj := blob.Object{Key: strings.TrimPrefix(aws.ToString(o.Key), s.prefix), Size: aws.ToInt64(o.Size)}
			if o.LastModified != nil {
				obj.Modified = *o.LastModified
			}
			if err := fn(obj); err != nil {
				return err
			}
		}
	}
	return nil
}

// fail wraps err with the operation and the object's place; a missing object or bucket
// wraps fs.ErrNotExist.
func (s *Store) fail(op, key string, err error) error {
	var nsk *types.NoSuchKey
	if errors.As(err, &nsk) || status(err) == http.StatusNotFound {
		err = fmt.Errorf("%w (%v)", fs.ErrNotExist, err)
	}
	return &fs.PathError{Op: "s3 " + op, Path: "s3://" + s.bucket + "/" + s.prefix + key, Err: err}
}

// status returns the HTTP status of an S3 error response, or 0.
func status(err error) int {
	var re interface{ HTTPStatusCode() int }
	if errors.As(err, &re) {
		return re.HTTPStatusCode()
	}
	var ae smithy.APIError
	if errors.As(err, &ae) && ae.ErrorCode() == "PreconditionFailed" {
		return http.StatusPreconditionFailed
	}
	return 0
}
