// Drives llmfs's MCP server with the official TypeScript SDK, over stdio and over
// streamable HTTP, and checks the results. Run by mcpserver/interop_test.go:
//
//   node interop.mjs LLMFS_BINARY DIR HTTP_URL TOKEN
//
// DIR is an empty directory; `llmfs mcp --root DIR` is started over stdio. HTTP_URL is a
// running `llmfs serve --root DIR2 --token TOKEN`, DIR2 empty and given in $LLMFS_HTTP_ROOT.
// Exits non-zero on failure.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [binary, dir, httpURL, token] = process.argv.slice(2);

function newClient() {
  return new Client({ name: "llmfs-interop", version: "0.0.0" });
}

async function ok(client, name, args) {
  const res = await client.callTool({ name, arguments: args });
  assert.notEqual(res.isError, true, `${name} ${JSON.stringify(args)}: ${res.content?.[0]?.text}`);
  assert.equal(res.content.length, 1);
  assert.equal(res.content[0].type, "text");
  assert.deepEqual(JSON.parse(res.content[0].text), res.structuredContent, `${name}: text and structured content differ`);
  return res.structuredContent;
}

async function fails(client, name, args, code) {
  const res = await client.callTool({ name, arguments: args });
  assert.equal(res.isError, true, `${name} ${JSON.stringify(args)} succeeded, want ${code}`);
  // No structured content on an error (the outputSchema is the success's); the
  // {code, message} object is in _meta.
  assert.equal(res.structuredContent, undefined);
  const e = res._meta["io.github.llmfs/error"];
  assert.equal(e.code, code, JSON.stringify(e));
  assert.deepEqual(Object.keys(e).sort(), ["code", "message"]);
  assert.equal(res.content[0].text, `${code}: ${e.message}`);
}

// exercise runs every agentool tool; root is the served directory, as llmfs shows it.
async function exercise(client, root, label) {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  assert.deepEqual(names, ["directory_create", "directory_list", "file_copy", "file_delete", "file_edit", "file_find", "file_grep", "file_move", "file_read", "file_write", "patch"]);
  for (const t of tools) {
    const a = t.annotations;
    assert.ok(a, `${t.name}: no annotations`);
    for (const h of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]) {
      assert.equal(typeof a[h], "boolean", `${t.name}: ${h} not set`);
    }
    assert.equal(a.openWorldHint, false);
    assert.equal(t.inputSchema.type, "object");
    assert.equal(t.inputSchema.additionalProperties, false);
    assert.equal(t.outputSchema?.type, "object", `${t.name}: no outputSchema`);
  }
  assert.equal(tools.find((t) => t.name === "file_read").annotations.readOnlyHint, true);
  assert.equal(tools.find((t) => t.name === "file_delete").annotations.destructiveHint, true);

  let r = await ok(client, "file_write", { path: "a.txt", content: "one\ntwo\n" });
  assert.equal(r.path, `${root}/a.txt`);
  r = await ok(client, "file_read", { path: "a.txt" });
  assert.deepEqual(r, { content: "one\ntwo\n", total_lines: 2 });
  r = await ok(client, "file_read", { path: "a.txt", offset: 2, limit: 1 });
  assert.equal(r.content, "two\n");
  r = await ok(client, "file_edit", { path: "a.txt", old_text: "two", new_text: "2" });
  assert.equal(r.replacements, 1);
  await ok(client, "directory_create", { path: "sub" });
  await ok(client, "file_copy", { source: "a.txt", destination: "sub/b.txt" });
  await ok(client, "file_move", { source: "sub/b.txt", destination: "sub/c.txt" });
  r = await ok(client, "directory_list", { path: "sub" });
  assert.deepEqual(r.entries, [{ name: "c.txt", type: "file", size: 6 }]);
  await ok(client, "file_delete", { path: "sub/c.txt" });
  r = await ok(client, "directory_list", { path: "." });
  assert.deepEqual(r.entries.map((e) => e.name), ["a.txt", "sub"]);
  r = await ok(client, "file_grep", { pattern: "^one$", output_mode: "content" });
  assert.equal(r.output, "a.txt:1:one\n");
  r = await ok(client, "file_find", { pattern: "*.txt" });
  assert.deepEqual(r.files, ["a.txt"]);

  await fails(client, "file_read", { path: "missing.txt" }, "FILE_NOT_FOUND");
  await fails(client, "file_read", { path: "/etc/passwd" }, "INVALID_PATH");
  await fails(client, "file_read", { path: "a.txt", offset: "1" }, "INVALID_ARGUMENT");
  await fails(client, "file_read", { path: "a.txt", offset: 1.5 }, "INVALID_ARGUMENT");
  await fails(client, "file_read", { path: "a.txt", extra: 1 }, "INVALID_ARGUMENT");
  await fails(client, "file_edit", { path: "a.txt", old_text: "zzz", new_text: "y" }, "PATTERN_NOT_FOUND");
  console.log(`${label}: ok (${tools.length} tools)`);
}

async function main() {
  const stdio = newClient();
  await stdio.connect(new StdioClientTransport({ command: binary, args: ["mcp", "--root", dir], stderr: "inherit" }));
  await exercise(stdio, dir, "stdio");
  await stdio.close();

  const headers = { Authorization: `Bearer ${token}` };
  const http = newClient();
  await http.connect(new StreamableHTTPClientTransport(new URL(httpURL), { requestInit: { headers } }));
  await exercise(http, process.env.LLMFS_HTTP_ROOT, "http");
  await http.close();

  // A wrong token is refused.
  const bad = newClient();
  await assert.rejects(
    bad.connect(new StreamableHTTPClientTransport(new URL(httpURL), { requestInit: { headers: { Authorization: "Bearer wrong" } } })),
    /401|Unauthorized/,
  );
  console.log("http: wrong token refused");
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
