//go:build !llmfs_webdist && !js && !wasip1

package web

// embedded reports that this binary embeds no browser build: it was built without the tag
// llmfs_webdist, so [Handler] builds one from the source tree.
func embedded() (*Assets, bool) { return nil, false }
