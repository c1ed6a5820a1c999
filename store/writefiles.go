package store

import "context"

// A FileWrite is one file of [FilesWriter.WriteFiles]: Name gets Data, as
// WriteFile(ctx, Name, bytes.NewReader(Data), Opts) would give it.
type FileWrite struct {
	Name string
	Data []byte
	Opts WriteOptions
}

// FilesWriter is implemented by stores that write many files for less than one WriteFile
// each: a host directory syncs the new contents of a batch together before it renames
// any into place, where each WriteFile syncs and renames its own (applying 1,000 reviewed
// files). Each file is written as WriteFile would write it, with the same checks, and a
// crash leaves each file with its old content or its new one; which of a batch's files
// have their new content after a crash is not said.
type FilesWriter interface {
	// WriteFiles writes each file and returns one error per file (nil where it was
	// written), in the order of files.
	WriteFiles(ctx context.Context, files []FileWrite) []error
}
