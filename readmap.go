package llmfs

import (
	"context"
	"io"
	"runtime/debug"
)

// scanMapped is [Workspace.scanLines] over the rest of the file from m (see
// readmap_linux.go), with faults caught: should the file shrink while mapped, the read
// fails with [CodeFileChanged] instead of the process dying of SIGBUS. It unmaps m.
func (w *Workspace) scanMapped(ctx context.Context, m *mappedFile, opts ReadOptions, h io.Writer, buf []byte, n int, rerr error, from scanStart) (res *ReadResult, err error) {
	defer m.close()
	defer m.recoverFault(&res, &err)
	// Set on this goroutine only, for as long as it scans.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	res, err = w.scanLines(ctx, nil, m, opts, h, buf, n, rerr, from)
	if err == nil && m.shrunk() {
		return nil, errShrunk()
	}
	return res, err
}

func errShrunk() error {
	return errorf(CodeFileChanged, "", "the file shrank while it was read (another process truncated it); read it again: %%PATH%%")
}

// recoverFault, deferred, turns a memory fault in m's window into a coded error; any
// other panic goes on.
func (m *mappedFile) recoverFault(res **ReadResult, err *error) {
	r := recover()
	if r == nil {
		return
	}
	if f, ok := r.(interface{ Addr() uintptr }); ok && m.inWindow(f.Addr()) {
		*res, *err = nil, errShrunk()
		return
	}
	panic(r)
}
