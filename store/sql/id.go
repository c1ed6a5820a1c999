package sqlstore

import (
	"fmt"
	"io/fs"
	"strconv"
)

// MaxIDLength bounds the length of a workspace id.
const MaxIDLength = 64

// IDError is an id that cannot name a workspace. It wraps [fs.ErrInvalid].
type IDError struct{ ID string }

func (e *IDError) Error() string {
	return fmt.Sprintf("invalid workspace id %s: want 1 to %d of the characters A-Z a-z 0-9 . _ -, not starting with - and not . or ..", strconv.Quote(e.ID), MaxIDLength)
}

func (e *IDError) Unwrap() error { return fs.ErrInvalid }

// CheckID returns an [*IDError] unless id can name a workspace: 1 to [MaxIDLength] of
// the characters A-Z a-z 0-9 . _ -, not starting with "-", and neither "." nor "..".
// Every method of [DB] that names a workspace checks its ids with it, and so do the
// commands and servers above it, so that one rule holds everywhere. An id shows up in commands, file names (an
// export directory named after one), URLs (a fleet's /w/ID/mcp) and logs: nothing in one
// needs quoting, none is a path ("..", "a/b") and none looks like a flag ("-x").
func CheckID(id string) error {
	if id == "" || len(id) > MaxIDLength || id == "." || id == ".." || id[0] == '-' {
		return &IDError{ID: id}
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return &IDError{ID: id}
		}
	}
	return nil
}
