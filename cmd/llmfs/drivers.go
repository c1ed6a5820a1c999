//go:build !js && !wasip1

package main

// The databases --store DSN may name: package store/sql registers no driver itself.
import (
	_ "github.com/llmfs/llmfs/store/sql/postgres"
	_ "github.com/llmfs/llmfs/store/sql/sqlite"
)
