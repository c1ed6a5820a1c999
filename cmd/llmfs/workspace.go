//go:build !js && !wasip1

package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	sqlstore "github.com/llmfs/llmfs/store/sql"
	"github.com/llmfs/llmfs/sysfiles"
	"github.com/llmfs/llmfs/tools"
)

// configName is the workspace configuration file llmfs looks for at the workspace root.
// The agent never sees it: it is always denied, so a model cannot loosen its own rules.
const configName = ".llmfs.json"

// config is the JSON form of a configuration file. Every field is optional; flags given
// on the command line override it (--deny adds to its deny list).
type config struct {
	Mode          string   `json:"mode"`
	Deny          []string `json:"deny"`
	NoDefaultDeny *bool    `json:"no_default_deny"`
	QuotaBytes    *int64   `json:"quota_bytes"`
	MaxFileBytes  *int64   `json:"max_file_bytes"`
	MaxFiles      *int64   `json:"max_files"`
	AgentMD       *bool    `json:"agent_md"`
	RequireRead   *bool    `json:"require_read"`
	// UndoMaxFileBytes: the largest file a change to which can be undone.
	UndoMaxFileBytes *int64 `json:"undo_max_file_bytes"`
}

// wsFlags are the flags of every command that opens a workspace.
type wsFlags struct {
	root          string
	relaxed       bool
	mode          string
	requireRead   bool
	limits        llmfs.Limits
	deny          stringList
	noDefaultDeny bool
	quota         struct{ bytes, fileBytes, files sizeValue }
	undoMax       sizeValue // --undo-max-file-bytes
	config        string
	agentMD       optBool
	storeDSN      string      // --store: a database of virtual workspaces
	blobs         string      // --blobs: the object store of --store's content
	workspace     string      // --workspace: the workspace's id in it
	review        reviewFlags // --review, --review-store: see review.go

	// Set by commands, not flags.
	dialect    tools.Dialect   // the dialect the agent will use; decides the AGENT.md default
	history    bool            // the agent also gets the history tools (AGENT.md lists them)
	noSysfiles bool            // do not create or refresh system files at open
	background bool            // create and refresh them in the background (servers)
	scan       bool            // a search one-shot: a SQLite store keeps a small page cache (scanDSN)
	ctx        context.Context // the command's, cancelled by SIGINT and SIGTERM; nil: none
	actor      string          // who the journal says made the changes; "" means cli
	stderr     io.Writer       // for warnings
	fs         *flag.FlagSet   // to tell flags given from defaults
	cfg        config          // the configuration options() read
	closers    *[]func() error
}

func (f *wsFlags) register(fs *flag.FlagSet) {
	f.fs = fs
	fs.StringVar(&f.root, "root", "", "workspace root `DIR` (default: the current directory)")
	fs.BoolVar(&f.relaxed, "relaxed", false, "let paths leave the root (absolute paths and '..' are followed)")
	fs.StringVar(&f.mode, "mode", "full", "work `MODE`: read-only, read-write or full")
	fs.Var(&f.deny, "deny", "hide and protect paths matching `GLOB` (repeatable; added to the defaults **/.git/**, **/.env, **/.env.*, **/*.pem, **/*.key, **/id_rsa*, **/id_dsa*, **/id_ecdsa*, **/id_ed25519*, **/.netrc)")
	fs.BoolVar(&f.noDefaultDeny, "no-default-deny", false, "drop the default deny rules")
	fs.Var(&f.quota.bytes, "quota-bytes", "bound the total size of the files to `SIZE` (bytes, or with K, M, G; 0: none)")
	fs.Var(&f.quota.fileBytes, "max-file-bytes", "bound the size of one file to `SIZE` (bytes, or with K, M, G; 0: none)")
	fs.Var(&f.quota.files, "max-files", "bound the number of files and directories to `N` (0: none)")
	fs.Var(&f.undoMax, "undo-max-file-bytes", "keep in the history the content of files up to `SIZE` (bytes, or with K, M, G; 0: the default, 64M), so that their changes can be undone; a change to a larger file cannot be")
	fs.StringVar(&f.config, "config", "", "read settings from `FILE` (default: "+configName+" at the workspace root, if any); flags override it")
	fs.Var(&f.agentMD, "agent-md", "create /AGENT.md when missing and keep it current while unedited (default: on for --store workspaces, off on a host directory)")
	fs.StringVar(&f.storeDSN, "store", "", "serve a virtual workspace kept in the database `DSN` (sqlite:PATH or postgres://...) instead of a directory; needs --workspace")
	fs.StringVar(&f.blobs, "blobs", "", blobsUsage)
	fs.StringVar(&f.workspace, "workspace", "", "the workspace `ID` in --store (make it with 'llmfs ws create')")
	f.registerReview(fs)
	f.closers = new([]func() error)
}

// close releases what open acquired (database handles). It is safe to call more than once.
func (f *wsFlags) close() error {
	if f.closers == nil {
		return nil
	}
	var errs []error
	for _, c := range *f.closers {
		errs = append(errs, c())
	}
	*f.closers = nil
	return errors.Join(errs...)
}

// set reports whether the flag name was given on the command line.
func (f *wsFlags) set(name string) bool {
	found := false
	if f.fs != nil {
		f.fs.Visit(func(fl *flag.Flag) {
			if fl.Name == name {
				found = true
			}
		})
	}
	return found
}

func (f *wsFlags) open() (*llmfs.Workspace, error) {
	if err := f.checkStore(); err != nil {
		return nil, err
	}
	opts, agentMD, err := f.options()
	if err != nil {
		return nil, err
	}
	var ws *llmfs.Workspace
	if f.storeDSN != "" {
		ws, err = f.openStore(opts)
		if err != nil {
			return nil, err
		}
	} else {
		ws, err = host.Open(opts)
		if err != nil {
			return nil, fmt.Errorf("opening the workspace: %w", err)
		}
		if c, ok := ws.Store().(io.Closer); ok {
			// A host directory's journal writes the commit marks still waiting when it
			// closes (store/osdir); the next process would otherwise settle them itself.
			*f.closers = append(*f.closers, c.Close)
		}
	}
	// System files are llmfs's, not the agent's: under --review too they are made and kept
	// current on the workspace beneath the pending layer, as without --review, so the
	// layer holds only the agent's changes.
	if agentMD == nil {
		agentMD = new(sysfiles.Wanted(ws, tools.IsVirtual(f.dialect)))
	}
	if *agentMD && !f.noSysfiles {
		f.ensureSysfiles(ws)
	}
	if ws, err = f.wrapReview(ws); err != nil {
		return nil, err
	}
	return ws, nil
}

// ensureSysfiles generates the system files of ws within the command's context, so that
// SIGINT or SIGTERM stops it. A server does it in the background, so that a large tree
// never delays its first answer (MCP initialize); close stops it and waits for it.
func (f *wsFlags) ensureSysfiles(ws *llmfs.Workspace) {
	ctx := f.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	run := func(ctx context.Context) {
		if _, err := sysfiles.Ensure(ctx, ws, f.sysOptions(ws)); err != nil && ctx.Err() == nil && f.stderr != nil {
			fmt.Fprintf(f.stderr, "llmfs: warning: system files: %v\n", err)
		}
	}
	if !f.background {
		run(ctx)
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		run(ctx)
	}()
	// First among the closers: it must end before the store closes.
	*f.closers = append([]func() error{func() error { cancel(); <-done; return nil }}, *f.closers...)
}

// sysOptions describes the workspace's tools to package sysfiles.
func (f *wsFlags) sysOptions(ws *llmfs.Workspace) *sysfiles.Options {
	defs, _ := tools.DefinitionsFor(f.dialect, ws.Settings().Mode, &tools.Options{History: f.history})
	opts := &sysfiles.Options{Virtual: tools.IsVirtual(f.dialect)}
	if s, ok := ws.Store().(*sqlstore.Store); ok {
		// The store enforces the quota, not the workspace: describe the store's.
		if q, _, err := s.Quota(context.Background()); err == nil {
			opts.Quota = llmfs.Quota{MaxBytes: q.MaxBytes, MaxFileBytes: q.MaxFileBytes, MaxFiles: q.MaxFiles}
		}
	}
	for _, d := range defs {
		opts.Tools = append(opts.Tools, sysfiles.Tool{Name: d.Name, Description: d.Description, ReadOnly: d.ReadOnly})
	}
	return opts
}

// agentMDOff says why the system files of ws are off and how to turn them on, or ""
// when they are on: what the console shows of them.
func (f *wsFlags) agentMDOff(ws *llmfs.Workspace) string {
	_, agentMD, err := f.options()
	if err != nil || (agentMD == nil && sysfiles.Wanted(ws, tools.IsVirtual(f.dialect))) || (agentMD != nil && *agentMD) {
		return ""
	}
	if agentMD == nil {
		return "llmfs makes it only when asked on a host directory, where it would add a file to your repository; to have it made and kept current, start llmfs serve with --agent-md, or put \"agent_md\": true in " + configName + " at the root"
	}
	return "turned off by --agent-md=false or \"agent_md\": false in " + configName + "; to have llmfs make it and keep it current, start llmfs serve with --agent-md"
}

// options merges the configuration file and the flags. It also says whether system files
// are wanted, if the configuration or a flag says so (nil: the default, [sysfiles.Wanted]).
func (f *wsFlags) options() (*llmfs.Options, *bool, error) {
	cfg, err := f.loadConfig()
	if err != nil {
		return nil, nil, err
	}
	f.cfg = cfg
	opts := &llmfs.Options{Root: f.root, Relaxed: f.relaxed, Limits: f.limits, RequireRead: f.requireRead, Actor: cmp.Or(f.actor, "cli")}
	mode := cfg.Mode
	if f.set("mode") || mode == "" {
		mode = f.mode
	}
	opts.Mode = llmfs.Mode(mode)
	if !opts.Mode.Valid() || opts.Mode == "" {
		return nil, nil, usagef("--mode must be read-only, read-write or full, got %q", mode)
	}
	if cfg.RequireRead != nil && !f.set("require-read") {
		opts.RequireRead = *cfg.RequireRead
	}
	opts.Deny = append(append(append(opts.Deny, cfg.Deny...), f.deny...), configName)
	if rel, ok := f.configInRoot(); ok {
		opts.Deny = append(opts.Deny, rel)
	}
	if err := llmfs.ValidateDeny(opts.Deny); err != nil {
		return nil, nil, usagef("%v", err)
	}
	opts.NoDefaultDeny = f.noDefaultDeny
	if cfg.NoDefaultDeny != nil && !f.set("no-default-deny") {
		opts.NoDefaultDeny = *cfg.NoDefaultDeny
	}
	pick := func(flagName string, v sizeValue, c *int64) int64 {
		if c != nil && !f.set(flagName) {
			return *c
		}
		return int64(v)
	}
	opts.Quota = llmfs.Quota{
		MaxBytes:     pick("quota-bytes", f.quota.bytes, cfg.QuotaBytes),
		MaxFileBytes: pick("max-file-bytes", f.quota.fileBytes, cfg.MaxFileBytes),
		MaxFiles:     pick("max-files", f.quota.files, cfg.MaxFiles),
	}
	if opts.Quota.MaxBytes < 0 || opts.Quota.MaxFileBytes < 0 || opts.Quota.MaxFiles < 0 {
		return nil, nil, usagef("quota bounds must be 0 (none) or positive")
	}
	if opts.UndoMaxFileBytes = pick("undo-max-file-bytes", f.undoMax, cfg.UndoMaxFileBytes); opts.UndoMaxFileBytes < 0 {
		return nil, nil, usagef("undo_max_file_bytes must be 0 (the default) or positive")
	}
	agentMD := cfg.AgentMD
	if f.agentMD.set {
		agentMD = &f.agentMD.v
	}
	return opts, agentMD, nil
}

// loadConfig reads --config, or the configuration file at the root if there is one.
func (f *wsFlags) loadConfig() (config, error) {
	var cfg config
	p := f.config
	if p == "" && f.storeDSN != "" {
		return cfg, nil // a store's workspace has no configuration file; only --config
	}
	if p == "" {
		root := f.root
		if root == "" {
			root = "."
		}
		p = filepath.Join(root, configName)
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			return cfg, nil
		}
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return cfg, fmt.Errorf("reading the configuration: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return cfg, fmt.Errorf("configuration %s: %w", p, err)
	}
	if dec.More() {
		return cfg, fmt.Errorf("configuration %s: text after the JSON object", p)
	}
	return cfg, nil
}

// configInRoot returns the path of --config relative to the root, as a deny glob, when
// the file lies inside the root: the agent must not rewrite its own rules.
func (f *wsFlags) configInRoot() (string, bool) {
	if f.config == "" || f.storeDSN != "" {
		return "", false
	}
	root, err := filepath.Abs(cmp.Or(f.root, "."))
	if err != nil {
		return "", false
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	cfg, err := filepath.Abs(f.config)
	if err != nil {
		return "", false
	}
	if c, err := filepath.EvalSymlinks(cfg); err == nil {
		cfg = c
	}
	rel, err := filepath.Rel(root, cfg)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	var sb strings.Builder
	for _, c := range filepath.ToSlash(rel) {
		if strings.ContainsRune(`*?[]{}\`, c) {
			sb.WriteByte('\\')
		}
		sb.WriteRune(c)
	}
	return sb.String(), true
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// sizeValue is a byte count or number flag that takes K, M and G suffixes (powers of 1024).
type sizeValue int64

func (v *sizeValue) String() string { return strconv.FormatInt(int64(*v), 10) }
func (v *sizeValue) Set(s string) error {
	mult := int64(1)
	t := strings.TrimSuffix(strings.ToUpper(strings.TrimSpace(s)), "B")
	t = strings.TrimSuffix(t, "I")
	switch {
	case strings.HasSuffix(t, "K"):
		mult, t = 1<<10, strings.TrimSuffix(t, "K")
	case strings.HasSuffix(t, "M"):
		mult, t = 1<<20, strings.TrimSuffix(t, "M")
	case strings.HasSuffix(t, "G"):
		mult, t = 1<<30, strings.TrimSuffix(t, "G")
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return fmt.Errorf("want a size such as 1048576, 512K, 10M or 1G, got %q", s)
	}
	*v = sizeValue(n * mult)
	return nil
}

// optBool is a boolean flag that remembers whether it was given.
type optBool struct{ set, v bool }

func (b *optBool) String() string   { return strconv.FormatBool(b.v) }
func (b *optBool) IsBoolFlag() bool { return true }
func (b *optBool) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	b.set, b.v = true, v
	return nil
}
