package search

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestSortFound checks the parallel sort against slices.SortFunc for run counts that
// leave an odd run out and sizes around sortRun, with many ties of time (the paths decide).
func TestSortFound(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	base := time.Unix(1_700_000_000, 0)
	for _, n := range []int{0, 1, 100, sortRun*2 - 1, sortRun * 2, sortRun*3 + 17, 50_000} {
		for _, threads := range []int{1, 2, 3, 5, 8} {
			found := make([]Found, n)
			for i := range found {
				found[i] = Found{Path: fmt.Sprintf("d%d/f%d.c", rng.IntN(50), i), ModTime: base.Add(time.Duration(rng.IntN(3)) * time.Second)}
			}
			want := slices.Clone(found)
			slices.SortFunc(want, newestFirst)
			sortFound(found, threads)
			if !slices.Equal(found, want) {
				t.Fatalf("n=%d threads=%d: sortFound differs from slices.SortFunc", n, threads)
			}
		}
	}
}

// BenchmarkSortFound sorts 32,000 paths of one modification time, as a find of the Linux
// tree's *.c files does.
func BenchmarkSortFound(b *testing.B) {
	mt := time.Unix(1_793_988_916, 0)
	src := make([]Found, 32_000)
	for i := range src {
		src[i] = Found{Path: fmt.Sprintf("drivers/net/ethernet/vendor%d/part%d/file%d.c", i%97, i%13, i), ModTime: mt}
	}
	rand.New(rand.NewPCG(3, 4)).Shuffle(len(src), func(i, j int) { src[i], src[j] = src[j], src[i] })
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprint("threads=", threads), func(b *testing.B) {
			found := make([]Found, len(src))
			for b.Loop() {
				copy(found, src)
				sortFound(found, threads)
			}
		})
	}
}
