//go:build !linux && !js && !wasip1

package osdir

import "io/fs"

// The batch's calls elsewhere are the store's own, through the root.

func (b *writeBatch) lstat(target string) (fs.FileInfo, error) { return b.s.fs().Lstat(target) }

func (b *writeBatch) hash(target string) (string, error) { return b.s.hash(target) }

func (b *writeBatch) newTemp(target string) (*tempFile, error) { return b.s.newTemp(target) }

func (b *writeBatch) release(t *tempFile) { t.discard() }

func (b *writeBatch) closeDirs() {}
