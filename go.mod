module github.com/llmfs/llmfs

go 1.26.0

require golang.org/x/sys v0.50.0 // indirect
