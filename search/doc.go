// Package search is the engine behind llmfs's find and grep: a parallel walk of a
// [store.Store] and a matcher that searches whole buffers at the speed of ripgrep for
// patterns that contain a literal.
//
// The walk honours .gitignore and .ignore files (in every directory, and in those from the
// workspace root down to the one searched), skips names starting with "." (which includes
// .git) and leaves symbolic links alone, each with a switch to do otherwise. A followed
// symbolic link must stay inside the store; when in doubt it is skipped. When the store is
// a [store.Locator], files and directories are read directly on the host, which is much
// faster than through the store's interface.
//
// Output order is stable: grep reports files in the order of a depth-first walk in which
// each directory's entries are sorted by name (what ripgrep prints with --sort path), and
// find reports files newest-modified first, ties broken by path.
package search
