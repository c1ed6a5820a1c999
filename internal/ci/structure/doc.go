// Package structure holds a test that keeps the module readable: no code file over
// MaxFileLines lines and no function over MaxFuncLines lines (issue 34, item 5). Tests and
// generated files are exempt. The package has no code of its own.
package structure

// The limits a newcomer can read at a sitting.
const (
	MaxFileLines = 600
	MaxFuncLines = 120
)
