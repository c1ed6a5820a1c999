//go:build js && wasm

package idb

import (
	"context"
	"errors"
	"io/fs"
	"sync"
	"syscall/js"

	"github.com/llmfs/llmfs/store"
)

// DOMError is a JavaScript exception or IndexedDB error, by its DOMException name. It
// unwraps to the store sentinel that matches the name, if any.
type DOMError struct {
	Name    string // "ConstraintError", "QuotaExceededError", "InvalidStateError", ...
	Message string
}

func (e *DOMError) Error() string { return "idb: " + e.Name + ": " + e.Message }

// Unwrap returns the sentinel the name maps to, or nil.
func (e *DOMError) Unwrap() error {
	switch e.Name {
	case "ConstraintError":
		return fs.ErrExist
	case "QuotaExceededError":
		return store.ErrQuota
	case "InvalidStateError":
		// The usual cause: the connection was closed (Close, or another tab upgrading).
		return fs.ErrClosed
	}
	return nil
}

// domError converts a thrown JavaScript value or a request's error to a *DOMError.
func domError(v js.Value) error {
	if v.Type() != js.TypeObject {
		return &DOMError{Name: "Error", Message: v.String()}
	}
	e := &DOMError{Name: "Error"}
	if n := v.Get("name"); n.Type() == js.TypeString {
		e.Name = n.String()
	}
	if m := v.Get("message"); m.Type() == js.TypeString {
		e.Message = m.String()
	}
	return e
}

// try runs f and turns a JavaScript exception thrown by a call in it into an error.
func try(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			je, ok := r.(js.Error)
			if !ok {
				panic(r)
			}
			err = domError(je.Value)
		}
	}()
	f()
	return nil
}

// A txn is one operation's IndexedDB transaction. Its requests are numbered; the store's
// event handler queues their events here and wakes the operation's goroutine, which is
// blocked in wait or commit and nowhere else (see the package documentation).
type txn struct {
	s        *Store
	id       int
	ctx      context.Context
	op, name string
	tx       js.Value

	mu    sync.Mutex // guards queue
	queue []event
	wake  chan struct{} // capacity 1: "the queue may have grown"

	// Touched only by the operation's goroutine.
	next     int              // number of the next request
	pending  map[int]bool     // requests not answered yet
	results  map[int]js.Value // answers of successful requests
	err      error            // the first failure, as an *fs.PathError
	finished bool             // complete or abort seen
	complete bool             // complete seen
}

type event struct {
	kind string // "success", "error", "complete", "abort"
	req  int
	val  js.Value // the result, or the error
}

// begin starts a transaction over stores in mode ("readonly" or "readwrite").
func (s *Store) begin(ctx context.Context, op, name, mode string, stores ...string) (*txn, error) {
	if err := ctx.Err(); err != nil {
		return nil, pathErr(op, name, err)
	}
	t := &txn{s: s, ctx: ctx, op: op, name: name, wake: make(chan struct{}, 1),
		pending: map[int]bool{}, results: map[int]js.Value{}}
	names := make([]any, len(stores))
	for i, st := range stores {
		names[i] = st
	}
	if err := try(func() { t.tx = s.db.Call("transaction", names, mode) }); err != nil {
		return nil, pathErr(op, name, err)
	}
	s.mu.Lock()
	s.lastID++
	t.id = s.lastID
	s.txns[t.id] = t
	s.mu.Unlock()
	t.tx.Set("llmfsTx", t.id)
	t.tx.Set("oncomplete", s.handler)
	t.tx.Set("onabort", s.handler)
	return t, nil
}

// handle is the one event handler of the store. It runs inside the event dispatch and
// never blocks: it queues the event for its transaction and wakes the waiting goroutine,
// which the Go runtime runs before returning to JavaScript, while the transaction is
// still active.
func (s *Store) handle(this js.Value, args []js.Value) any {
	if len(args) == 0 {
		return nil
	}
	ev := args[0]
	target := ev.Get("target")
	txID := target.Get("llmfsTx")
	if txID.Type() != js.TypeNumber {
		return nil
	}
	s.mu.Lock()
	t := s.txns[txID.Int()]
	s.mu.Unlock()
	if t == nil {
		return nil // a read-only transaction whose operation already returned
	}
	e := event{kind: ev.Get("type").String()}
	switch e.kind {
	case "success":
		e.req = target.Get("llmfsReq").Int()
		e.val = target.Get("result")
	case "error":
		e.req = target.Get("llmfsReq").Int()
		e.val = target.Get("error")
	case "abort":
		e.val = target.Get("error")
	}
	t.mu.Lock()
	t.queue = append(t.queue, e)
	t.mu.Unlock()
	select {
	case t.wake <- struct{}{}:
	default:
	}
	return nil
}

// request calls method on object store st with args, and returns the request's number.
// A synchronous exception is recorded as the transaction's failure.
func (t *txn) request(st, method string, args ...any) int {
	return t.issue(func() js.Value { return t.tx.Call("objectStore", st).Call(method, args...) })
}

// indexRequest calls method on index ix of object store st.
func (t *txn) indexRequest(st, ix, method string, args ...any) int {
	return t.issue(func() js.Value { return t.tx.Call("objectStore", st).Call("index", ix).Call(method, args...) })
}

func (t *txn) issue(call func() js.Value) int {
	id := t.next
	t.next++
	if t.err != nil {
		return id // the operation already failed; it will see t.err
	}
	err := try(func() {
		req := call()
		req.Set("llmfsTx", t.id)
		req.Set("llmfsReq", id)
		req.Set("onsuccess", t.s.handler)
		req.Set("onerror", t.s.handler)
	})
	if err != nil {
		t.setErr(err)
		return id
	}
	t.pending[id] = true
	return id
}

func (t *txn) setErr(err error) {
	if t.err == nil {
		t.err = pathErr(t.op, t.name, err)
	}
}

// drain applies the queued events.
func (t *txn) drain() {
	t.mu.Lock()
	q := t.queue
	t.queue = nil
	t.mu.Unlock()
	for _, e := range q {
		switch e.kind {
		case "success":
			delete(t.pending, e.req)
			t.results[e.req] = e.val
		case "error":
			delete(t.pending, e.req)
			t.setErr(domError(e.val))
		case "complete":
			t.finished, t.complete = true, true
		case "abort":
			t.finished = true
			if e.val.Type() == js.TypeObject {
				t.setErr(domError(e.val))
			} else {
				t.setErr(errors.New("idb: transaction aborted"))
			}
		}
	}
}

// wait blocks until every request issued so far is answered, one failed, or the context
// ends. It waits on this transaction's events only.
func (t *txn) wait() (map[int]js.Value, error) {
	for {
		t.drain()
		if t.err != nil {
			return nil, t.err
		}
		if len(t.pending) == 0 {
			return t.results, nil
		}
		if t.finished {
			return nil, pathErr(t.op, t.name, errors.New("idb: transaction ended with requests unanswered"))
		}
		select {
		case <-t.wake:
		case <-t.ctx.Done():
			return nil, pathErr(t.op, t.name, t.ctx.Err())
		}
	}
}

// commit waits for the transaction to complete, which is when its writes are done. If
// it aborts instead (a failed request, a QuotaExceededError at commit), nothing was
// written and the error says why.
func (t *txn) commit() error {
	defer t.forget()
	if t.err != nil {
		t.abort()
		return t.err
	}
	if t.tx.Get("commit").Type() == js.TypeFunction {
		// No more requests: say so, rather than wait for the end of the task.
		try(func() { t.tx.Call("commit") })
	}
	for {
		t.drain()
		if t.finished {
			if t.complete {
				return nil
			}
			return t.err
		}
		select {
		case <-t.wake:
		case <-t.ctx.Done():
			if t.abort() {
				return pathErr(t.op, t.name, t.ctx.Err())
			}
			// Too late to abort: the outcome is on its way; report it.
			t.ctx = context.Background()
		}
	}
}

// end finishes a read-only transaction whose answers are all in: it commits on its own.
func (t *txn) end() error {
	t.forget()
	return nil
}

// fail aborts the transaction (nothing it did is kept) and returns err.
func (t *txn) fail(err error) error {
	t.abort()
	t.forget()
	return err
}

// abort aborts the transaction unless it has finished, and reports whether it did.
func (t *txn) abort() bool {
	if t.finished {
		return false
	}
	return try(func() { t.tx.Call("abort") }) == nil
}

// forget stops routing the transaction's events; any still to come are dropped.
func (t *txn) forget() {
	t.s.mu.Lock()
	delete(t.s.txns, t.id)
	t.s.mu.Unlock()
}
