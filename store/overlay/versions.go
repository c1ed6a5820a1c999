package overlay

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"

	"github.com/llmfs/llmfs/store"
)

// Versions: every pending change carries a version, a hash of its pending content and of
// the merge base it is reviewed against, so that a person's apply or discard acts on the
// change the person saw, not on whatever the agent wrote since.

// version returns the version of a pending change. Callers hold o.mu. The parts are
// hashed as they come, not gathered in a buffer first: a copy of each pending file, a
// buffer grown for each, was half the cost of the versions of 1,000 changes.
func (o *Overlay) version(p pending) string {
	basePath := p.Path
	if p.Kind == Moved {
		basePath = p.From
	}
	h := sha256.New()
	seen := o.st.Seen[basePath]
	if p.large != nil {
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00large\x00%s", p.Kind, p.From, seen, p.large.oldHash, p.large.newHash)
	} else {
		// A merge base is kept under the hash Seen records (mergebase.go): it is not
		// hashed again.
		oldHash := seen
		if !p.hasBase || !realHash(seen) {
			oldHash = store.Hash(p.old)
		}
		for _, part := range []string{string(p.Kind), p.From, seen, oldHash} {
			io.WriteString(h, part)
			h.Write([]byte{0})
		}
		h.Write(p.new)
	}
	var sum [sha256.Size]byte
	return hex.EncodeToString(h.Sum(sum[:0]))[:16]
}

// expect checks the versions a request names against the pending changes: a path with no
// pending change, or whose version moved, is [store.ErrChanged].
func expect(ps []pending, want map[string]string) error {
	for name, v := range want {
		found := false
		for _, p := range ps {
			if p.Path == name {
				found = true
				if p.Version != v {
					return fmt.Errorf("FILE_CHANGED: %s changed since version %s was shown (now %s); nothing applied or discarded: %w", name, v, p.Version, store.ErrChanged)
				}
			}
		}
		if !found {
			return fmt.Errorf("FILE_CHANGED: %s has no pending change at version %s any more; nothing applied or discarded: %w", name, v, store.ErrChanged)
		}
	}
	return nil
}

// callAs sets the actor of the apply or discard under way, and returns what unsets it.
// Callers hold o.mu.
func (o *Overlay) callAs(actor string) func() {
	o.callActor = actor
	return func() { o.callActor = "" }
}

// Rebase implements [store.Reviewable]: content becomes the pending version of name, and
// what the base holds now its merge base, if name's change is still at version.
func (o *Overlay) Rebase(ctx context.Context, name, version string, content []byte) (rerr error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.load(ctx); err != nil {
		return err
	}
	ps, err := o.pending(ctx, true)
	if err != nil {
		return err
	}
	if err := expect(ps, map[string]string{name: version}); err != nil {
		return err
	}
	for _, p := range ps {
		if p.Path == name && p.Kind != Modified && p.Kind != Created {
			return fmt.Errorf("%s: %s: only a modified or created file takes a version of its own: %w", name, p.Kind, fs.ErrInvalid)
		}
	}
	h, data, err := baseContent(ctx, o.base, name)
	if err != nil {
		return rename(err, name)
	}
	if realHash(h) && data != nil {
		if err := o.keepBase(ctx, h, data); err != nil {
			return err
		}
	}
	if _, err := o.upper.WriteFile(ctx, up(name), bytes.NewReader(content), store.WriteOptions{}); err != nil {
		return rename(err, name)
	}
	o.st.Seen[name] = h
	return o.save(ctx)
}
