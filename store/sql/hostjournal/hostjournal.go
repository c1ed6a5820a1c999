//go:build !js && !wasip1

// Package hostjournal is the database of a host directory's journal: an embedded SQLite
// database outside the directory, into which package store/osdir folds its intent log.
// Importing it registers it ([store.RegisterJournalDB]); package host does, so a program
// that opens host workspaces through host.Open needs nothing more:
//
//	import _ "github.com/llmfs/llmfs/store/sql/hostjournal"
//
// It is a package of its own so that importing the host store links no database driver.
package hostjournal

import (
	"context"

	"github.com/llmfs/llmfs/store"
	sqlstore "github.com/llmfs/llmfs/store/sql"
	_ "github.com/llmfs/llmfs/store/sql/sqlite" // the journal's database
)

func init() { store.RegisterJournalDB(Open) }

// db is the journal's log with the database that holds it, closed together.
type db struct {
	*sqlstore.Log
	db *sqlstore.DB
}

func (d db) Close() error { return d.db.Close() }

var _ store.JournalDB = db{}

// Open opens, creating it if need be, the SQLite database at the host path path and the
// journal it holds.
func Open(ctx context.Context, path string) (store.JournalDB, error) {
	// temp_store(memory): a fold's many-row INSERTs keep a statement journal (to undo a
	// statement that fails halfway); in a temporary file that is a pwrite per page the
	// statement changes, about a tenth of a fold's CPU.
	x, err := sqlstore.Connect(ctx, "sqlite:"+path+"?_pragma=temp_store(memory)")
	if err != nil {
		return nil, err
	}
	log, err := x.Log(ctx, "host")
	if err != nil {
		x.Close()
		return nil, err
	}
	return db{Log: log, db: x}, nil
}
