//go:build !js && !wasip1

package llmfs

// The databases the tests open by DSN: package store/sql registers no driver itself.
import (
	_ "github.com/llmfs/llmfs/store/sql/postgres"
	_ "github.com/llmfs/llmfs/store/sql/sqlite"
)
