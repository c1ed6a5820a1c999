//go:build !js && !wasip1

package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/llmfs/llmfs/store/sql/internal/pgcopy"
)

// Bulk writes of store/sql (an import's rows) go by binary COPY: PostgreSQL then neither
// parses nor plans a statement of thousands of parameters.
func init() { pgcopy.Register(copyFrom) }

func copyFrom(ctx context.Context, driverConn any, table string, columns []string, rows [][]any) (int64, error) {
	c, ok := driverConn.(*stdlib.Conn)
	if !ok {
		return 0, fmt.Errorf("postgres: COPY over a connection of type %T", driverConn)
	}
	return c.Conn().CopyFrom(ctx, pgx.Identifier{table}, columns, pgx.CopyFromRows(rows))
}
