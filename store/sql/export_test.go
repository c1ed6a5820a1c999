//go:build !js && !wasip1

package sqlstore

// The test helpers the benchmarks in package sqlstore_test use (bench_test.go,
// bench_core_test.go): they import store/osdir and the core, which import this package.
var (
	NewWorkspaceForTest    = newWorkspace
	ConnectSQLiteForTest   = connectSQLite
	ConnectPostgresForTest = connectPostgres
	WriteStringForTest     = writeString
)

const PostgresEnvForTest = postgresEnv
