package namesort

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// check sorts a copy of names with Strings and with slices.Sort and compares them.
func check(t *testing.T, names []string) {
	t.Helper()
	got := slices.Clone(names)
	Strings(got)
	want := slices.Clone(names)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("Strings(%d names) differs from slices.Sort:\ngot  %q\nwant %q", len(names), got, want)
	}
}

// TestStringsAsSlicesSort: the byte order of strings.Compare, for names that differ
// early, late, past eight and sixteen bytes, have NUL bytes (which the zero padding of a
// short word must not confuse with the end), repeat, or are empty.
func TestStringsAsSlicesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabets := []string{"ab", "abc\x00", "abcdefghijklmnopqrstuvwxyz0123456789._-", "\x00\x01\xff", "é日a"}
	for _, n := range []int{0, 1, 2, smallRun - 1, smallRun, smallRun + 1, 200, 5000} {
		for _, prefix := range []string{"", "f", "abcdefg", "abcdefgh", "test_data_file_", strings.Repeat("x", 17)} {
			for _, alpha := range alphabets {
				names := make([]string, n)
				for i := range names {
					var b strings.Builder
					b.WriteString(prefix)
					for range r.IntN(12) {
						b.WriteByte(alpha[r.IntN(len(alpha))])
					}
					names[i] = b.String()
				}
				t.Run(fmt.Sprintf("n=%d/prefix=%q/alpha=%q", n, prefix, alpha), func(t *testing.T) { check(t, names) })
			}
		}
	}
	check(t, []string{"a", "a\x00", "a\x00\x00", "a\x00b", "", "\x00", "a", "abcdefgh", "abcdefgh\x00", "abcdefg"})
}

// TestSortValues: Sort moves whole values, by the key it is given.
func TestSortValues(t *testing.T) {
	type entry struct {
		name string
		n    int
	}
	var es []entry
	for i := range 1000 {
		es = append(es, entry{fmt.Sprintf("f%05d.txt", (i*7919)%1000), (i * 7919) % 1000})
	}
	Sort(es, func(e *entry) string { return e.name })
	for i, e := range es {
		if e.n != i || e.name != fmt.Sprintf("f%05d.txt", i) {
			t.Fatalf("es[%d] = %+v", i, e)
		}
	}
}

func FuzzStrings(f *testing.F) {
	f.Add([]byte("a\nb\nabcdefghij\nabcdefgh\n\x00\n"), uint8(60))
	f.Fuzz(func(t *testing.T, data []byte, copies uint8) {
		// Split into names, then repeat them with suffixes so that groups exceed smallRun.
		parts := strings.Split(string(data), "\n")
		var names []string
		for i := range int(copies) {
			for _, p := range parts {
				names = append(names, p+strings.Repeat("\x00", i%3)+string(rune('a'+i%5)))
			}
		}
		names = append(names, parts...)
		check(t, names)
	})
}

func BenchmarkSortNames(b *testing.B) {
	for _, shape := range []struct{ name, format string }{
		{"short", "f%05d.txt"},
		{"shared-prefix", "test_data_fixture_%05d.json"},
	} {
		src := make([]string, 10000)
		for i := range src {
			src[i] = fmt.Sprintf(shape.format, i)
		}
		if shape.name == "shared-prefix" {
			src[0] = "test_data_fixture_" // a key that is the others' prefix
		}
		rand.New(rand.NewPCG(3, 4)).Shuffle(len(src), func(i, j int) { src[i], src[j] = src[j], src[i] })
		names := make([]string, len(src))
		b.Run(shape.name+"/namesort", func(b *testing.B) {
			for b.Loop() {
				copy(names, src)
				Strings(names)
			}
		})
		b.Run(shape.name+"/slices.Sort", func(b *testing.B) {
			for b.Loop() {
				copy(names, src)
				slices.Sort(names)
			}
		})
	}
}
