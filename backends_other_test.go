//go:build js || wasip1

package llmfs_test

func hostBackends() []backend { return nil }
