//go:build !js && !wasip1

package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/llmfs/llmfs/internal/termtext"
)

// progress reports a copy of many files: a bar redrawn in place on a terminal, one line
// per file otherwise (a log or a pipe gets no carriage returns).
type progress struct {
	w      io.Writer
	tty    bool
	verb   string
	total  int64 // bytes to copy
	done   int64
	files  int
	nfiles int
	drawn  time.Time
}

func newProgress(w io.Writer, verb string, items []copyItem) *progress {
	p := &progress{w: w, tty: isTerminal(w), verb: verb}
	for _, it := range items {
		if !it.dir {
			p.total += it.size
			p.nfiles++
		}
	}
	return p
}

// isTerminal reports whether w is a character device, such as a terminal, that is not
// declared dumb.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// reader counts the bytes read from r towards the bar.
func (p *progress) reader(r io.Reader) io.Reader { return &countingReader{r: r, p: p} }

type countingReader struct {
	r io.Reader
	p *progress
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.p.done += int64(n)
	if c.p.tty && time.Since(c.p.drawn) > 100*time.Millisecond {
		c.p.draw()
	}
	return n, err
}

// fileDone counts a file copied whole.
func (p *progress) fileDone(rel string, size int64) {
	p.files++
	if p.tty {
		if time.Since(p.drawn) > 100*time.Millisecond {
			p.draw()
		}
		return
	}
	fmt.Fprintf(p.w, "%sed %s (%s)\n", p.verb, termtext.Name(rel), human(size))
}

// finish draws the bar at its end and leaves the line.
func (p *progress) finish() {
	if p.tty {
		p.draw()
		fmt.Fprintln(p.w)
	}
}

func (p *progress) draw() {
	p.drawn = time.Now()
	fmt.Fprintf(p.w, "\r%s\x1b[K", p.bar(30))
}

// bar renders the progress line with a bar width characters wide.
func (p *progress) bar(width int) string {
	frac := 1.0
	if p.total > 0 {
		frac = min(float64(p.done)/float64(p.total), 1)
	} else if p.nfiles > 0 {
		frac = float64(p.files) / float64(p.nfiles)
	}
	full := int(frac * float64(width))
	return fmt.Sprintf("%s [%s%s] %3d%%  %d/%d files  %s/%s", p.verb,
		strings.Repeat("#", full), strings.Repeat(" ", width-full), int(frac*100),
		p.files, p.nfiles, human(p.done), human(p.total))
}

// human formats a byte count with a binary unit.
func human(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
