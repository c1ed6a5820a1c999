//go:build !js && !wasip1

package postgres

import _ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"
