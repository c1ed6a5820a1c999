//go:build !js && !wasip1

package osdir

// The tests keep their journals in the database package store/sql/hostjournal provides.
import _ "github.com/llmfs/llmfs/store/sql/hostjournal"
