//go:build !linux && !js && !wasip1

package osdir

import "os"

// startWriteback does nothing where there is no sync_file_range: the batch's syncs write.
func startWriteback(*os.File) {}
