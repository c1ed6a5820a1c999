// Package host opens a workspace on a host directory: the convenience constructor over
// package store/osdir and the host journal's database (store/sql/hostjournal, registered by
// importing it). It is a package of its own so that a program that never touches the host
// (a workspace in memory or in a database) does not link the host store, its journal or a
// database driver:
//
//	ws, err := host.Open(&llmfs.Options{Root: dir}) // nothing reaches outside dir
package host
