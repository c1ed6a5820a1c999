// Package mount serves a workspace as a file system (FUSE on Linux), so that every
// process's changes take the same path as a tool call: the sandbox, deny rules, work mode,
// quotas and review of the [llmfs.Workspace], and its journal, attributed to the process.
//
// Every operation goes through the Workspace (or, for what the Workspace has no operation
// for, such as listing a file's attributes, through its Store): this package never opens a
// host path of the root. Writes go to a spill file of the mount's own and reach the
// Workspace when the writer closes or syncs the file.
//
// A mount works on a session layer (a [overlay.Overlay] over the workspace's store): the
// changes processes make land there at once, and are applied to the workspace, one change
// set per actor, once the file system has been quiet for a moment, when a process calls
// fsync, and at unmount. So a file created and removed in between (a lock file, an editor's
// swap file, a build temporary) leaves no entry in the journal, and a write is recorded
// once per file. Under 'llmfs run' the layer is applied once, at the end: one change set.
//
// The session is shared by the package's faces: [Core] holds it (the change set, the actor
// of each change, the files the mount created, the spill files, the commit at close), and a
// face only translates its protocol into the Core's operations. The FUSE face ([Mount]) is
// Linux only (package github.com/hanwen/go-fuse/v2); the NFSv3 face (package mount/nfs)
// builds everywhere and is what macOS mounts.
package mount
