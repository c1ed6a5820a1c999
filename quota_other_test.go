//go:build js || wasip1

package llmfs_test

func polHostStores() []polStore { return nil }
