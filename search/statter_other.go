//go:build !linux

package search

import "time"

// plainStatter looks up each modification time with [hostDir.modTime].
type plainStatter struct{ d *hostDir }

func (d *hostDir) statter() modTimer { return plainStatter{d} }

func (s plainStatter) modTime(name string) (time.Time, error) { return s.d.modTime(name) }
func (plainStatter) close()                                   {}
