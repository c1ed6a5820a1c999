//go:build !js && !wasip1

package sqlstore_test

import (
	"context"

	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// Local names for the package's test helpers (see export_test.go).
var (
	ctx             = context.Background()
	newWorkspace    = sqlstore.NewWorkspaceForTest
	connectSQLite   = sqlstore.ConnectSQLiteForTest
	connectPostgres = sqlstore.ConnectPostgresForTest
	writeString     = sqlstore.WriteStringForTest
)

const postgresEnv = sqlstore.PostgresEnvForTest

type Quota = sqlstore.Quota
