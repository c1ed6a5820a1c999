//go:build !js && !wasip1

package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

func TestProgress(t *testing.T) {
	items := []copyItem{{rel: "d", dir: true}, {rel: "d/a", size: 3000}, {rel: "d/b", size: 1000}}

	// Not a terminal: one plain line per file, no carriage returns.
	var buf bytes.Buffer
	p := newProgress(&buf, "import", items)
	if p.tty {
		t.Fatal("a buffer is taken for a terminal")
	}
	io.Copy(io.Discard, p.reader(strings.NewReader(strings.Repeat("x", 3000))))
	p.fileDone("d/a", 3000)
	p.finish()
	if got, want := buf.String(), "imported d/a (2.9 KiB)\n"; got != want {
		t.Errorf("plain output = %q, want %q", got, want)
	}

	// A terminal: the bar, redrawn in place.
	if got, want := p.bar(10), "import [#######   ]  75%  1/2 files  2.9 KiB/3.9 KiB"; got != want {
		t.Errorf("bar = %q, want %q", got, want)
	}
	p.tty = true
	buf.Reset()
	p.fileDone("d/b", 1000)
	p.done += 1000
	p.finish()
	if got := buf.String(); !strings.HasPrefix(got, "\rimport [") || !strings.HasSuffix(got, "\rimport [##############################] 100%  2/2 files  3.9 KiB/3.9 KiB\x1b[K\n") {
		t.Errorf("terminal output = %q", got)
	}
}
