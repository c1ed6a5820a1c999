// Package postgres registers the PostgreSQL driver (github.com/jackc/pgx/v5 through its
// stdlib adapter) that [sqlstore.Connect] uses for "postgres://" DSNs. Import it for its
// side effect:
//
//	import _ "github.com/llmfs/llmfs/store/sql/postgres"
//
// Package store/sql registers no driver itself, so that a program links only the databases
// it uses, as with [database/sql].
//
// [sqlstore.Connect]: https://pkg.go.dev/github.com/llmfs/llmfs/store/sql#Connect
package postgres
