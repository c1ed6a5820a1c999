//go:build linux

package mount

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/hanwen/go-fuse/v2/fuse"
)

// Attribution: each change is journaled as made by the process that made it, as the kernel
// names it in the FUSE request: actor "mount:<pid>:<command name>". Under 'llmfs run'
// every change is the run's, and Options.Actor names it.

// actor returns who is making the request in ctx.
func (m *fuseFS) actor(ctx context.Context) string {
	if m.opts.Actor != "" {
		return m.opts.Actor
	}
	c, ok := fuse.FromContext(ctx)
	if !ok {
		return "mount"
	}
	a := fmt.Sprintf("mount:%d:%s", c.Pid, comm(c.Pid))
	m.seen(c.Pid, a)
	return a
}

// seen logs the full command line of a process the first time it changes something: the
// journal's actor names the command, the log says how it was called.
func (m *fuseFS) seen(pid uint32, actor string) {
	m.pmu.Lock()
	ok := m.pids[pid] == actor
	if !ok {
		m.pids[pid] = actor
	}
	m.pmu.Unlock()
	if !ok {
		m.logf("llmfs mount: %s is: %s", actor, CommandLine(pid))
	}
}

// comm is the command name of process pid (/proc/PID/comm), or "?" when it is gone.
func comm(pid uint32) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(b))
}

// CommandLine is the command line of process pid as /proc/PID/cmdline gives it, its
// arguments joined by spaces, or "" when the OS does not tell.
func CommandLine(pid uint32) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(bytes.ReplaceAll(b, []byte{0}, []byte{' '})))
}
