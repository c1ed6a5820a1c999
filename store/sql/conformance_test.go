//go:build !js && !wasip1

package sqlstore

import (
	"testing"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/storetest"
)

func TestConformance(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		storetest.Run(t, storetest.Opt{New: func(t *testing.T) store.Store {
			return newWorkspace(t, b.connect(t), Quota{})
		}})
	})
}

func TestJournal(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		storetest.RunJournal(t, func(t *testing.T) store.Journaler {
			return newWorkspace(t, b.connect(t), Quota{})
		})
	})
}
