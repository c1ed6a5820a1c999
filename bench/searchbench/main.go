//go:build !js && !wasip1

// Command searchbench drives the search engine the way ripgrep is driven, for
// bench/search.sh, until the llmfs CLI has grep and find one-shots.
//
//	searchbench [-i] [-n] [-A N] [-B N] [-C N] [-g GLOB] [-t TYPE] [-l] [-c] [-U] PATTERN DIR
//	searchbench -find GLOB DIR
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/llmfs/llmfs/search"
	"github.com/llmfs/llmfs/store/osdir"
)

func main() {
	os.Exit(run())
}

func run() int {
	var (
		ignoreCase = flag.Bool("i", false, "ignore case")
		lineNums   = flag.Bool("n", false, "line numbers")
		after      = flag.Int("A", 0, "lines after")
		before     = flag.Int("B", 0, "lines before")
		both       = flag.Int("C", 0, "lines around")
		glob       = flag.String("g", "", "glob")
		typ        = flag.String("t", "", "type")
		files      = flag.Bool("l", false, "files with matches")
		count      = flag.Bool("c", false, "count")
		multi      = flag.Bool("U", false, "multiline")
		hidden     = flag.Bool("hidden", false, "hidden files")
		noIgnore   = flag.Bool("no-ignore", false, "ignore files off")
		limit      = flag.Int("head-limit", 0, "head limit")
		offset     = flag.Int("offset", 0, "offset")
		find       = flag.Bool("find", false, "find files by glob")
		cpuprofile = flag.String("cpuprofile", "", "write a CPU profile to this file")
	)
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: searchbench [flags] PATTERN DIR")
		return 2
	}
	s, err := osdir.New(flag.Arg(1), false)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	defer out.Flush()
	ctx := context.Background()
	if *find {
		res, err := search.Find(ctx, s, ".", search.FindOptions{Pattern: flag.Arg(0), Limit: *limit, Hidden: *hidden, NoIgnore: *noIgnore})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		out.WriteString(res.Text())
		return 0
	}
	mode := search.Content
	switch {
	case *files:
		mode = search.FilesWithMatches
	case *count:
		mode = search.Count
	}
	if *both > 0 {
		*after, *before = *both, *both
	}
	res, err := search.Grep(ctx, s, ".", search.GrepOptions{
		Pattern: flag.Arg(0), IgnoreCase: *ignoreCase, Multiline: *multi, Mode: mode,
		LineNumbers: *lineNums, Before: *before, After: *after, Glob: *glob, Type: *typ,
		HeadLimit: *limit, Offset: *offset, Hidden: *hidden, NoIgnore: *noIgnore,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	for _, e := range res.Entries {
		out.WriteString(search.FormatEntry(e, res.LineNumbers))
		out.WriteByte('\n')
	}
	if len(res.Entries) == 0 {
		return 1
	}
	return 0
}
