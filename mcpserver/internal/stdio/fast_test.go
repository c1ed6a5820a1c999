package stdio

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// TestParseAsGoSDK checks that the requests parse makes itself are those
// jsonrpc.DecodeMessage makes of the same lines.
func TestParseAsGoSDK(t *testing.T) {
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"file_read","arguments":{"path":"a"}}}`,
		`{"jsonrpc":"2.0","id":"x-1","method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":9007199254740992,"method":"ping","params":{}}`,
		`{"jsonrpc":"2.0","id":-3,"method":"ping","params":null}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":2,"method":"","params":[1,2]}`,
		`{"method":"ping","params":{"a":"\u003c"},"id":3,"jsonrpc":"2.0"}`,
	} {
		got, _, code, why := parse([]byte(line))
		want, err := jsonrpc.DecodeMessage([]byte(line))
		if err != nil || code != 0 {
			t.Fatalf("%s: parse %d %s, DecodeMessage %v", line, code, why, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\nparse         %#v\nDecodeMessage %#v", line, got, want)
		}
	}
}

// idsToEncode are ids whose encoding differs between json.Marshal and the go-sdk's
// encoder (HTML escapes), or that an encoder escapes either way (U+2028, U+2029, a
// control character, invalid UTF-8), or that look like an escape already.
var idsToEncode = []any{float64(1), "s-1", float64(-7), float64(1 << 53), "<a&b>", "\u2028", "\u2029", `\u003c`, `a"b\c`, "\x01", "\xff"}

// TestEncodeResultAsGoSDK checks that encodeResult writes a response byte for byte as
// jsonrpc.EncodeMessage does, and leaves other messages to it.
func TestEncodeResultAsGoSDK(t *testing.T) {
	for _, id := range idsToEncode {
		jid, err := jsonrpc.MakeID(id)
		if err != nil {
			t.Fatal(err)
		}
		for _, result := range []string{`{}`, `{"content":[{"type":"text","text":"a \u003c b"}],"structuredContent":{"x":[1,2]}}`} {
			msg := &jsonrpc.Response{ID: jid, Result: json.RawMessage(result)}
			got, ok := encodeResult(msg)
			want, err := jsonrpc.EncodeMessage(msg)
			if !ok || err != nil || !bytes.Equal(got, want) {
				t.Errorf("encodeResult = %s, %v; EncodeMessage = %s, %v", got, ok, want, err)
			}
		}
	}
	jid, _ := jsonrpc.MakeID(float64(1))
	for _, msg := range []jsonrpc.Message{
		&jsonrpc.Response{ID: jid, Error: &jsonrpc.Error{Code: 1, Message: "m"}},
		&jsonrpc.Request{ID: jid, Method: "roots/list"},
	} {
		if _, ok := encodeResult(msg); ok {
			t.Errorf("encodeResult took %#v", msg)
		}
	}
}

// TestWriteResultAsGoSDK checks that the line Write writes for a successful response,
// through encodeResult and writeLine, is the line writeLine makes of
// jsonrpc.EncodeMessage's encoding, and that it reads back with the same id.
func TestWriteResultAsGoSDK(t *testing.T) {
	for _, id := range idsToEncode {
		jid, err := jsonrpc.MakeID(id)
		if err != nil {
			t.Fatal(err)
		}
		msg := &jsonrpc.Response{ID: jid, Result: json.RawMessage(`{"text":"a \u003c b"}`)}
		var got, want bytes.Buffer
		if err := (&stdioConn{out: &got}).Write(context.Background(), msg); err != nil {
			t.Fatal(err)
		}
		data, err := jsonrpc.EncodeMessage(msg)
		if err != nil {
			t.Fatal(err)
		}
		if err := (&stdioConn{out: &want}).writeLine(data); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("id %q: Write wrote %s, EncodeMessage and writeLine make %s", id, got.Bytes(), want.Bytes())
		}
		back, err := jsonrpc.DecodeMessage(bytes.TrimSuffix(got.Bytes(), []byte("\n")))
		if err != nil {
			t.Fatalf("id %q: %s: %v", id, got.Bytes(), err)
		}
		wantID := jid
		if id == "\xff" {
			wantID, _ = jsonrpc.MakeID("\uFFFD") // as either encoder writes invalid UTF-8
		}
		if r, ok := back.(*jsonrpc.Response); !ok || r.ID != wantID {
			t.Errorf("id %q: %s reads back as %#v", id, got.Bytes(), back)
		}
	}
}

// BenchmarkStdioParse measures the fast path's decoding of a typical call, and
// jsonrpc.DecodeMessage on the same line for reference: the cost parse avoids.
func BenchmarkStdioParse(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"file_read","arguments":{"path":"/home/user/project/src/main.go"},"_meta":{"progressToken":42}}}`)
	b.Run("parse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if msg, _, _, why := parse(line); msg == nil {
				b.Fatal(why)
			}
		}
	})
	b.Run("DecodeMessage", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := jsonrpc.DecodeMessage(line); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkStdioEncodeResult measures the fast path's encoding of a successful
// response, with a number id and with a string id.
func BenchmarkStdioEncodeResult(b *testing.B) {
	result := json.RawMessage(`{"content":[{"type":"text","text":"package main\n\nfunc main() {}\n"}],"structuredContent":{"lines":3}}`)
	for _, id := range []any{float64(42), "req-42"} {
		jid, err := jsonrpc.MakeID(id)
		if err != nil {
			b.Fatal(err)
		}
		msg := &jsonrpc.Response{ID: jid, Result: result}
		b.Run(fmt.Sprintf("%T", id), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := encodeResult(msg); !ok {
					b.Fatal("not encoded")
				}
			}
		})
	}
}
