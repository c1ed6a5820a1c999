package mem_test

import (
	"testing"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, storetest.Opt{New: func(t *testing.T) store.Store { return mem.New() }})
}

func TestJournal(t *testing.T) {
	storetest.RunJournal(t, func(t *testing.T) store.Journaler { return mem.New() })
}
