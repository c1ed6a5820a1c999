//go:build js && wasm

package main

import (
	"context"
	"errors"
	"fmt"
	"syscall/js"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/sysfiles"
	"github.com/llmfs/llmfs/tools"
)

// parsePolicy reads the options quota {maxBytes, maxFileBytes, maxFiles} and deny (an
// array of globs) into o.
func parsePolicy(v js.Value, o *llmfs.Options) error {
	if v.Type() != js.TypeObject {
		return nil
	}
	if q := v.Get("quota"); q.Type() == js.TypeObject {
		for name, dst := range map[string]*int64{"maxBytes": &o.Quota.MaxBytes, "maxFileBytes": &o.Quota.MaxFileBytes, "maxFiles": &o.Quota.MaxFiles} {
			switch f := q.Get(name); f.Type() {
			case js.TypeUndefined, js.TypeNull:
			case js.TypeNumber:
				n := f.Float()
				if n < 0 || n != float64(int64(n)) {
					return fmt.Errorf("quota.%s must be a whole number of 0 or more", name)
				}
				*dst = int64(n)
			default:
				return fmt.Errorf("quota.%s must be a number", name)
			}
		}
	} else if !q.IsUndefined() && !q.IsNull() {
		return errors.New("option quota must be an object")
	}
	switch d := v.Get("deny"); d.Type() {
	case js.TypeUndefined, js.TypeNull:
	case js.TypeObject:
		if !js.Global().Get("Array").Call("isArray", d).Bool() {
			return errors.New("option deny must be an array of globs")
		}
		for i := range d.Length() {
			if d.Index(i).Type() != js.TypeString {
				return errors.New("option deny must be an array of globs")
			}
			o.Deny = append(o.Deny, d.Index(i).String())
		}
	default:
		return errors.New("option deny must be an array of globs")
	}
	return nil
}

// sysOptions describes the toolbox's tools to sysfiles; paths are virtual in the browser.
func sysOptions(tb *tools.Toolbox) *sysfiles.Options {
	opts := &sysfiles.Options{Virtual: true}
	for _, d := range tb.Definitions() {
		opts.Tools = append(opts.Tools, sysfiles.Tool{Name: d.Name, Description: d.Description, ReadOnly: d.ReadOnly})
	}
	return opts
}

// ensureSystemFiles generates /AGENT.md when missing and refreshes it while nobody edited
// it (seed 003); the store remembers what was generated in its metadata.
func ensureSystemFiles(ctx context.Context, tb *tools.Toolbox) error {
	if !sysfiles.Wanted(tb.Workspace(), tb.Dialect() == tools.RTC) {
		return nil
	}
	_, err := sysfiles.Ensure(ctx, tb.Workspace(), sysOptions(tb))
	return err
}

// changes reports whether the tool name of tb may change files (it is not read-only), so
// that /AGENT.md is refreshed before the next read: the page has no "next open" to wait for.
func changes(tb *tools.Toolbox, name string) bool {
	for _, d := range tb.Definitions() {
		if d.Name == name {
			return !d.ReadOnly
		}
	}
	return false
}

// restoreAgentFile is the page's "restore default": it regenerates /AGENT.md even if the
// user edited it.
func restoreAgentFile(ctx context.Context, tb *tools.Toolbox) error {
	return sysfiles.Restore(ctx, tb.Workspace(), "/AGENT.md", sysOptions(tb))
}
