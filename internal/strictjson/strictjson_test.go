package strictjson

import (
	"testing"
)

var fuzzParams = []Param{
	{Name: "path", Kind: String, Required: true},
	{Name: "offset", Kind: Integer, Min: 1},
	{Name: "limit", Kind: Integer},
	{Name: "all", Kind: Boolean},
	{Name: "mode", Kind: String, Enum: []string{"a", "b"}},
	{Name: "edits", Kind: Array, Items: []Param{{Name: "old", Kind: String, Required: true}, {Name: "n", Kind: Integer}}},
}

func TestDecode(t *testing.T) {
	type test struct {
		in      string
		wantErr bool
	}
	tests := []test{
		{`{"path":"x"}`, false},
		{` {"path":"x","offset":3,"limit":0,"all":false,"mode":"b"} `, false},
		{`{"path":"x","edits":[{"old":"a","n":2}]}`, false},
		{`{"path":"x","edits":[{"old":"a","n":-2}]}`, true},
		{`{"path":"x","offset":null}`, false},
		{`{"path":null}`, true},
		{`{"path":"x","mode":null}`, true},
		{``, true},
		{`null`, true},
		{`{"path":"x","offset":01}`, true},
		{`{"path":"x","offset":-0.0}`, true},
		{`{"path":"x","offset":1E2}`, true},
		{`{"path":"x","limit":-1}`, true},
		{`{"path":"x","all":1}`, true},
		{`{"path":"x","mode":"c"}`, true},
		{`{"path":"x","edits":{}}`, true},
		{`{"path":"x","edits":[1]}`, true},
		{`{"path":"x","edits":[{"n":1}]}`, true},
		{`{"path":"x"}x`, true},
		{`{"path":"\ud800"}`, false},
	}
	for _, tt := range tests {
		_, err := Decode([]byte(tt.in), fuzzParams)
		if (err != nil) != tt.wantErr {
			t.Errorf("Decode(%s) error = %v, want error: %v", tt.in, err, tt.wantErr)
		}
	}
}

func TestDecodeValues(t *testing.T) {
	o, err := Decode([]byte(`{"path":"p","offset":7,"all":true,"edits":[{"old":"o"}]}`), fuzzParams)
	if err != nil {
		t.Fatal(err)
	}
	if o.String("path", "") != "p" || o.Int("offset", 0) != 7 || !o.Bool("all", false) || o.Int("limit", -1) != -1 {
		t.Errorf("Decode values = %v", o)
	}
	if e := o.Objects("edits"); len(e) != 1 || e[0].String("old", "") != "o" {
		t.Errorf("edits = %v", e)
	}
}

// FuzzDecode checks that no input panics, and that whatever is accepted has exactly the
// declared types.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"path":"x"}`, `{"path":"x","offset":1.0}`, `{"path":"x","edits":[{"old":"a"}]}`, `{`, `[]`, `{"path":"x","path":"y"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := Decode(data, fuzzParams)
		if err != nil {
			return
		}
		if _, ok := o["path"].(string); !ok {
			t.Fatalf("accepted %q without a string path: %v", data, o)
		}
		if v, ok := o["offset"]; ok {
			if n, ok := v.(int64); !ok || n < 1 {
				t.Fatalf("accepted %q with offset %v", data, v)
			}
		}
	})
}
