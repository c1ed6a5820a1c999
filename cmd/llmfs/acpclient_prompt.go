//go:build !js && !wasip1

package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// acpPrompt works out, for a command line, the prompt to send and where the answers to
// permission questions come from. A prompt given as a flag leaves stdin for the answers;
// otherwise the prompt is all of stdin and, under [acpApproveAsk], the answers come from the
// terminal (/dev/tty) if there is one. The returned close function releases the terminal.
func acpPrompt(flagPrompt string, flagGiven bool, stdin io.Reader, approve string) (prompt string, answers io.Reader, close func(), err error) {
	close = func() {}
	if flagGiven {
		prompt, answers = flagPrompt, stdin
	} else {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return "", nil, close, fmt.Errorf("reading the prompt from stdin: %w", err)
		}
		prompt = strings.TrimRight(string(b), "\n")
		if approve == acpApproveAsk {
			if tty, err := os.Open("/dev/tty"); err == nil {
				answers, close = tty, func() { tty.Close() }
			}
		}
	}
	if strings.TrimSpace(prompt) == "" {
		close()
		return "", nil, func() {}, errors.New("empty prompt (give --prompt or pipe it on stdin)")
	}
	return prompt, answers, close, nil
}
