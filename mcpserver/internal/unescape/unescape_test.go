package unescape

import (
	"bytes"
	"encoding/json"
	"testing"
)

// Issue 13.10: the go-sdk writes <, > and & as \u003c, \u003e, \u0026. The Writer undoes
// exactly those, in any JSON, however the text is cut into writes.
func TestUnescaperExact(t *testing.T) {
	v := map[string]any{"text": `a < b && c > d; \u003c stays; "\\"; é ` + "\u2028", "n": 1}
	in, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(in, []byte(`\u003c`)) {
		t.Fatalf("json.Marshal no longer escapes: %s", in)
	}
	for size := 1; size <= len(in); size++ {
		var out bytes.Buffer
		u := Writer{W: &out}
		for rest := in; len(rest) > 0; {
			n := min(size, len(rest))
			if k, err := u.Write(rest[:n]); k != n || err != nil {
				t.Fatalf("Write = %d, %v", k, err)
			}
			rest = rest[n:]
		}
		u.Flush()
		if bytes.Contains(out.Bytes(), []byte(`\u003c b`)) || bytes.Contains(out.Bytes(), []byte(`\u0026`)) {
			t.Fatalf("writes of %d: escapes left: %s", size, out.Bytes())
		}
		var back map[string]any
		if err := json.Unmarshal(out.Bytes(), &back); err != nil {
			t.Fatalf("writes of %d: %s is not JSON: %v", size, out.Bytes(), err)
		}
		if back["text"] != v["text"] {
			t.Fatalf("writes of %d: text %q, want %q", size, back["text"], v["text"])
		}
	}
}
