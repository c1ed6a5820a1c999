package search

import (
	"bytes"
	"context"
	"errors"
	"io"
	"unicode/utf8"

	"github.com/llmfs/llmfs/internal/binfile"
)

var (
	errBadMode  = errors.New("want files_with_matches, content or count")
	errNegative = errors.New("head_limit, offset and context must not be negative")
)

const (
	partBytes     = 256 << 10   // a file's output handed on at a time (searcher.part)
	sampleBytes   = 256 << 10   // text a searcher samples to pick its finder's bytes by
	samplePerFile = 16 << 10    // of each file at most: a sample of many files
	bufSize       = 128 << 10   // the buffer each worker reuses
	maxBufSize    = 16 << 20    // a longer line is searched in pieces of this size
	keepBig       = 2 << 20     // a searcher keeps a buffer grown up to this size
	binaryScan    = binfile.Len // a NUL byte in this many leading bytes makes a file binary
)

// searcher searches one file at a time with a buffer it keeps between files. It is used
// by one goroutine.
type searcher struct {
	m             *matcher
	mode          OutputMode
	before, after int
	max           int // stop a file after this many entries; 0 = no limit
	maxLine       int // bytes of a line kept in an entry; 0 = all
	buf           []byte
	// small is the bufSize buffer buf starts as, kept while a long line holds a grown
	// one, and searched with again from the next file on.
	small []byte
	// big is the largest buffer grown for a long line, at most keepBig bytes, kept for
	// the next file with one: a tree's few long-line files (three in Go's) would each
	// allocate up to two fresh megabytes, and every fresh page costs a fault.
	big  []byte
	dfa  *dfa    // this searcher's automaton (line mode)
	find *finder // the finder for this file: base, or one tuned to it

	// The finder of this searcher's files: m.find until sample holds sampleBytes of
	// the text searched, then one whose pair of bytes stops least often in it.
	base    *finder
	sample  []byte
	sampled bool

	// part, when set, takes a file's lines as they are found, about partBytes at a time,
	// so that a file with millions of matching lines is never held whole; it returns
	// false to stop the file. What is left when the file ends is still returned by search.
	part func([]Entry) bool

	// Per file.
	name      string
	binary    bool // the file was skipped as binary
	out       []Entry
	outBytes  int  // roughly the memory out holds
	parted    int  // entries of this file already handed to part
	halted    bool // part said stop
	count     int
	lnPos     int // buffer offset of a line start whose number is lineNo
	lineNo    int
	lastLine  int // number of the last line emitted, 0 if none
	emitEnd   int // buffer offset just past the last line emitted; <= 0 if before the buffer
	afterLeft int // context lines still owed after the last match
}

// search reads r and returns the file's entries: one [KindFile] or [KindCount] entry, or
// its lines. A binary file, or one that fails to read, gives none.
func (s *searcher) search(ctx context.Context, r io.Reader, name string) []Entry {
	return s.searchIn(ctx, r, nil, name)
}

// searchContent is search over a file's whole content, already in memory (a database
// store lists small files with theirs): it is searched where it is, not copied into the
// buffer first (3% of a grep's CPU on a SQLite workspace of the Go tree). The content is
// not changed.
func (s *searcher) searchContent(ctx context.Context, data []byte, name string) []Entry {
	own := s.buf
	defer func() { s.buf = own }()
	return s.searchIn(ctx, nil, data, name)
}

// searchIn searches r, or when r is nil, data in place.
func (s *searcher) searchIn(ctx context.Context, r io.Reader, data []byte, name string) []Entry {
	s.name, s.out, s.count, s.binary = name, nil, 0, false
	s.outBytes, s.parted, s.halted = 0, 0, false
	s.lnPos, s.lineNo, s.lastLine, s.emitEnd, s.afterLeft = 0, 1, 0, 0, 0
	if len(s.buf) > bufSize {
		s.buf = s.small // do not keep a huge buffer after a huge file
		if s.buf == nil {
			s.buf = make([]byte, bufSize)
		}
	}
	end, eof := len(data), true
	var err error
	if r == nil {
		// All of it, which nothing below writes to: it is never shifted or grown,
		// since the end of the file is already there.
		s.buf = data[:end:end]
	} else if end, eof, err = s.fill(r, 0, binaryScan); err != nil {
		return nil
	}
	if binfile.Sniff(s.buf[:min(end, binaryScan)], true) {
		s.binary = true
		return nil
	}
	if bytes.HasPrefix(s.buf[:end], []byte(utf8BOM)) {
		// A byte order mark is no part of the first line, as in ripgrep: "^" matches
		// after it, and it is not shown.
		if r == nil {
			s.buf, end = s.buf[len(utf8BOM):end], end-len(utf8BOM)
		} else {
			end = copy(s.buf, s.buf[len(utf8BOM):end])
		}
	}
	if s.dfa != nil {
		s.dfa.newFile()
	}
	if s.base == nil {
		s.base = s.m.find
	}
	if s.base != nil && !s.sampled {
		if s.sample == nil {
			s.sample = make([]byte, 0, sampleBytes) // filled once, never grown
		}
		s.sample = append(s.sample, s.buf[:min(end, sampleBytes-len(s.sample), samplePerFile)]...)
		if len(s.sample) >= sampleBytes {
			s.base, s.sampled, s.sample = s.base.sampled(s.sample), true, nil
		}
	}
	s.find = s.base
	if s.find != nil && !eof {
		// A large file: fill the buffer and pick the literal's rarest byte in it.
		if end, eof, err = s.fill(r, end, len(s.buf)); err != nil {
			return nil
		}
		if end == len(s.buf) {
			s.find = s.find.tuned(s.buf[:end])
		}
	}
	if s.m.spanLines {
		for !eof {
			if end == len(s.buf) {
				s.grow(end, 2)
			}
			if end, eof, err = s.fill(r, end, len(s.buf)); err != nil {
				return nil
			}
		}
		s.multiline(s.buf[:end])
		return s.result()
	}
	pos := 0
	for {
		var stop int
		if eof {
			stop = end
		} else if i := bytes.LastIndexByte(s.buf[pos:end], '\n'); i >= 0 {
			stop = pos + i + 1
		} else if end < len(s.buf) {
			stop = pos // read more first
		} else if len(s.buf) < maxBufSize {
			// One line fills the buffer: grow it, keeping what is there.
			s.grow(end, 4)
			stop = pos
		} else {
			stop = end // a line too long to hold: search it in pieces
		}
		if stop > pos && !s.lines(pos, stop) {
			return s.result()
		}
		pos = stop
		if eof || ctx.Err() != nil {
			break
		}
		end, pos = s.shift(pos, end)
		if end, eof, err = s.fill(r, end, len(s.buf)); err != nil {
			return nil
		}
	}
	return s.result()
}

// grow replaces s.buf by one by times larger (at most maxBufSize for a line) that
// starts with s.buf[:end]. The bytes past end are not copied, and a new buffer is not
// cleared but where the heap reuses memory: each page touched costs a fault, which on a
// virtual machine made the three files of Go's tree with a line longer than bufSize a
// tenth of a grep's CPU when the buffer doubled by append (issue 40).
func (s *searcher) grow(end, by int) {
	n := len(s.buf) * by
	if !s.m.spanLines {
		n = min(n, maxBufSize)
	}
	if len(s.buf) == bufSize && s.small == nil {
		s.small = s.buf
	}
	var nb []byte
	if len(s.big) >= n {
		nb = s.big[:n] // may be s.buf's own memory: the copy below then moves nothing
	} else {
		nb = make([]byte, n)
		if n <= keepBig {
			s.big = nb
		}
	}
	copy(nb, s.buf[:end])
	s.buf = nb
}

// fill reads into s.buf from end until it holds want bytes, is full, or r is exhausted.
func (s *searcher) fill(r io.Reader, end, want int) (int, bool, error) {
	want = min(want, len(s.buf))
	for end < want {
		n, err := r.Read(s.buf[end:])
		end += n
		if err == io.EOF {
			return end, true, nil
		}
		if err != nil {
			return end, false, err
		}
		if n == 0 {
			return end, false, io.ErrNoProgress
		}
		if end < len(s.buf) && want == len(s.buf) {
			// A short read of a regular file usually means its end; let the caller
			// search what it has rather than ask again right away.
			continue
		}
	}
	return end, false, nil
}

// shift moves the unsearched bytes from pos to the start of the buffer, keeping the lines
// before pos that before-context might still show. It returns the new end and pos.
func (s *searcher) shift(pos, end int) (int, int) {
	keep := pos
	if s.mode == Content {
		s.advance(pos)
		for i := 0; i < s.before && keep > 0; i++ {
			keep = bytes.LastIndexByte(s.buf[:keep-1], '\n') + 1
		}
	}
	copy(s.buf, s.buf[keep:end])
	s.lnPos -= keep
	s.emitEnd -= keep
	return end - keep, pos - keep
}

// advance moves the line counter to the line starting at p (p >= s.lnPos).
func (s *searcher) advance(p int) {
	s.lineNo += bytes.Count(s.buf[s.lnPos:p], []byte{'\n'})
	s.lnPos = p
}

// lineAt returns the number of the line starting at p.
func (s *searcher) lineAt(p int) int {
	if p >= s.lnPos {
		s.advance(p)
		return s.lineNo
	}
	return s.lineNo - bytes.Count(s.buf[p:s.lnPos], []byte{'\n'})
}

// lineEnd returns the offset just past the line that starts at p in b.
func lineEnd(b []byte, p int) int {
	if i := bytes.IndexByte(b[p:], '\n'); i >= 0 {
		return p + i + 1
	}
	return len(b)
}

// lines searches the whole lines s.buf[a:b]. It returns false once the file needs no
// more searching.
func (s *searcher) lines(a, b int) bool {
	buf := s.buf[:b]
	p := a
	for p < b {
		ms, me, ok := s.m.nextLine(buf[p:b], s.dfa, s.find)
		if !ok {
			s.trailing(buf, p, b)
			return true
		}
		ms, me = ms+p, me+p
		if !s.block(buf, p, ms, me, 1) {
			return false
		}
		p = me
	}
	return true
}

// multiline searches a whole file whose matches may span lines, as ripgrep does: each
// search starts where the last match ended; a match covers the lines it touches, and
// matches whose lines overlap or adjoin form one block. In count mode a block counts the
// matches in it.
func (s *searcher) multiline(data []byte) {
	if s.m.find != nil && s.m.find.index(data) < 0 {
		return
	}
	prev := 0       // end of the last block recorded
	bs, be := -1, 0 // the block being gathered; bs < 0 when none
	record := func() bool {
		n := 1
		if s.mode == Count {
			n = s.countIn(data, bs, be)
		}
		ok := s.block(data, prev, bs, be, n)
		prev, bs = be, -1
		return ok
	}
	next := s.matches(data)
	for {
		ms, me, ok := next()
		if !ok {
			break
		}
		ls := bytes.LastIndexByte(data[:ms], '\n') + 1
		le := me
		if me == ls || data[me-1] != '\n' {
			le = lineEnd(data, me)
		}
		if bs >= 0 && be >= ls {
			be = max(be, le)
			continue
		}
		if bs >= 0 && !record() {
			return
		}
		if ls == le {
			break // an empty match after the last newline: no line to show
		}
		bs, be = ls, le
	}
	if bs >= 0 && !record() {
		return
	}
	s.trailing(data, prev, len(data))
}

// matches returns an iterator over the successive matches of the multiline pattern in
// data, each search starting where the last match ended (one byte on after an empty
// match). Go's regexp cannot start a search inside a text with the character before in
// view, so a pattern that looks back (^, \b) has its matches found in one pass instead.
func (s *searcher) matches(data []byte) func() (int, int, bool) {
	if s.m.behind {
		all := s.m.buf.FindAllIndex(data, -1)
		return func() (int, int, bool) {
			if len(all) == 0 {
				return 0, 0, false
			}
			m := all[0]
			all = all[1:]
			return m[0], m[1], true
		}
	}
	pos := 0
	return func() (int, int, bool) {
		if pos > len(data) {
			return 0, 0, false
		}
		loc := s.m.buf.FindIndex(data[pos:])
		if loc == nil {
			return 0, 0, false
		}
		ms, me := pos+loc[0], pos+loc[1]
		pos = me
		if ms == me {
			pos++
		}
		return ms, me, true
	}
}

// countIn counts the matches that start in the block data[bs:be], as ripgrep counts a
// multiline block.
func (s *searcher) countIn(data []byte, bs, be int) int {
	n := 0
	for _, m := range s.m.buf.FindAllIndex(data[bs:min(be+1, len(data))], -1) {
		if bs+m[0] < be {
			n++
		}
	}
	return max(n, 1)
}

// block records the matching lines buf[ms:me], searched from p, and adds n to the count:
// in content mode with the context owed after the previous match and before this one. It returns false once the
// file needs no more searching.
func (s *searcher) block(buf []byte, p, ms, me, n int) bool {
	s.count += n
	switch s.mode {
	case FilesWithMatches:
		return false
	case Count:
		return true
	}
	q := p
	for s.afterLeft > 0 && q < ms {
		le := lineEnd(buf, q)
		s.emit(buf, q, le, KindContext)
		s.afterLeft--
		q = le
	}
	k := ms
	floor := max(s.emitEnd, 0)
	for i := 0; i < s.before && k > floor; i++ {
		k = bytes.LastIndexByte(buf[floor:k-1], '\n') + 1 + floor
	}
	for k < ms {
		le := lineEnd(buf, k)
		s.emit(buf, k, le, KindContext)
		k = le
	}
	for k < me {
		le := lineEnd(buf[:me], k)
		s.emit(buf, k, le, KindMatch)
		k = le
	}
	s.afterLeft = s.after
	return !s.halted && (s.max == 0 || s.parted+len(s.out) < s.max)
}

// trailing emits the context owed after the last match from the lines buf[p:b].
func (s *searcher) trailing(buf []byte, p, b int) {
	for s.afterLeft > 0 && p < b {
		le := lineEnd(buf[:b], p)
		s.emit(buf, p, le, KindContext)
		s.afterLeft--
		p = le
	}
}

// emit records the line buf[ls:le].
func (s *searcher) emit(buf []byte, ls, le int, kind EntryKind) {
	n := s.lineAt(ls)
	if s.lastLine > 0 && n > s.lastLine+1 && (s.before > 0 || s.after > 0) {
		s.out = append(s.out, Entry{Kind: KindSeparator})
	}
	text, full := trimNL(buf[ls:le]), 0
	if s.maxLine > 0 && len(text) > s.maxLine {
		full = len(text)
		text = text[:s.maxLine]
		// Cut at a character boundary: drop the bytes of a rune the cut split.
		for i := 0; i < utf8.UTFMax && i < len(text); i++ {
			if utf8.RuneStart(text[len(text)-1-i]) {
				if !utf8.FullRune(text[len(text)-1-i:]) {
					text = text[:len(text)-1-i]
				}
				break
			}
		}
	}
	s.out = append(s.out, Entry{Kind: kind, Path: s.name, Line: n, Text: string(text), Len: full})
	s.lastLine = n
	s.emitEnd = le
	s.outBytes += entrySize + len(text)
	if s.part != nil && s.outBytes >= partBytes && !s.halted {
		out := s.out
		s.out, s.outBytes, s.parted = nil, 0, s.parted+len(out)
		s.halted = !s.part(out)
	}
}

func (s *searcher) result() []Entry {
	switch {
	case s.count == 0:
		return nil
	case s.mode == FilesWithMatches:
		return []Entry{{Kind: KindFile, Path: s.name}}
	case s.mode == Count:
		return []Entry{{Kind: KindCount, Path: s.name, Count: s.count}}
	}
	return s.out
}
