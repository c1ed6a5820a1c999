package store

// A Reserver is a Store whose tree holds something llmfs keeps for itself: a host
// directory that contains llmfs's cache directory (its journal, intent log, review layers
// and metadata), as a workspace rooted at the home directory does. The llmfs core treats
// each reserved name, and everything below it, as out of bounds for every operation, and
// checks the real name of a symbolic link against them too.
type Reserver interface {
	Store
	// Reserved returns the store names llmfs keeps for itself, "." when the whole store
	// lies inside such a directory; none when nothing of llmfs's lies in the store.
	Reserved() []string
}

// Reserved returns the names s reserves for llmfs ([Reserver]), or none.
func Reserved(s Store) []string {
	if r, ok := s.(Reserver); ok {
		return r.Reserved()
	}
	return nil
}
