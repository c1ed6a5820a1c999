//go:build !js && !wasip1

package main

import (
	"context"
	"log/slog"
	"time"

	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// serve --gc-every D runs the garbage collection of 'llmfs ws gc' (with --gc-grace) every D
// in the background, on a database connection of its own, until the server stops.

// startGC starts the background collection when every > 0 and returns the function that
// stops it and waits for it. It needs --store and --blobs.
func startGC(ctx context.Context, w *wsFlags, every, grace time.Duration, logger *slog.Logger) (stop func(), err error) {
	if every == 0 {
		return func() {}, nil
	}
	switch {
	case every < 0:
		return nil, usagef("--gc-every %v: want a duration above 0", every)
	case grace < 0:
		return nil, usagef("--gc-grace %v: want a duration of 0 or more", grace)
	case w.storeDSN == "" || w.blobs == "":
		return nil, usagef("--gc-every collects the objects of --blobs URL: give --store and --blobs")
	}
	db, err := existingDB(withBlobs(ctx, w.blobs), w.storeDSN)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		db.CollectEvery(ctx, every, grace, func(st sqlstore.GCStats, err error) {
			if err != nil {
				logger.Warn("garbage collection", "err", err)
				return
			}
			logger.Info("garbage collection", "objects", st.Objects, "old", st.Old, "deleted", st.Deleted, "bytes", st.Bytes)
		})
	}()
	return func() {
		cancel()
		<-done
		db.Close()
	}, nil
}
