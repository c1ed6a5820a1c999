//go:build !js && !wasip1

package search

// The tests' host workspaces keep their journals in store/sql/hostjournal's database.
import _ "github.com/llmfs/llmfs/store/sql/hostjournal"
