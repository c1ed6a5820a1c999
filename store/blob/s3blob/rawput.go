package s3blob

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/llmfs/llmfs/store/blob"
)

// Puts without the SDK (issue 38), as gets (rawget.go): an import with --blobs puts about
// 1,100 chunks of the Go tree, and the SDK's operation stack (serializers, endpoint
// resolution, retry and checksum wrappers, and a SHA-256 of each body to sign it) was a
// sixth of the import's CPU. A chunk's key is the SHA-256 of its content already: that is
// the payload hash signed, and a server that checks payloads (as S3 and versitygw do)
// refuses a body that is not the content its key names.

// put puts data at key (the whole prefixed key) unless an object is there, and says
// whether it put it. A failure the server may get over is tried again, as get does; a put
// whose response was lost and that was tried again finds the object there, which is what
// put reports then too.
func (g *rawGetter) put(ctx context.Context, key string, data []byte) (bool, error) {
	var sum string
	if i := strings.LastIndex(key, blob.ChunkPrefix); i >= 0 {
		sum = blob.SumOf(key[i:])
	}
	if sum == "" {
		s := sha256.Sum256(data)
		sum = hex.EncodeToString(s[:])
	}
	for attempt := 1; ; attempt++ {
		created, err := g.put1(ctx, key, sum, data)
		if err == nil || attempt == maxAttempts || !transient(err) || ctx.Err() != nil {
			return created, err
		}
		d := min(maxBackoff, 50*time.Millisecond<<attempt)
		d = d/2 + rand.N(d/2+1)
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return false, err
		}
	}
}

func (g *rawGetter) put1(ctx context.Context, key, sum string, data []byte) (bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, g.url(key), bytes.NewReader(data))
	if err != nil {
		return false, err
	}
	req.Header.Set("If-None-Match", "*")
	resp, err := g.send(ctx, req, sum)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // keep the connection
	switch resp.StatusCode {
	case http.StatusOK:
		return true, nil
	case http.StatusPreconditionFailed, http.StatusConflict:
		// There already (409: a concurrent conditional put of the same key won).
		return false, nil
	}
	return false, &statusError{code: resp.StatusCode, msg: strings.TrimSpace(string(msg))}
}
