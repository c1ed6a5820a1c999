package llmfs

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/llmfs/llmfs/internal/glob"
	"github.com/llmfs/llmfs/store"
)

// Mode is a work mode: what a workspace lets an agent do.
type Mode string

// The work modes, from least to most allowed.
const (
	ReadOnly  Mode = "read-only"  // list, read, find, grep
	ReadWrite Mode = "read-write" // and write, edit, mkdir, move, copy
	Full      Mode = "full"       // and delete
)

// Op names an operation for the policy.
type Op string

// The operations.
const (
	OpRead   Op = "read"
	OpList   Op = "list"
	OpFind   Op = "find"
	OpGrep   Op = "grep"
	OpWrite  Op = "write"
	OpEdit   Op = "edit"
	OpMkdir  Op = "mkdir"
	OpMove   Op = "move"
	OpCopy   Op = "copy"
	OpDelete Op = "delete"
)

// Allows reports whether mode m permits op. The empty mode is [Full].
func (m Mode) Allows(op Op) bool {
	switch op {
	case OpRead, OpList, OpFind, OpGrep:
		return true
	case OpDelete:
		return m == Full || m == ""
	}
	return m != ReadOnly
}

// Valid reports whether m is one of the defined modes or empty.
func (m Mode) Valid() bool {
	switch m {
	case "", ReadOnly, ReadWrite, Full:
		return true
	}
	return false
}

// DefaultDeny are the deny rules every workspace has unless [Options.NoDefaultDeny] is set:
// git internals (of nested repositories too: a vendored repository's .git/config may hold
// a token), environment files, private keys and netrc credentials, at any depth.
var DefaultDeny = []string{
	"**/.git/**", "**/.env", "**/.env.*", "**/*.pem", "**/*.key",
	"**/id_rsa*", "**/id_dsa*", "**/id_ecdsa*", "**/id_ed25519*", "**/.netrc",
}

// Policy describes what a workspace allows: its work mode, its deny rules in force
// (defaults included) and its quotas. See [Settings].
type Policy struct {
	Mode  Mode
	Deny  []string
	Quota Quota
}

// policy returns the policy in force.
func (w *Workspace) policy() Policy {
	p := Policy{Mode: w.workMode()}
	if w.deny != nil {
		p.Deny = slices.Clone(w.deny.patterns)
	}
	if w.quota != nil {
		p.Quota = w.quota.q
	}
	return p
}

// ValidateDeny checks that every pattern is a valid deny glob: a doublestar pattern
// ("**" crosses directories) over slash-separated paths relative to the workspace root.
func ValidateDeny(patterns []string) error {
	for _, p := range patterns {
		if p == "" || !doublestar.ValidatePattern(p) {
			return &Error{Code: CodeInvalidArgument, Path: p, Msg: fmt.Sprintf("invalid deny pattern %q: want a glob such as secrets/** or **/*.key", p)}
		}
	}
	return nil
}

// denyRules are compiled deny globs. Matching ignores Unicode normalization and case: the
// patterns (once, here) and each path are put in NFC and case-folded (see [foldName]), so
// ".ENV", ".Git/config", "KEY.PEM", or "café" spelled in NFD as macOS writes it, are denied
// on every host. On a case-sensitive file system this denies a little more than the rules
// say (a file named ".ENV" is hidden too); that errs on the side of the secret, and keeps
// one answer for a workspace wherever it lives (macOS and Windows file systems ignore case,
// and macOS ignores normalization).
type denyRules struct {
	patterns []string       // as given
	folded   []string       // foldName of each
	fast     []glob.Matcher // folded, compiled: walks try every rule on every entry
	// For matchSelf, the rules split by what they need of a path whose parents pass:
	// its last element alone (byName, as glob.Matcher.LastElement gives them) or the
	// whole path (byPath). Only the name is then folded for the default rules.
	byName, byPath []glob.Matcher
	// When every byName rule has an edge byte (glob.Matcher.Edge), the bytes a folded
	// name must start (starts) or end (ends) with to match one of them: most names do
	// neither, and are passed without folding them or trying each rule.
	edges        bool
	starts, ends [256]bool
}

func newDenyRules(opts *Options) (*denyRules, error) {
	var pats []string
	if !opts.NoDefaultDeny {
		pats = append(pats, DefaultDeny...)
	}
	for _, p := range opts.Deny {
		if !slices.Contains(pats, p) {
			pats = append(pats, p)
		}
	}
	if len(pats) == 0 {
		return nil, nil
	}
	if err := ValidateDeny(pats); err != nil {
		return nil, err
	}
	d := &denyRules{patterns: pats}
	for _, p := range pats {
		f := foldName(p)
		if !doublestar.ValidatePattern(f) {
			// Folding cannot break a glob's syntax (it changes letters, not the
			// metacharacters), but should it ever, match the rule as given.
			f = p
		}
		d.folded = append(d.folded, f)
		m := glob.Compile(f)
		d.fast = append(d.fast, m)
		if byName, ok := m.LastElement(); ok {
			d.byName = append(d.byName, byName)
		} else {
			d.byPath = append(d.byPath, m)
		}
	}
	d.edges = true
	for _, m := range d.byName {
		b, atEnd, ok := m.Edge()
		switch {
		case !ok:
			d.edges = false
		case atEnd:
			d.ends[b] = true
		default:
			d.starts[b] = true
		}
	}
	return d, nil
}

// foldName is the form in which deny rules and paths are compared: Unicode case folding
// (which maps "ſ" to "s" and "K", the Kelvin sign, to "k", where strings.ToLower does not),
// then NFC, so that a name's composed and decomposed spellings agree. ASCII, the common
// case, needs neither table.
func foldName(s string) string {
	if asciiOnly(s) {
		return strings.ToLower(s)
	}
	// A Caser keeps state: one per call, never shared between goroutines.
	return norm.NFC.String(cases.Fold().String(norm.NFC.String(s)))
}

// match returns the rule that denies rel (slash-separated, relative to the root), if any.
// A path is denied when it or one of its parent directories matches: a denied directory
// hides everything below it.
func (d *denyRules) match(rel string) (string, bool) {
	if d == nil || rel == "." || rel == "" {
		return "", false
	}
	folded := foldName(rel)
	for i := 0; i <= len(folded); i++ {
		if i < len(folded) && folded[i] != '/' {
			continue
		}
		prefix := folded[:i]
		for j, m := range d.fast {
			if m.Match(prefix) {
				return d.patterns[j], true
			}
		}
	}
	return "", false
}

// matchSelf is match for a walker that never enters a denied directory: its parents are
// known to pass, so only rel itself is tried, once per rule rather than once per rule and
// parent.
func (d *denyRules) matchSelf(rel string) bool {
	if d.matchName(rel[strings.LastIndexByte(rel, '/')+1:]) {
		return true
	}
	if len(d.byPath) == 0 {
		return false
	}
	folded := foldName(rel)
	for _, m := range d.byPath {
		if m.Match(folded) {
			return true
		}
	}
	return false
}

// matchName reports whether a byName rule matches the path element name.
func (d *denyRules) matchName(name string) bool {
	var folded string
	if asciiOnly(name) {
		// An ASCII name folds to its lower case, byte for byte (a non-ASCII one may fold
		// or compose into other first or last bytes, so it takes the long way).
		if d.edges && len(name) > 0 && !d.starts[lowerASCII(name[0])] && !d.ends[lowerASCII(name[len(name)-1])] {
			return false
		}
		folded = strings.ToLower(name) // foldName's answer, without scanning name again
	} else {
		folded = foldName(name)
	}
	for _, m := range d.byName {
		if m.Match(folded) {
			return true
		}
	}
	return false
}

func asciiOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// isDenied is [Paths.Denied].
func (w *Workspace) isDenied(p string) bool {
	if len(w.reserved) > 0 {
		if r, err := w.resolve(p); err == nil && w.isReserved(r.name) {
			return true
		}
	}
	if w.deny == nil {
		return false
	}
	if path.IsAbs(p) {
		p = w.rel(p)
	}
	_, ok := w.deny.match(relForDeny(path.Clean(p)))
	return ok
}

// deniedPath is [Paths.DeniedPath].
func (w *Workspace) deniedPath(ctx context.Context, p string) bool {
	r, err := w.resolve(p)
	if err != nil {
		return false
	}
	_, denied := w.denied(ctx, r.name)
	return denied || w.reservedPath(ctx, r.name)
}

// relForDeny strips what cannot take part in a match: a leading "/" (paths outside the
// root in a relaxed workspace are matched as absolute paths without it) and "./".
func relForDeny(p string) string {
	return strings.TrimPrefix(strings.TrimPrefix(p, "/"), "./")
}

// denyRel returns the path deny rules see for the store name: relative to the root.
func (w *Workspace) denyRel(name string) string {
	if w.base == "." {
		return name
	}
	return relForDeny(w.relName(name))
}

// skipDenied returns the filter that keeps denied paths out of searches, or nil when
// the workspace has no deny rules. The search walk asks about each entry of a directory it
// entered, never about a denied directory's contents, and the directory searched has
// passed [Workspace.check]; so each entry is matched alone, not with its parents.
func (w *Workspace) skipDenied() func(name string) bool {
	reserved := w.skipReserved()
	switch {
	case w.deny == nil:
		return reserved
	case reserved != nil:
		return func(name string) bool { return reserved(name) || w.deny.matchSelf(w.denyRel(name)) }
	}
	return func(name string) bool { return w.deny.matchSelf(w.denyRel(name)) }
}

// denied checks the store name and, if the store has symbolic links, the name it really
// leads to. It returns the rule that matched.
func (w *Workspace) denied(ctx context.Context, name string) (string, bool) {
	if w.deny == nil {
		return "", false
	}
	if rule, ok := w.deny.match(w.denyRel(name)); ok {
		return rule, true
	}
	real, err := store.RealName(ctx, w.store, name)
	if err != nil || real == name {
		// An error (an escape, a loop) is the store's to report when the operation runs.
		return "", false
	}
	return w.deny.match(w.denyRel(real))
}

// hiddenEntry is hidden for the entry de of the store directory dir. With rules of names
// alone and no symbolic link to resolve, it needs no path (joining them was 5% of the CPU
// of a names-only listing of 10,000 entries).
func (w *Workspace) hiddenEntry(ctx context.Context, dir string, de fs.DirEntry) bool {
	if w.reservedEntry(ctx, dir, de) {
		return true
	}
	if w.deny == nil {
		return false
	}
	if len(w.deny.byPath) == 0 && de.Type()&fs.ModeSymlink == 0 {
		return w.deny.matchName(de.Name()) // a store's entry name is one path element
	}
	return w.hidden(ctx, joinName(dir, de.Name()), de)
}

// hidden reports whether a directory entry, named name in the store, is invisible under
// the deny rules. Only symbolic links need the store to resolve them. The directory listed
// has passed [Workspace.check], so, as in searches ([Workspace.skipDenied]), the entry is
// matched alone, not with each of its parents again: a 10,000-entry listing matched every
// rule against every parent of every entry.
func (w *Workspace) hidden(ctx context.Context, name string, de fs.DirEntry) bool {
	if w.deny == nil {
		return false
	}
	if w.deny.matchSelf(w.denyRel(name)) {
		return true
	}
	if de.Type()&fs.ModeSymlink == 0 {
		return false
	}
	_, ok := w.denied(ctx, name)
	return ok
}

// check enforces the workspace's policy for op on r: the work mode, then the deny rules.
func (w *Workspace) check(ctx context.Context, op Op, r resolved) error {
	if w.bad != nil {
		return w.bad
	}
	if mode := w.workMode(); !mode.Allows(op) {
		return modeError(mode, op, r.arg)
	}
	if w.reservedPath(ctx, r.name) {
		return reservedError(r.arg)
	}
	if rule, ok := w.denied(ctx, r.name); ok {
		return &Error{Code: CodePermissionDenied, Path: r.arg,
			Msg: fmt.Sprintf("access denied: %s is protected by the workspace's deny rule %q and cannot be read, listed or changed; leave it alone and work with other files", r.arg, rule)}
	}
	return nil
}

// modeError says why mode forbids op, and what the agent can do instead.
func modeError(mode Mode, op Op, p string) *Error {
	var msg string
	if mode == ReadOnly {
		msg = fmt.Sprintf("the workspace is read-only; %s is not allowed. Use read, list, find or grep to look at files; nothing can be changed: %s", op, p)
	} else {
		msg = fmt.Sprintf("the workspace is %s: files can be written, edited, moved and copied but not deleted (deleting needs the full mode); %s is not allowed: %s", mode, op, p)
	}
	return &Error{Code: CodePermissionDenied, Path: p, Msg: msg}
}

// storeName is [Paths.StoreName].
func (w *Workspace) storeName(p string) (string, error) {
	r, err := w.resolve(p)
	if err != nil {
		return "", err
	}
	return r.name, nil
}
