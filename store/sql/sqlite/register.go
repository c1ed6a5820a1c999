//go:build !js && !wasip1

package sqlite

import _ "modernc.org/sqlite" // registers "sqlite"
