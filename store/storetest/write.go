package storetest

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"

	"github.com/llmfs/llmfs/store"
)

// The conformance tests of WriteFile and its options.

func testWriteReplace(e *env) {
	n, err := e.s.WriteFile(ctx, "f", strings.NewReader("first"), store.WriteOptions{Mode: store.Replace})
	e.noErr("WriteFile(f)", err)
	if n != 5 {
		e.t.Errorf("WriteFile(f) = %d, want 5", n)
	}
	n, err = e.s.WriteFile(ctx, "f", strings.NewReader("2nd"), store.WriteOptions{Mode: store.Replace})
	e.noErr("WriteFile(f) again", err)
	if n != 3 {
		e.t.Errorf("WriteFile(f) again = %d, want 3", n)
	}
	if got := e.read("f"); got != "2nd" {
		e.t.Errorf("after replace: %q, want %q", got, "2nd")
	}
	e.write("f", "")
	if got := e.read("f"); got != "" {
		e.t.Errorf("after replace with nothing: %q", got)
	}
	// No temporary files may be left behind.
	e.sameTree("the replaces", map[string]string{"f": ""})
	e.mkdir("d")
	before := e.snapshot()
	_, err = e.s.WriteFile(ctx, "d", strings.NewReader("x"), store.WriteOptions{})
	e.wantErr("WriteFile(d), a directory", err, store.ErrIsDir)
	_, err = e.s.WriteFile(ctx, ".", strings.NewReader("x"), store.WriteOptions{})
	if err == nil {
		e.t.Errorf("WriteFile(.) succeeded")
	}
	e.sameTree("writes to directories", before)
}

// testWriteReplaceAtomic checks that a reader never sees a mix of old and new content.
func testWriteReplaceAtomic(e *env) {
	const size = 64 << 10
	contents := []string{strings.Repeat("a", size), strings.Repeat("b", size/2)}
	e.write("f", contents[0])
	done := make(chan struct{})
	errc := make(chan error, 1)
	go func() {
		defer close(errc)
		for {
			select {
			case <-done:
				return
			default:
			}
			got, err := readFile(e.s, "f")
			if err != nil {
				errc <- err
				return
			}
			if got != contents[0] && got != contents[1] {
				errc <- errors.New("a reader saw a torn file: " + got[:min(len(got), 20)] + "... of length " + strconv.Itoa(len(got)))
				return
			}
		}
	}()
	for i := range 40 {
		e.write("f", contents[i%2])
	}
	close(done)
	if err := <-errc; err != nil {
		e.t.Error(err)
	}
}

// testWriteAppendAtomic checks that an append is atomic too (issue 12.3: store/osdir
// appended in place): a reader sees the file before an append or after it, never a part of
// it, and an append whose reader fails leaves the file and its directory as they were.
func testWriteAppendAtomic(e *env) {
	const chunk = 64 << 10
	opts := store.WriteOptions{Mode: store.Append}
	e.write("f", "")
	done := make(chan struct{})
	errc := make(chan error, 1)
	go func() {
		defer close(errc)
		for {
			select {
			case <-done:
				return
			default:
			}
			got, err := readFile(e.s, "f")
			if err != nil {
				errc <- err
				return
			}
			if len(got)%chunk != 0 {
				errc <- errors.New("a reader saw a partial append: length " + strconv.Itoa(len(got)))
				return
			}
		}
	}()
	for i := range 20 {
		_, err := e.s.WriteFile(ctx, "f", strings.NewReader(strings.Repeat(string(rune('a'+i)), chunk)), opts)
		e.noErr("append", err)
	}
	close(done)
	if err := <-errc; err != nil {
		e.t.Error(err)
	}
	before := e.snapshot()
	_, err := e.s.WriteFile(ctx, "f", &errReader{n: chunk / 2}, opts)
	e.wantErr("append from a failing reader", err, errBroken)
	e.sameTree("a failed append", before)
}

func testWriteAppend(e *env) {
	opts := store.WriteOptions{Mode: store.Append}
	n, err := e.s.WriteFile(ctx, "log", strings.NewReader("one\n"), opts)
	e.noErr("append to a missing file", err)
	if n != 4 {
		e.t.Errorf("append = %d bytes, want 4", n)
	}
	_, err = e.s.WriteFile(ctx, "log", strings.NewReader("two\n"), opts)
	e.noErr("append", err)
	_, err = e.s.WriteFile(ctx, "log", strings.NewReader(""), opts)
	e.noErr("append nothing", err)
	if got := e.read("log"); got != "one\ntwo\n" {
		e.t.Errorf("after appends: %q", got)
	}
	e.mkdir("d")
	_, err = e.s.WriteFile(ctx, "d", strings.NewReader("x"), opts)
	e.wantErr("append to a directory", err, store.ErrIsDir)
	_, err = e.s.WriteFile(ctx, "missing/log", strings.NewReader("x"), opts)
	e.wantErr("append below a missing directory", err, fs.ErrNotExist)
}

func testWriteExclusive(e *env) {
	opts := store.WriteOptions{Mode: store.Exclusive}
	_, err := e.s.WriteFile(ctx, "f", strings.NewReader("new"), opts)
	e.noErr("exclusive create", err)
	_, err = e.s.WriteFile(ctx, "f", strings.NewReader("clobber"), opts)
	e.wantErr("exclusive create of an existing file", err, fs.ErrExist)
	if got := e.read("f"); got != "new" {
		e.t.Errorf("after a refused exclusive write: %q", got)
	}
	e.mkdir("d")
	before := e.snapshot()
	_, err = e.s.WriteFile(ctx, "d", strings.NewReader("x"), opts)
	if err == nil {
		e.t.Errorf("exclusive write over a directory succeeded")
	}
	e.sameTree("refused exclusive writes", before)
}

func testWriteIfMatch(e *env) {
	e.write("f", "v1")
	h1 := store.Hash([]byte("v1"))
	_, err := e.s.WriteFile(ctx, "f", strings.NewReader("v2"), store.WriteOptions{IfMatch: h1})
	e.noErr("write if v1", err)
	if got := e.read("f"); got != "v2" {
		e.t.Errorf("after a matching conditional write: %q", got)
	}
	_, err = e.s.WriteFile(ctx, "f", strings.NewReader("v3"), store.WriteOptions{IfMatch: h1})
	e.wantErr("write if v1, now v2", err, store.ErrChanged)
	if got := e.read("f"); got != "v2" {
		e.t.Errorf("after a refused conditional write: %q", got)
	}
	_, err = e.s.WriteFile(ctx, "f", strings.NewReader("+"), store.WriteOptions{Mode: store.Append, IfMatch: h1})
	e.wantErr("append if v1, now v2", err, store.ErrChanged)
	_, err = e.s.WriteFile(ctx, "f", strings.NewReader("+"), store.WriteOptions{Mode: store.Append, IfMatch: store.Hash([]byte("v2"))})
	e.noErr("append if v2", err)
	if got := e.read("f"); got != "v2+" {
		e.t.Errorf("after a matching conditional append: %q", got)
	}
	before := e.snapshot()
	_, err = e.s.WriteFile(ctx, "gone", strings.NewReader("x"), store.WriteOptions{IfMatch: h1})
	e.wantErr("write if v1 to a missing file", err, store.ErrChanged)
	_, err = e.s.WriteFile(ctx, "gone", strings.NewReader("x"), store.WriteOptions{Mode: store.Append, IfMatch: h1})
	e.wantErr("append if v1 to a missing file", err, store.ErrChanged)
	e.sameTree("conditional writes to a missing file", before)
}

func testWriteIfAbsent(e *env) {
	opts := store.WriteOptions{IfAbsent: true}
	_, err := e.s.WriteFile(ctx, "f", strings.NewReader("first"), opts)
	e.noErr("write if absent", err)
	_, err = e.s.WriteFile(ctx, "f", strings.NewReader("second"), opts)
	e.wantErr("write if absent, present", err, store.ErrChanged)
	if got := e.read("f"); got != "first" {
		e.t.Errorf("after a refused write-if-absent: %q", got)
	}
	// Other modes ignore IfAbsent.
	_, err = e.s.WriteFile(ctx, "f", strings.NewReader("+"), store.WriteOptions{Mode: store.Append, IfAbsent: true})
	e.noErr("append with IfAbsent", err)
	if got := e.read("f"); got != "first+" {
		e.t.Errorf("after an append with IfAbsent: %q", got)
	}
}

func testWriteParents(e *env) {
	e.write("file", "x")
	before := e.snapshot()
	for _, mode := range []store.WriteMode{store.Replace, store.Append, store.Exclusive} {
		_, err := e.s.WriteFile(ctx, "missing/f", strings.NewReader("x"), store.WriteOptions{Mode: mode})
		e.wantErr("write below a missing directory", err, fs.ErrNotExist)
		_, err = e.s.WriteFile(ctx, "missing/deeper/f", strings.NewReader("x"), store.WriteOptions{Mode: mode})
		e.wantErr("write two levels below a missing directory", err, fs.ErrNotExist)
		_, err = e.s.WriteFile(ctx, "file/f", strings.NewReader("x"), store.WriteOptions{Mode: mode})
		e.wantErr("write below a file", err, store.ErrNotDir)
		_, err = e.s.WriteFile(ctx, "file/sub/f", strings.NewReader("x"), store.WriteOptions{Mode: mode})
		e.wantErr("write two levels below a file", err, store.ErrNotDir)
	}
	e.sameTree("writes with bad parents", before)
}

// testWriteFailingReader checks that a write whose reader fails leaves the file as it was
// and no temporary file behind.
func testWriteFailingReader(e *env) {
	e.write("f", "old")
	before := e.snapshot()
	for _, mode := range []store.WriteMode{store.Replace, store.Append, store.Exclusive} {
		_, err := e.s.WriteFile(ctx, "f", &errReader{n: 100}, store.WriteOptions{Mode: mode})
		if err == nil {
			e.t.Errorf("mode %d: a write from a failing reader succeeded", mode)
		}
		_, err = e.s.WriteFile(ctx, "new", &errReader{n: 100}, store.WriteOptions{Mode: mode})
		if err == nil {
			e.t.Errorf("mode %d: a new file from a failing reader succeeded", mode)
		}
	}
	e.sameTree("writes from failing readers", before)
}
