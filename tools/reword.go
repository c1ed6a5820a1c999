package tools

import (
	"errors"
	"fmt"
	"strings"

	"github.com/llmfs/llmfs"
)

// The core's messages name agentool's parameters. A dialect whose tools lack them says what
// its own tools offer instead, so that a model is never told to set a parameter it cannot
// give.

// replaceAllHint ends the core's message for old text that occurs several times.
const replaceAllHint = ", or set replace_all to replace every occurrence."

// reword returns err with its message changed by fix when it is an *[llmfs.Error] of code,
// unchanged otherwise. The error is copied: the core's is left as it is.
func reword(err error, code llmfs.Code, fix func(msg string) string) error {
	var e *llmfs.Error
	if !errors.As(err, &e) || e.Code != code {
		return err
	}
	c := *e
	c.Msg = fix(e.Msg)
	return &c
}

// notUniqueAs rewords the hint of a PATTERN_NOT_UNIQUE failure to name instead (such as
// "allow_multiple"), or drops it when instead is "".
func notUniqueAs(err error, instead string) error {
	return reword(err, llmfs.CodePatternNotUnique, func(msg string) string {
		hint := "."
		if instead != "" {
			hint = fmt.Sprintf(", or set %s to replace every occurrence.", instead)
		}
		return strings.Replace(msg, replaceAllHint, hint, 1)
	})
}

// existsAs rewords a FILE_ALREADY_EXISTS failure of a create to say what to do instead:
// the core's names a write mode the vendors' create commands lack.
func existsAs(err error, p, instead string) error {
	return reword(err, llmfs.CodeFileAlreadyExists, func(string) string {
		return fmt.Sprintf("File %s already exists; create makes new files only: %s", p, instead)
	})
}
