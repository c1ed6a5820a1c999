//go:build !unix && !js && !wasip1

package osdir

import (
	"os"
	"time"
)

// lockFile does nothing here: appends are serialized within the process only.
func lockFile(f *os.File, deadline time.Time) {}
