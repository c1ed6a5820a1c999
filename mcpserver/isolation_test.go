//go:build !js && !wasip1

package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/tools"
)

// Issue 19.5 (tenant isolation): on replicas serving every workspace of one PostgreSQL
// database, in every dialect, every token (every mode) of every workspace, sent to every
// other workspace, gets 403 for every method: each tool, resources/list, resources/read
// (a file:// URI of the other workspace's file), resources/subscribe, the templates. And
// at its own workspace no call, whatever its arguments, shows another workspace's
// content: its file:// URIs name files of the caller's own workspace only.
func TestFleetIsolation(t *testing.T) {
	dsn := postgresDSN(t)
	db, ids := fleetDB(t, dsn, 3)
	secrets := map[string]string{}  // workspace -> the content only it holds
	tokens := map[string][]string{} // workspace -> a token per mode
	for _, id := range ids {
		secrets[id] = "SECRET-" + id + "-c0ffee"
		full, _ := newToken(t, db, id, llmfs.Full)
		tokens[id] = append(tokens[id], full)
		for _, m := range []llmfs.Mode{llmfs.ReadOnly, llmfs.ReadWrite} {
			tok, _ := newToken(t, db, id, m)
			tokens[id] = append(tokens[id], tok)
		}
	}
	ctx := context.Background()
	for _, id := range ids {
		s, err := db.Workspace(ctx, id, nil)
		if err != nil {
			t.Fatal(err)
		}
		ws := llmfs.New(s, nil)
		if _, err := ws.Write(ctx, "/secret-"+id+".txt", secrets[id], llmfs.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := ws.Mkdir(ctx, "/dir-"+id); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range tools.Dialects {
		t.Run(string(d), func(t *testing.T) {
			base := startFleet(t, dsn, 1, "--dialect", string(d))[0].base
			defs, err := tools.Definitions(d, llmfs.Full)
			if err != nil {
				t.Fatal(err)
			}
			methods := [][2]string{
				{"tools/list", `{}`},
				{"resources/list", `{}`},
				{"resources/templates/list", `{}`},
			}
			for _, def := range defs {
				methods = append(methods, [2]string{"tools/call", fmt.Sprintf(`{"name":%q,"arguments":{}}`, def.Name)})
			}
			for _, owner := range ids {
				for _, other := range ids {
					if other == owner {
						continue
					}
					m := append(methods,
						[2]string{"resources/read", fmt.Sprintf(`{"uri":"file:///secret-%s.txt"}`, other)},
						[2]string{"resources/subscribe", fmt.Sprintf(`{"uri":"file:///secret-%s.txt"}`, other)})
					for _, tok := range tokens[owner] {
						for _, mm := range m {
							code, body := rpc(t, base+other, tok, mm[0], mm[1])
							if code != 403 || strings.Contains(body, "SECRET") {
								t.Errorf("%s's token at %s, %s %s: %d %.200s", owner, other, mm[0], mm[1], code, body)
							}
						}
					}
				}
			}
			// At its own workspace, every tool with arguments aimed at another's files.
			for _, owner := range ids {
				// The control: the same request for its own file shows its content.
				if code, body := rpc(t, base+owner, tokens[owner][1], "resources/read", fmt.Sprintf(`{"uri":"file:///secret-%s.txt"}`, owner)); code != 200 || !strings.Contains(body, secrets[owner]) {
					t.Fatalf("%s reading its own file: %d %.300s", owner, code, body)
				}
				for _, other := range ids {
					if other == owner {
						continue
					}
					aim := "/secret-" + other + ".txt"
					var calls [][2]string
					for _, def := range defs {
						calls = append(calls, [2]string{"tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s}`, def.Name, aimedArgs(t, def, aim))})
					}
					calls = append(calls,
						[2]string{"resources/read", fmt.Sprintf(`{"uri":"file://%s"}`, aim)},
						[2]string{"resources/read", fmt.Sprintf(`{"uri":"file://localhost%s"}`, aim)},
						[2]string{"resources/list", `{}`})
					for _, c := range calls {
						code, body := rpc(t, base+owner, tokens[owner][0], c[0], c[1])
						if code != 200 || strings.Contains(body, secrets[other]) || strings.Contains(body, "dir-"+other) {
							t.Errorf("%s at its own workspace, %s %s: %d %.300s", owner, c[0], c[1], code, body)
						}
					}
				}
			}
		})
	}
}

// aimedArgs fills the properties of a tool's input schema with values aimed at the file
// p: paths and names are p, patterns match the secrets, numbers 1, flags false.
func aimedArgs(t *testing.T, def tools.Definition, p string) string {
	t.Helper()
	var schema struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(def.InputSchema, &schema); err != nil {
		t.Fatal(err)
	}
	args := map[string]any{}
	for name, prop := range schema.Properties {
		typ := fmt.Sprint(prop.Type)
		switch {
		case strings.Contains(typ, "string"):
			switch {
			case strings.Contains(name, "pattern") || name == "query" || name == "regex":
				args[name] = "SECRET"
			case strings.Contains(name, "content") || strings.Contains(name, "text") || strings.Contains(name, "string") || name == "input" || name == "patch":
				args[name] = "x"
			case name == "command":
				args[name] = "view"
			default:
				args[name] = p
			}
		case strings.Contains(typ, "integer") || strings.Contains(typ, "number"):
			args[name] = 1
		case strings.Contains(typ, "boolean"):
			args[name] = false
		}
	}
	b, _ := json.Marshal(args)
	return string(b)
}
