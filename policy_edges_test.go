//go:build !js && !wasip1

package llmfs

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDenyNameEdges: ruling a name out by its first and last bytes gives the answer that
// folding it and trying every rule gives, for names in upper and lower case, with
// non-ASCII letters that fold to ASCII (the Kelvin sign, the long s), combining marks that
// compose with an ASCII letter, and for rule sets with and without edges.
func TestDenyNameEdges(t *testing.T) {
	alphabet := []string{"a", "E", "n", "V", ".", "p", "M", "k", "y", "i", "d", "_", "r", "S", "A", "\u212a", "\u017f", "\u0301", "é", "x", "-"}
	ruleSets := [][]string{
		nil, // the defaults
		{"**/Secret*", "**/*.KEY2", "**/token"},
		{"**/é*", "**/*é"},
		{"secrets/**", "**/*.Key"}, // a rule of the whole path beside them
	}
	r := rand.New(rand.NewPCG(7, 8))
	for _, rules := range ruleSets {
		d, err := newDenyRules(&Options{Deny: rules})
		if err != nil {
			t.Fatal(err)
		}
		slow := *d
		slow.edges = false
		names := []string{"", ".env", ".ENV", ".Env.local", "ID_RSA.pub", "key.PEM", "k.pe\u212a", "\u212aey", "secret.txt", "e\u0301.txt", "x.e\u0301"}
		for range 20000 {
			var b strings.Builder
			for range 1 + r.IntN(8) {
				b.WriteString(alphabet[r.IntN(len(alphabet))])
			}
			names = append(names, b.String())
		}
		hits := 0
		for _, name := range names {
			got, want := d.matchName(name), slow.matchName(name)
			if got != want {
				t.Errorf("rules %q: matchName(%q) = %v, without edges %v", rules, name, got, want)
			}
			if want {
				hits++
			}
		}
		if hits == 0 {
			t.Errorf("rules %q: no name matched; the test checks nothing", rules)
		}
	}
}

// TestHiddenEntryAsHidden: a listing's shortcut, which matches an entry's name alone,
// hides what the full check of its path hides, at the root and in a subdirectory.
func TestHiddenEntryAsHidden(t *testing.T) {
	dir := t.TempDir()
	names := []string{".env", ".ENV.local", "a.PEM", "x.txt", "id_rsa", "Secret", "e\u0301.key", "k.pe\u212a", ".git", "plain"}
	for _, sub := range []string{"", "sub"} {
		for _, n := range names {
			if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, sub, n), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	w := openHost(t, &Options{Root: dir, Deny: []string{"**/secret*"}})
	ctx := context.Background()
	hidden := 0
	for _, d := range []string{".", "sub"} {
		des, err := w.store.ReadDir(ctx, d)
		if err != nil {
			t.Fatal(err)
		}
		for _, de := range des {
			got, want := w.hiddenEntry(ctx, d, de), w.hidden(ctx, joinName(d, de.Name()), de)
			if got != want {
				t.Errorf("%s/%s: hiddenEntry %v, hidden %v", d, de.Name(), got, want)
			}
			if want {
				hidden++
			}
		}
	}
	if hidden < 10 {
		t.Errorf("only %d entries hidden: the rules did not apply", hidden)
	}
}
