// Package search is the engine behind llmfs's find and grep: a parallel walk of a
// [store.Store] and a line matcher that keeps up with ripgrep.
//
// The walk honours ignore files as ripgrep reads them: .gitignore, .ignore and .rgignore in
// every directory, and in those from the workspace root down to the one searched, whether
// or not there is a .git directory, plus .git/info/exclude at the root of a repository. A
// match in .rgignore wins over one in .ignore, which wins over .gitignore, then exclude;
// within a kind the innermost file decides. A directory with its own .git stops the git
// rules from above. The walk skips names starting with "." (which includes .git) unless an
// ignore file takes them back with "!", and leaves symbolic links alone, each with a
// switch to do otherwise. A followed symbolic link must stay inside the store;
// when in doubt it is skipped. A grep glob or type filter takes precedence over those
// rules as in ripgrep: a file that matches a positive glob is searched even if hidden or
// ignored, and one of the requested type even if hidden.
//
// When the store opens directory handles ([store.DirOpener]: a host directory), the walk
// opens each directory relative to its parent's handle and each file relative to the
// store's root, following no symbolic link (store/osdir says what each platform
// guarantees); this package never opens a host path itself. Other stores are read
// through their interface; a
// grep of a [store.ContentLister] (the SQL store) takes the content of a directory's small
// files with its listing, one query per directory, and opens only the rest.
//
// Matching: a literal that every match must contain is found with a vectorized byte
// search on its rarest byte (by a frequency table measured on Go's source tree, see
// byterank.go), each hit checked on a second rare byte before the literal is compared,
// and a lazily built DFA confirms the lines around each hit,
// or scans the whole buffer when there is no such literal. The DFA's cache has a fixed
// budget: when full it is flushed whole, and when flushes come too often it gives way to
// regexp for the rest of the file. Each worker reuses one buffer (128 KiB, grown only for
// longer lines, up to 16 MiB), so memory stays bounded whatever the size of the file or
// the pattern; only multiline mode reads a file whole. A file with a NUL byte in its first
// 8000 bytes, or that starts with the signature of a binary format, is binary and skipped.
//
// Walking: a fixed pool of workers lists directories ahead of the visit, at most 16 per
// worker waiting, so the work in flight and the memory held do not grow with the tree.
// Globs (find's pattern, -g, ignore and deny rules) are compiled once: the common shapes
// ("**/*.c", "dir/**", "**/.git/**", "name*") are string tests, the rest go to doublestar.
//
// Output order is stable: grep reports files in the order of a depth-first walk in which
// each directory's entries are sorted by name (what ripgrep prints with --sort path), and
// find reports files newest-modified first, ties broken by path.
package search
