package llmfs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/llmfs/llmfs/store"
)

// A Code names a kind of failure. Codes are stable strings that tools, MCP results and
// the CLI pass on unchanged, so a model or a program can act on them.
type Code string

// The error codes. The first seven are agentool's; the rest are llmfs's.
const (
	CodeFileNotFound      Code = "FILE_NOT_FOUND"
	CodePermissionDenied  Code = "PERMISSION_DENIED"
	CodeFileAlreadyExists Code = "FILE_ALREADY_EXISTS"
	CodeDirectoryNotEmpty Code = "DIRECTORY_NOT_EMPTY"
	CodePatternNotFound   Code = "PATTERN_NOT_FOUND"
	CodePatternNotUnique  Code = "PATTERN_NOT_UNIQUE"
	CodeInvalidPath       Code = "INVALID_PATH"
	CodeInvalidArgument   Code = "INVALID_ARGUMENT"
	CodeFileNotRead       Code = "FILE_NOT_READ"
	CodeFileChanged       Code = "FILE_CHANGED"
	CodeQuotaExceeded     Code = "QUOTA_EXCEEDED"
	CodeFileTooLarge      Code = "FILE_TOO_LARGE"
	CodeBinaryFile        Code = "BINARY_FILE"
	CodeIO                Code = "IO_ERROR"
)

// Error is the error every [Workspace] operation returns. Code says what went wrong, Path
// is the path as the caller gave it, Msg is a sentence for people and models, and Err, if
// not nil, is the underlying cause.
type Error struct {
	Code Code
	Path string
	Msg  string
	Err  error
}

func (e *Error) Error() string {
	if e.Msg == "" {
		return string(e.Code)
	}
	return string(e.Code) + ": " + e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

// Is lets errors.Is match an *Error against the io/fs sentinel of the same meaning,
// and against another *Error with the same Code.
func (e *Error) Is(target error) bool {
	if t, ok := target.(*Error); ok {
		return t.Code == e.Code
	}
	switch e.Code {
	case CodeFileNotFound:
		return target == fs.ErrNotExist
	case CodeFileAlreadyExists:
		return target == fs.ErrExist
	case CodePermissionDenied:
		return target == fs.ErrPermission
	case CodeInvalidPath, CodeInvalidArgument:
		return target == fs.ErrInvalid
	}
	return false
}

// CodeOf returns the Code of the first *Error in err's chain, or "" if there is none.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func errorf(code Code, path, format string, args ...any) *Error {
	return &Error{Code: code, Path: path, Msg: fmt.Sprintf(format, args...)}
}

// storeError turns a store failure on path (as the caller wrote it) into an *Error. It is
// the only place where store errors become codes.
func storeError(path string, err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	code, what := classify(err)
	return &Error{Code: code, Path: path, Msg: what + ": " + path, Err: err}
}

func classify(err error) (Code, string) {
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return CodeIO, "operation cancelled"
	case errors.Is(err, store.ErrEscape):
		return CodeInvalidPath, "path resolves outside the workspace root"
	case errors.Is(err, store.ErrInvalidName):
		return CodeInvalidPath, "invalid path"
	case errors.Is(err, store.ErrNotRegular):
		return CodeInvalidPath, "not a regular file (FIFO, socket or device)"
	case errors.Is(err, store.ErrNotDir):
		return CodeInvalidPath, "not a directory"
	case errors.Is(err, store.ErrIsDir):
		return CodeInvalidPath, "is a directory"
	case errors.Is(err, store.ErrNotEmpty):
		return CodeDirectoryNotEmpty, "directory not empty"
	case errors.Is(err, store.ErrChanged):
		return CodeFileChanged, "file changed since it was read"
	case errors.Is(err, store.ErrQuota):
		return CodeQuotaExceeded, "storage quota exceeded"
	case errors.Is(err, fs.ErrNotExist):
		return CodeFileNotFound, "no such file or directory"
	case errors.Is(err, fs.ErrExist):
		return CodeFileAlreadyExists, "already exists"
	case errors.Is(err, fs.ErrPermission):
		return CodePermissionDenied, "permission denied"
	case errors.Is(err, fs.ErrInvalid):
		return CodeInvalidPath, "invalid path"
	}
	// The cause, without the store name a *fs.PathError carries: the message names the
	// path as the caller wrote it, and only that (a host or store path would confuse a
	// model working with virtual paths).
	cause := err
	var pe *fs.PathError
	if errors.As(err, &pe) {
		cause = pe.Err
	}
	return CodeIO, "input/output error (" + cause.Error() + ")"
}

// StoreError returns err, a failure of a store or of the host on path (as the caller wrote
// it), as an [*Error] with the code it maps to; an *Error is returned as it is. It is for
// code that opens stores for a workspace, such as package host.
func StoreError(path string, err error) error { return storeError(path, err) }
