module github.com/llmfs/llmfs

go 1.26.0

require (
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
