package stdio

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// TestParseKeysAsGoSDK checks that parse reads the keys of a line as the go-sdk's
// decoder does: exactly as written, never case-insensitively, and the last of duplicate
// keys winning. For each line parse must yield what jsonrpc.DecodeMessage yields (the
// same message, or a refusal where it fails), or, where the row says so, refuse a line
// the go-sdk takes, for the reason given and with the id the go-sdk read.
func TestParseKeysAsGoSDK(t *testing.T) {
	for _, c := range []struct {
		line string
		// stricter, if set, is why parse may refuse a line that the go-sdk decodes into
		// a message no JSON-RPC 2.0 peer sends: part of the -32600 answer.
		stricter string
	}{
		// Ordinary requests, notifications and responses.
		{line: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"file_read","arguments":{"path":"a"}}}`},
		{line: `{"jsonrpc":"2.0","id":"x-1","method":"tools/list"}`},
		{line: `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{line: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`},
		{line: `{"jsonrpc":"2.0","id":"r-1","result":{"roots":[]}}`},
		{line: `{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"no such method"}}`},
		{line: `{"jsonrpc":"2.0","id":1,"meth\u006fd":"ping"}`}, // an escaped key is still the key

		// Keys in another case: the go-sdk ignores them as unknown keys.
		{line: `{"jsonrpc":"2.0","id":1,"Method":"ping"}`, stricter: "no method, result or error"},
		{line: `{"jsonrpc":"2.0","ID":1,"method":"ping"}`},
		{line: `{"jsonrpc":"2.0","Id":1.5,"method":"ping"}`},
		{line: `{"jsonrpc":"2.0","id":1,"method":"tools/call","Params":{"name":"file_read"}}`},
		{line: `{"jsonrpc":"2.0","id":1,"method":"tools/call","PARAMS":{"name":"file_read"}}`},
		{line: `{"JSONRPC":"2.0","id":1,"method":"ping"}`},
		{line: `{"Jsonrpc":"2.0","Id":1,"METHOD":"ping","Params":{}}`},
		{line: "{\"j\u017fonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"}, // encoding/json folds ſ to s
		{line: `{"jsonrpc":"2.0","id":1,"method":"ping","Method":"tools/call"}`},
		{line: `{"jsonrpc":"2.0","id":1,"Id":2,"method":"ping"}`},
		{line: `{"jsonrpc":"2.0","ID":1,"result":{}}`},
		{line: `{"jsonrpc":"2.0","id":1,"Result":{}}`, stricter: "no method, result or error"},
		{line: `{"jsonrpc":"2.0","id":1,"Error":{"code":-1,"message":"m"}}`, stricter: "no method, result or error"},
		{line: `{"jsonrpc":"2.0","id":1,"method":"ping","Result":{}}`},

		// Duplicate keys: the last one wins, and a null leaves a string as it was.
		{line: `{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/list"}`},
		{line: `{"jsonrpc":"2.0","id":1,"id":"two","method":"ping"}`},
		{line: `{"jsonrpc":"2.0","id":1,"id":null,"method":"ping"}`},
		{line: `{"jsonrpc":"2.0","id":1,"id":2,"result":{}}`},
		{line: `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":1},"params":{"b":2}}`},
		{line: `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":1},"params":null}`},
		{line: `{"jsonrpc":"1.0","jsonrpc":"2.0","id":1,"method":"ping"}`},
		{line: `{"jsonrpc":"2.0","jsonrpc":"1.0","id":1,"method":"ping"}`},
		{line: `{"jsonrpc":"2.0","jsonrpc":null,"id":1,"method":"ping"}`},
		{line: `{"jsonrpc":"2.0","id":1,"method":"ping","error":null}`},
		{line: `{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"m"},"error":null}`},
		// The go-sdk reads a null method as "": parse holds that a method is a string.
		{line: `{"jsonrpc":"2.0","id":1,"method":"ping","method":null}`, stricter: "method must be a string"},
	} {
		got, id, code, why := parse([]byte(c.line))
		want, err := jsonrpc.DecodeMessage([]byte(c.line))
		switch {
		case c.stricter != "" && got == nil:
			if err != nil || code != jsonrpc.CodeInvalidRequest || !strings.Contains(why, c.stricter) || id != idOf(want) {
				t.Errorf("%s:\nparse         %s\nDecodeMessage %s", c.line, showParse(got, id, code, why), showDecode(want, err))
			}
		case got != nil || err == nil:
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s:\nparse         %s\nDecodeMessage %s", c.line, showParse(got, id, code, why), showDecode(want, err))
			}
		default:
			// Both refuse the line.
		}
	}
}

// idOf returns the raw id of a message, as parse returns it.
func idOf(m jsonrpc.Message) any {
	switch m := m.(type) {
	case *jsonrpc.Request:
		return m.ID.Raw()
	case *jsonrpc.Response:
		return m.ID.Raw()
	}
	return nil
}

func showParse(m jsonrpc.Message, id any, code int64, why string) string {
	if m != nil {
		return show(m)
	}
	return fmt.Sprintf("refused: %d %q, id %#v", code, why, id)
}

func showDecode(m jsonrpc.Message, err error) string {
	if err != nil {
		return "refused: " + err.Error()
	}
	return show(m)
}

func show(m jsonrpc.Message) string {
	switch m := m.(type) {
	case *jsonrpc.Request:
		return fmt.Sprintf("request: id %#v, method %q, params %s", m.ID.Raw(), m.Method, m.Params)
	case *jsonrpc.Response:
		return fmt.Sprintf("response: id %#v, result %s, error %v", m.ID.Raw(), m.Result, m.Error)
	}
	return fmt.Sprintf("%#v", m)
}
