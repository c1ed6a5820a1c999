package llmfs

import "time"

// SetRacyWindow sets how recently a file may have changed for its identity to stand for
// its content, and returns a function that restores the old value. Tests set it to zero
// so that files they have just written are known by identity.
func SetRacyWindow(d time.Duration) (restore func()) {
	old := racyWindow
	racyWindow = d
	return func() { racyWindow = old }
}
