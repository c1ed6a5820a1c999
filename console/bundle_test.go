package console_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// maxPageGzip is the page-weight budget (issue 40.5; 500 KB in issue 16): every file of the
// page, gzip-compressed.
const maxPageGzip = 150 << 10

// TestPageWeight keeps the console's page (ui/, as embedded: everything the page loads)
// within its budget. .ci/run runs it on its own to print the figure.
func TestPageWeight(t *testing.T) {
	names, err := filepath.Glob("ui/*")
	if err != nil {
		t.Fatal(err)
	}
	var total int
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var z bytes.Buffer
		w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		w.Write(b)
		w.Close()
		t.Logf("%s: %d bytes, %d gzip", name, len(b), z.Len())
		total += z.Len()
	}
	t.Logf("page: %d bytes gzip, %.1f KB of the %d KB budget (the wasm not counted: the console has none)", total, float64(total)/1024, maxPageGzip>>10)
	if total > maxPageGzip {
		t.Errorf("the page weighs %d bytes gzip, over the budget of %d", total, maxPageGzip)
	}
}

// TestVendorBundleCurrent rebuilds ui/vendor.js from ui-src (npm ci of the pinned
// package-lock.json, then esbuild) and fails when the committed copy differs: run
// ui-src/build.sh and commit. Skipped without npm (LLMFS_REQUIRE_NPM makes that a failure).
func TestVendorBundleCurrent(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		if os.Getenv("LLMFS_REQUIRE_NPM") != "" {
			t.Fatal("no npm on PATH, and LLMFS_REQUIRE_NPM is set")
		}
		t.Skip("no npm on PATH: the bundle check is skipped")
	}
	if testing.Short() {
		t.Skip("-short: the bundle check runs npm ci")
	}
	out := filepath.Join(t.TempDir(), "vendor.js")
	if b, err := exec.Command("sh", "ui-src/build.sh", out).CombinedOutput(); err != nil {
		t.Fatalf("ui-src/build.sh: %v\n%s", err, b)
	}
	built, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile("ui/vendor.js")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(built, committed) {
		t.Errorf("ui/vendor.js is stale (%d bytes committed, %d built): run console/ui-src/build.sh and commit", len(committed), len(built))
	}
}
