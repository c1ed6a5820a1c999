//go:build !js && !wasip1

package main

import (
	"context"
	"fmt"
	"time"

	"github.com/llmfs/llmfs/store/blob/s3blob"
	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// --blobs s3://BUCKET[/PREFIX]?endpoint=URL&region=R keeps the full chunks of a database
// workspace's content in S3-compatible object storage (package store/blob/s3blob) instead
// of the database. Every command that takes --store takes it; the URL travels in the
// context from the flag to where the database is opened (connect, openWorkspaceStoreAs).

const blobsUsage = "keep file content in S3-compatible object storage at `URL` (s3://BUCKET[/PREFIX]?endpoint=URL&region=R; credentials from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY or the AWS config files); every process sharing --store must give the same"

type blobsKey struct{}

// withBlobs returns ctx carrying the --blobs URL, if any.
func withBlobs(ctx context.Context, url string) context.Context {
	if url == "" {
		return ctx
	}
	return context.WithValue(ctx, blobsKey{}, url)
}

// attachBlobs sets the object store of ctx's --blobs URL on db.
func attachBlobs(ctx context.Context, db *sqlstore.DB) error {
	url, _ := ctx.Value(blobsKey{}).(string)
	if url == "" {
		return nil
	}
	b, err := s3blob.Open(ctx, url)
	if err != nil {
		return usagef("--blobs: %v", err)
	}
	db.SetBlobs(b)
	return nil
}

// wsGC deletes the objects of --blobs that no workspace of the database refers to and that
// are older than grace.
func wsGC(ctx context.Context, e *env, dsn string, grace time.Duration) error {
	if _, ok := ctx.Value(blobsKey{}).(string); !ok {
		return usagef("ws gc collects the objects of --blobs URL: give it")
	}
	if grace < 0 {
		return usagef("--grace %v: want a duration of 0 or more", grace)
	}
	db, err := existingDB(ctx, dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	st, err := db.CollectGarbage(ctx, grace)
	if err != nil {
		return fmt.Errorf("ws gc: %w", err)
	}
	fmt.Fprintf(e.stdout, "%d objects, %d older than %v, %d deleted (%d bytes)\n", st.Objects, st.Old, grace, st.Deleted, st.Bytes)
	return nil
}
