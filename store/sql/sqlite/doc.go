// Package sqlite registers the SQLite driver (modernc.org/sqlite, pure Go) that
// [sqlstore.Connect] uses for "sqlite:" DSNs. Import it for its side effect:
//
//	import _ "github.com/llmfs/llmfs/store/sql/sqlite"
//
// Package store/sql registers no driver itself, so that a program links only the databases
// it uses, as with [database/sql].
//
// [sqlstore.Connect]: https://pkg.go.dev/github.com/llmfs/llmfs/store/sql#Connect
package sqlite
