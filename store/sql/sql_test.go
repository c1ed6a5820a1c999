//go:build !js && !wasip1

package sqlstore

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store"
)

var ctx = context.Background()

func writeString(t testing.TB, s store.Store, name, content string, opts store.WriteOptions) {
	t.Helper()
	if _, err := s.WriteFile(ctx, name, strings.NewReader(content), opts); err != nil {
		t.Fatalf("WriteFile(%q): %v", name, err)
	}
}

func readAll(t testing.TB, s store.Store, name string) string {
	t.Helper()
	f, err := s.Open(ctx, name)
	if err != nil {
		t.Fatalf("Open(%q): %v", name, err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatalf("read %q: %v", name, err)
	}
	return string(b)
}

// checkUsage compares the workspace's usage counters with a count of its rows.
func checkUsage(t testing.TB, s *Store) Usage {
	t.Helper()
	_, u, err := s.Quota(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var want Usage
	err = s.x.db.QueryRowContext(ctx, s.x.d.rebind(`SELECT COALESCE(SUM(size), 0), COUNT(*) - 1 FROM llmfs_nodes WHERE ws = ?`),
		s.ws).Scan(&want.Bytes, &want.Files)
	if err != nil {
		t.Fatal(err)
	}
	if u != want {
		t.Errorf("usage counters = %+v, rows hold %+v", u, want)
	}
	var chunkBytes int64
	err = s.x.db.QueryRowContext(ctx, s.x.d.rebind(`SELECT COALESCE(SUM(LENGTH(c.data)), 0) FROM llmfs_chunks c
		JOIN llmfs_nodes n ON n.blob = c.blob WHERE n.ws = ?`), s.ws).Scan(&chunkBytes)
	if err != nil {
		t.Fatal(err)
	}
	if chunkBytes != want.Bytes {
		t.Errorf("chunks hold %d bytes, file sizes add up to %d", chunkBytes, want.Bytes)
	}
	return u
}

// TestConditionalTwoHandles races IfMatch writes to one file through two *sql.DB handles,
// as two llmfs processes would: each round exactly one writer wins and every loser gets
// ErrChanged, so no update is lost.
func TestConditionalTwoHandles(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x1 := b.connect(t)
		x2 := b.connect(t)
		s1 := newWorkspace(t, x1, Quota{})
		s2, err := x2.Workspace(ctx, s1.ID(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if x1.db == x2.db {
			t.Fatal("the two stores share one *sql.DB")
		}
		writeString(t, s1, "counter", "0", store.WriteOptions{})
		const racers, rounds = 6, 15
		for round := range rounds {
			cur := readAll(t, s2, "counter")
			want := store.Hash([]byte(cur))
			var wg sync.WaitGroup
			errs := make([]error, racers)
			start := make(chan struct{})
			for i := range racers {
				s := s1
				if i%2 == 1 {
					s = s2
				}
				wg.Go(func() {
					<-start
					_, errs[i] = s.WriteFile(ctx, "counter", strings.NewReader(fmt.Sprintf("%d by %d", round+1, i)),
						store.WriteOptions{IfMatch: want})
				})
			}
			close(start)
			wg.Wait()
			winners := 0
			for i, err := range errs {
				switch {
				case err == nil:
					winners++
					if got, want := readAll(t, s1, "counter"), fmt.Sprintf("%d by %d", round+1, i); got != want {
						t.Fatalf("round %d: counter = %q, want the winner's %q", round, got, want)
					}
				case errors.Is(err, store.ErrChanged):
				default:
					t.Fatalf("round %d: racer %d: %v, want nil or ErrChanged", round, i, err)
				}
			}
			if winners != 1 {
				t.Fatalf("round %d: %d winners, want exactly 1", round, winners)
			}
		}
		// IfAbsent from both handles: one creates, the other is told the file appeared.
		for round := range rounds {
			name := fmt.Sprintf("new%d", round)
			var wg sync.WaitGroup
			errs := make([]error, 2)
			for i, s := range []*Store{s1, s2} {
				wg.Go(func() {
					_, errs[i] = s.WriteFile(ctx, name, strings.NewReader("x"), store.WriteOptions{IfAbsent: true})
				})
			}
			wg.Wait()
			if (errs[0] == nil) == (errs[1] == nil) {
				t.Fatalf("IfAbsent round %d: errors %v, %v: want exactly one nil", round, errs[0], errs[1])
			}
			for _, err := range errs {
				if err != nil && !errors.Is(err, store.ErrChanged) {
					t.Fatalf("IfAbsent round %d: %v, want ErrChanged", round, err)
				}
			}
		}
		// Appends and replaces from both handles: no append is lost or torn.
		const appenders, appends = 4, 25
		var wg sync.WaitGroup
		errc := make(chan error, 2*appenders*appends)
		for i := range 2 * appenders {
			s := []*Store{s1, s2}[i%2]
			wg.Go(func() {
				for k := range appends {
					line := fmt.Sprintf("appender %d line %d\n", i, k)
					if _, err := s.WriteFile(ctx, "log", strings.NewReader(line), store.WriteOptions{Mode: store.Append}); err != nil {
						errc <- err
					}
					if _, err := s.WriteFile(ctx, fmt.Sprintf("other%d", k%3), strings.NewReader(line), store.WriteOptions{}); err != nil {
						errc <- err
					}
				}
			})
		}
		wg.Wait()
		close(errc)
		for err := range errc {
			t.Fatal(err)
		}
		log := readAll(t, s2, "log")
		if n := strings.Count(log, "\n"); n != 2*appenders*appends {
			t.Fatalf("log has %d lines, want %d", n, 2*appenders*appends)
		}
		if _, err := s1.WriteFile(ctx, "log", strings.NewReader(""), store.WriteOptions{IfMatch: store.Hash([]byte(log))}); err != nil {
			t.Fatalf("hash after concurrent appends is not the content's: %v", err)
		}
		checkUsage(t, s1)
	})
}

func TestQuota(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		s := newWorkspace(t, x, Quota{MaxBytes: 100, MaxFiles: 4, MaxFileBytes: 60})
		isQuota := func(what string, err error) {
			t.Helper()
			if !errors.Is(err, store.ErrQuota) {
				t.Fatalf("%s: %v, want ErrQuota", what, err)
			}
			var pe *fs.PathError
			if !errors.As(err, &pe) {
				t.Fatalf("%s: %T is not a *fs.PathError", what, err)
			}
		}
		writeString(t, s, "a", strings.Repeat("a", 50), store.WriteOptions{})
		writeString(t, s, "b", strings.Repeat("b", 40), store.WriteOptions{})
		before := checkUsage(t, s)
		if before != (Usage{Bytes: 90, Files: 2}) {
			t.Fatalf("usage = %+v, want 90 bytes in 2 files", before)
		}

		_, err := s.WriteFile(ctx, "c", strings.NewReader(strings.Repeat("c", 11)), store.WriteOptions{})
		isQuota("write past MaxBytes", err)
		if _, err := s.Stat(ctx, "c"); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("failed write left %q behind: %v", "c", err)
		}
		_, err = s.WriteFile(ctx, "b", strings.NewReader(strings.Repeat("x", 11)), store.WriteOptions{Mode: store.Append})
		isQuota("append past MaxBytes", err)
		if got := readAll(t, s, "b"); got != strings.Repeat("b", 40) {
			t.Fatalf("failed append changed b to %q", got)
		}
		_, err = s.WriteFile(ctx, "b", strings.NewReader(strings.Repeat("x", 61)), store.WriteOptions{})
		isQuota("file past MaxFileBytes", err)
		err = s.Copy(ctx, "a", "a2")
		isQuota("copy past MaxBytes", err)
		if u := checkUsage(t, s); u != before {
			t.Fatalf("failed writes changed usage from %+v to %+v", before, u)
		}

		// Replacing with something smaller frees room; a write that fits exactly succeeds.
		writeString(t, s, "a", strings.Repeat("a", 10), store.WriteOptions{})
		writeString(t, s, "c", strings.Repeat("c", 50), store.WriteOptions{})
		s.Mkdir(ctx, "d")
		err = s.Mkdir(ctx, "e")
		isQuota("mkdir past MaxFiles", err)
		_, err = s.WriteFile(ctx, "d/f", strings.NewReader(""), store.WriteOptions{})
		isQuota("empty file past MaxFiles", err)
		if u := checkUsage(t, s); u != (Usage{Bytes: 100, Files: 4}) {
			t.Fatalf("usage = %+v, want 100 bytes in 4 entries", u)
		}

		// A larger-than-a-chunk write to a full workspace fails before streaming it all.
		if err := s.SetQuota(ctx, Quota{MaxBytes: ChunkSize}); err != nil {
			t.Fatal(err)
		}
		_, err = s.WriteFile(ctx, "big", io.LimitReader(zeros{}, 3*ChunkSize), store.WriteOptions{})
		isQuota("large write", err)

		// Lowering the quota below usage removes nothing, and shrinking still works.
		if err := s.SetQuota(ctx, Quota{MaxBytes: 10}); err != nil {
			t.Fatal(err)
		}
		writeString(t, s, "c", "c", store.WriteOptions{})
		if err := s.Remove(ctx, "a"); err != nil {
			t.Fatal(err)
		}
		if u := checkUsage(t, s); u != (Usage{Bytes: 41, Files: 3}) {
			t.Fatalf("usage = %+v, want 41 bytes in 3 entries", u)
		}
	})
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestUsageExact checks that the counters match the rows after a mix of every operation.
func TestUsageExact(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		s := newWorkspace(t, b.connect(t), Quota{})
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(s.Mkdir(ctx, "d"))
		must(s.Mkdir(ctx, "d/e"))
		writeString(t, s, "d/e/f", strings.Repeat("f", ChunkSize+7), store.WriteOptions{})
		writeString(t, s, "d/g", "g", store.WriteOptions{Mode: store.Append})
		writeString(t, s, "d/g", strings.Repeat("g", 2*ChunkSize), store.WriteOptions{Mode: store.Append})
		must(s.Copy(ctx, "d/e/f", "h"))
		must(s.Rename(ctx, "d", "D"))
		writeString(t, s, "D/e/f", "short", store.WriteOptions{})
		must(s.Remove(ctx, "D/g"))
		checkUsage(t, s)
	})
}

// TestLargeFile writes a 100 MB file, then checks that reading its start fetches no chunk
// beyond the first, that reading its end fetches one, and that an append changes only the
// last chunk and adds new ones, with the hash kept exact.
func TestLargeFile(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 100 MB")
	}
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		s := newWorkspace(t, x, Quota{})
		const size = 100 << 20
		const extra = 10 // bytes short of a whole number of chunks
		content := make([]byte, size-extra)
		for i := range content {
			content[i] = byte('a' + i%26)
			if i%80 == 79 {
				content[i] = '\n'
			}
		}
		n, err := s.WriteFile(ctx, "big.txt", bytes.NewReader(content), store.WriteOptions{})
		if err != nil || n != int64(len(content)) {
			t.Fatalf("WriteFile = %d, %v", n, err)
		}

		s.chunkReads.Store(0)
		f, err := s.Open(ctx, "big.txt")
		if err != nil {
			t.Fatal(err)
		}
		head := make([]byte, 50*80)
		if _, err := io.ReadFull(f, head); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(head, content[:len(head)]) {
			t.Fatal("first 50 lines differ")
		}
		if got := s.chunkReads.Load(); got != 0 {
			t.Errorf("reading 50 lines fetched %d chunks besides the first", got)
		}
		tail := make([]byte, 100)
		if _, err := f.(io.ReaderAt).ReadAt(tail, int64(len(content)-100)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(tail, content[len(content)-100:]) {
			t.Fatal("last 100 bytes differ")
		}
		if got := s.chunkReads.Load(); got != 1 {
			t.Errorf("reading the end fetched %d chunks, want 1", got)
		}
		f.Close()

		last := int64(len(content)) / ChunkSize
		before := chunkVersions(t, x, s, "big.txt")
		if int64(len(before)) != last+1 {
			t.Fatalf("%d chunks, want %d", len(before), last+1)
		}
		add := []byte(strings.Repeat("appended\n", 10000)) // 90,000 bytes: fills the last chunk, adds two
		n, err = s.WriteFile(ctx, "big.txt", bytes.NewReader(add), store.WriteOptions{Mode: store.Append})
		if err != nil || n != int64(len(add)) {
			t.Fatalf("append = %d, %v", n, err)
		}
		after := chunkVersions(t, x, s, "big.txt")
		content = append(content, add...)
		wantChunks := (int64(len(content)) + ChunkSize - 1) / ChunkSize
		if int64(len(after)) != wantChunks {
			t.Fatalf("%d chunks after append, want %d", len(after), wantChunks)
		}
		for seq, v := range before {
			if seq != last && after[seq] != v {
				t.Errorf("append rewrote chunk %d of %d", seq, last)
			}
		}
		if after[last] == before[last] {
			t.Errorf("append did not change the last chunk %d", last)
		}

		fi, err := s.Stat(ctx, "big.txt")
		if err != nil || fi.Size() != int64(len(content)) {
			t.Fatalf("Stat = %v, %v; want size %d", fi, err, len(content))
		}
		want := store.Hash(content)
		if _, err := s.WriteFile(ctx, "big.txt", strings.NewReader("x"), store.WriteOptions{Mode: store.Append, IfMatch: want}); err != nil {
			t.Fatalf("IfMatch with the hash of the appended content: %v", err)
		}
		content = append(content, 'x')
		got, err := store.HashReader(mustOpen(t, s, "big.txt"))
		if err != nil || got != store.Hash(content) {
			t.Fatalf("content hash %s, %v; want %s", got, err, store.Hash(content))
		}
		checkUsage(t, s)
	})
}

func mustOpen(t testing.TB, s store.Store, name string) fs.File {
	t.Helper()
	f, err := s.Open(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// chunkVersions returns, for each chunk of name, a value that changes whenever the row is
// written: PostgreSQL's xmin (the writing transaction), or on SQLite a counter bumped by
// triggers the test installs.
func chunkVersions(t testing.TB, x *DB, s *Store, name string) map[int64]string {
	t.Helper()
	var id int64
	if err := x.db.QueryRowContext(ctx, x.d.rebind(`SELECT blob FROM llmfs_nodes WHERE ws = ? AND path = ?`),
		s.ws, []byte(name)).Scan(&id); err != nil {
		t.Fatal(err)
	}
	q := `SELECT seq, CAST(xmin AS TEXT) FROM llmfs_chunks WHERE blob = ?`
	if x.d.name == SQLite {
		for _, stmt := range []string{
			`CREATE TABLE IF NOT EXISTS test_chunk_writes (blob BIGINT, seq BIGINT, n BIGINT, PRIMARY KEY (blob, seq))`,
			`CREATE TRIGGER IF NOT EXISTS test_chunk_ins AFTER INSERT ON llmfs_chunks BEGIN
				INSERT INTO test_chunk_writes VALUES (NEW.blob, NEW.seq, 1)
				ON CONFLICT (blob, seq) DO UPDATE SET n = n + 1; END`,
			`CREATE TRIGGER IF NOT EXISTS test_chunk_upd AFTER UPDATE ON llmfs_chunks BEGIN
				INSERT INTO test_chunk_writes VALUES (NEW.blob, NEW.seq, 1)
				ON CONFLICT (blob, seq) DO UPDATE SET n = n + 1; END`,
		} {
			if _, err := x.db.ExecContext(ctx, stmt); err != nil {
				t.Fatal(err)
			}
		}
		// Rows written before the triggers existed count as version 0.
		q = `SELECT c.seq, CAST(COALESCE(w.n, 0) AS TEXT) FROM llmfs_chunks c
			LEFT JOIN test_chunk_writes w ON w.blob = c.blob AND w.seq = c.seq WHERE c.blob = ?`
	}
	rows, err := x.db.QueryContext(ctx, x.d.rebind(q), id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var seq int64
		var v string
		if err := rows.Scan(&seq, &v); err != nil {
			t.Fatal(err)
		}
		out[seq] = v
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestOpenSnapshot checks what an open file sees when the file changes under it.
func TestOpenSnapshot(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		s := newWorkspace(t, b.connect(t), Quota{})
		old := strings.Repeat("o", 2*ChunkSize+5)
		writeString(t, s, "f", old, store.WriteOptions{})

		// An append is not seen: the file ends where it ended when opened.
		f := mustOpen(t, s, "f")
		writeString(t, s, "f", "more", store.WriteOptions{Mode: store.Append})
		b1, err := io.ReadAll(f)
		if err != nil || string(b1) != old {
			t.Fatalf("after an append, read %d bytes, %v; want the %d bytes there at Open", len(b1), err, len(old))
		}

		// A rename does not disturb it.
		f = mustOpen(t, s, "f")
		if err := s.Rename(ctx, "f", "g"); err != nil {
			t.Fatal(err)
		}
		if b1, err := io.ReadAll(f); err != nil || string(b1) != old+"more" {
			t.Fatalf("after a rename, read %d bytes, %v", len(b1), err)
		}

		// A replace makes chunks not yet read fail, never mix.
		f = mustOpen(t, s, "g")
		writeString(t, s, "g", strings.Repeat("n", 2*ChunkSize+5), store.WriteOptions{})
		b1, err = io.ReadAll(f)
		if !errors.Is(err, store.ErrChanged) {
			t.Fatalf("after a replace, read %d bytes, %v; want ErrChanged", len(b1), err)
		}
		if strings.Contains(string(b1), "n") {
			t.Fatal("read mixed old and new content")
		}
	})
}

// TestRenameLargeDirectory moves a directory holding many entries and checks every one
// arrived, with listings by parent still right.
func TestRenameLargeDirectory(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		s := newWorkspace(t, x, Quota{})
		const dirs, files = 20, 500 // 10,020 descendants
		if err := s.Mkdir(ctx, "a"); err != nil {
			t.Fatal(err)
		}
		if err := s.Mkdir(ctx, "a0"); err != nil { // sorts just after "a/": must not move
			t.Fatal(err)
		}
		// Insert the tree in one transaction, a directory per statement: this test is
		// about Rename, not WriteFile.
		err := x.write(ctx, false, func(tx *txn) error {
			for d := range dirs {
				dir := fmt.Sprintf("a/d%02d", d)
				q := `INSERT INTO llmfs_nodes (ws, path, parent, name, dir, size, mtime, hash) VALUES (?, ?, ?, ?, 1, 0, 0, '')`
				args := []any{s.ws, []byte(dir), []byte("a"), []byte(filepath.Base(dir))}
				for f := range files {
					p := fmt.Sprintf("%s/f%03d", dir, f)
					q += `, (?, ?, ?, ?, 0, 0, 0, ?)`
					args = append(args, s.ws, []byte(p), []byte(dir), []byte(filepath.Base(p)), store.Hash(nil))
				}
				if _, err := tx.exec(q, args...); err != nil {
					return err
				}
			}
			return s.account(tx, 0, dirs*(files+1), 0)
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Mkdir(ctx, "b"); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if err := s.Rename(ctx, "a", "b/c"); err != nil {
			t.Fatal(err)
		}
		t.Logf("renamed a directory of %d descendants in %v", dirs*(files+1), time.Since(start))
		for d := range dirs {
			des, err := s.ReadDir(ctx, fmt.Sprintf("b/c/d%02d", d))
			if err != nil || len(des) != files {
				t.Fatalf("ReadDir(b/c/d%02d) = %d entries, %v", d, len(des), err)
			}
		}
		writeString(t, s, "b/c/d03/new", "x", store.WriteOptions{})
		if _, err := s.Stat(ctx, "a/d00/f000"); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("old path still there: %v", err)
		}
		if _, err := s.Stat(ctx, "a0"); err != nil {
			t.Fatalf("a0 moved with a: %v", err)
		}
		var left int
		x.db.QueryRowContext(ctx, x.d.rebind(`SELECT COUNT(*) FROM llmfs_nodes WHERE ws = ? AND parent >= ? AND parent < ?`),
			s.ws, []byte("a/"), []byte("a0")).Scan(&left)
		if left != 0 {
			t.Fatalf("%d rows still have a parent under a/", left)
		}
		checkUsage(t, s)
	})
}

// TestWorkspaces checks that workspaces are isolated and can be listed and removed.
func TestWorkspaces(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		s1 := newWorkspace(t, x, Quota{})
		s2 := newWorkspace(t, x, Quota{MaxFiles: 9})
		writeString(t, s1, "same", "one", store.WriteOptions{})
		writeString(t, s2, "same", "two", store.WriteOptions{})
		if a, b := readAll(t, s1, "same"), readAll(t, s2, "same"); a != "one" || b != "two" {
			t.Fatalf("workspaces read %q and %q", a, b)
		}
		des, err := s1.ReadDir(ctx, ".")
		if err != nil || len(des) != 1 {
			t.Fatalf("ReadDir = %v, %v", des, err)
		}
		ws, err := x.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		found := 0
		for _, w := range ws {
			if w.ID == s2.ID() {
				found++
				if w.Quota.MaxFiles != 9 || w.Usage != (Usage{Bytes: 3, Files: 1}) {
					t.Errorf("List: %+v", w)
				}
			}
			if w.ID == s1.ID() {
				found++
			}
		}
		if found != 2 {
			t.Fatalf("List found %d of the 2 workspaces", found)
		}
		if err := x.Create(ctx, s1.ID(), Quota{}); !errors.Is(err, fs.ErrExist) {
			t.Fatalf("Create existing: %v", err)
		}
		if _, err := x.Workspace(ctx, "no-such-workspace", nil); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("Workspace missing: %v", err)
		}
		for _, id := range []string{"", "a\nb", string([]byte{0xff}), strings.Repeat("x", 65), "no such workspace"} {
			if err := x.Create(ctx, id, Quota{}); !errors.Is(err, fs.ErrInvalid) {
				t.Errorf("Create(%q): %v, want ErrInvalid", id, err)
			}
		}
		id := "created-by-open-" + s1.ID()
		s3, err := x.Workspace(ctx, id, &Options{Create: true, Quota: Quota{MaxBytes: 5}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s3.WriteFile(ctx, "f", strings.NewReader("123456"), store.WriteOptions{}); !errors.Is(err, store.ErrQuota) {
			t.Fatalf("quota of a workspace made by Open: %v", err)
		}
		writeString(t, s3, "f", "12345", store.WriteOptions{})
		// The contents of this workspace's files: other tests share the database, so
		// only these are checked for chunks left behind.
		var blobs []int64
		rows, err := x.db.QueryContext(ctx, x.d.rebind(`SELECT n.blob FROM llmfs_nodes n JOIN llmfs_workspaces w ON n.ws = w.id WHERE w.name = ? AND n.blob <> 0`), id)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var b int64
			if err := rows.Scan(&b); err != nil {
				t.Fatal(err)
			}
			blobs = append(blobs, b)
		}
		rows.Close()
		if err := x.Remove(ctx, id); err != nil {
			t.Fatal(err)
		}
		if _, err := s3.Stat(ctx, "f"); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("Stat in a removed workspace: %v", err)
		}
		if err := x.Remove(ctx, id); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("Remove twice: %v", err)
		}
		for _, b := range blobs {
			var orphans int
			q := `SELECT COUNT(*) FROM llmfs_chunks WHERE blob = ? AND NOT EXISTS (SELECT 1 FROM llmfs_nodes WHERE blob = ?)`
			if err := x.db.QueryRowContext(ctx, x.d.rebind(q), b, b).Scan(&orphans); err != nil {
				t.Fatal(err)
			}
			if orphans != 0 {
				t.Fatalf("content %d of the removed workspace: %d chunks left without a file", b, orphans)
			}
		}
	})
}

// TestMigrateConcurrently opens a fresh database from several handles at once.
func TestMigrateConcurrently(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		var dsn string
		switch b.name {
		case "SQLite":
			dsn = "sqlite:" + filepath.Join(t.TempDir(), "fresh.db")
		case "Postgres":
			dsn = freshPostgres(t)
		}
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Go(func() {
				s, err := OpenDSN(ctx, dsn, "shared", &Options{Create: true})
				if err == nil {
					_, err = s.WriteFile(ctx, fmt.Sprintf("f%d", i), strings.NewReader("x"), store.WriteOptions{})
					s.Close()
				}
				errs[i] = err
			})
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("opener %d: %v", i, err)
			}
		}
		s, err := OpenDSN(ctx, dsn, "shared", nil)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		var versions int
		s.x.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM llmfs_schema`).Scan(&versions)
		if versions != len(migrations) {
			t.Fatalf("llmfs_schema holds %d rows, want %d", versions, len(migrations))
		}
		if des, err := s.ReadDir(ctx, "."); err != nil || len(des) != len(errs) {
			t.Fatalf("ReadDir = %d entries, %v", len(des), err)
		}
	})
}

// freshPostgres creates an empty database beside the test one and drops it at cleanup.
func freshPostgres(t *testing.T) string {
	t.Helper()
	base := os.Getenv(postgresEnv)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	name := fmt.Sprintf("llmfs_fresh_%d", os.Getpid())
	admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name)
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Skipf("cannot create a database to test migrations on: %v", err)
	}
	t.Cleanup(func() { admin.ExecContext(ctx, "DROP DATABASE "+name+" WITH (FORCE)") })
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s is not a URL: %v", postgresEnv, err)
	}
	u.Path = "/" + name
	return u.String()
}

// TestOddPath opens a database whose path holds characters special in URIs.
func TestOddPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a#1 %41")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := OpenDSN(ctx, "sqlite:"+filepath.Join(dir, "x.db"), "w", &Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := os.Stat(filepath.Join(dir, "x.db")); err != nil {
		t.Fatalf("database not where the DSN says: %v", err)
	}
}

func TestMemoryDSN(t *testing.T) {
	s, err := OpenDSN(ctx, "sqlite::memory:", "w", &Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	writeString(t, s, "f", "hello", store.WriteOptions{})
	if got := readAll(t, s, "f"); got != "hello" {
		t.Fatalf("read %q", got)
	}
	if err := s.Copy(ctx, "f", "g"); err != nil {
		t.Fatal(err)
	}
}

func TestParseDSN(t *testing.T) {
	type test struct {
		dsn, driver string
		d           Dialect
		source      string
	}
	for _, tt := range []test{
		{"sqlite:/tmp/x.db", "sqlite", SQLite, "file:/tmp/x.db?_journal_mode=WAL&_pragma=busy_timeout%2830000%29&_pragma=page_size%284096%29&_pragma=synchronous%28NORMAL%29&_txlock=immediate"},
		{"sqlite:x.db?_pragma=synchronous(FULL)", "sqlite", SQLite, "file:x.db?_journal_mode=WAL&_pragma=synchronous%28FULL%29&_pragma=busy_timeout%2830000%29&_pragma=page_size%284096%29&_txlock=immediate"},
		{"sqlite:x.db?_pragma=journal_mode(DELETE)&_pragma=page_size(4096)", "sqlite", SQLite, "file:x.db?_pragma=journal_mode%28DELETE%29&_pragma=page_size%284096%29&_pragma=busy_timeout%2830000%29&_pragma=synchronous%28NORMAL%29&_txlock=immediate"},
		{"sqlite:/tmp/a#1%/x.db", "sqlite", SQLite, "file:/tmp/a%231%25/x.db?_journal_mode=WAL&_pragma=busy_timeout%2830000%29&_pragma=page_size%284096%29&_pragma=synchronous%28NORMAL%29&_txlock=immediate"},
		{"postgres://u@h/db", "pgx", Postgres, "postgres://u@h/db"},
		{"postgresql://u@h/db", "pgx", Postgres, "postgresql://u@h/db"},
	} {
		driver, d, source, err := parseDSN(tt.dsn)
		if err != nil || driver != tt.driver || d != tt.d || source != tt.source {
			t.Errorf("parseDSN(%q) = %q, %q, %q, %v; want %q, %q, %q", tt.dsn, driver, d, source, err, tt.driver, tt.d, tt.source)
		}
	}
	for _, dsn := range []string{"", "sqlite:", "mysql://x", "/tmp/x.db"} {
		if _, _, _, err := parseDSN(dsn); err == nil {
			t.Errorf("parseDSN(%q) succeeded", dsn)
		}
	}
}
