// Drives llmfs's experimental resource writes and --ask with the official TypeScript SDK
// over stdio. Run by mcpserver/interop_test.go:
//
//   node writes.mjs LLMFS_BINARY DIR
//
// DIR is an empty directory. Exits non-zero on failure.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync, existsSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, ResultSchema } from "@modelcontextprotocol/sdk/types.js";

const [binary, dir] = process.argv.slice(2);
const etag = (s) => createHash("sha256").update(s).digest("hex");
const loose = ResultSchema.passthrough();

async function connect(args, answer) {
  const client = new Client({ name: "llmfs-writes", version: "0.0.0" }, answer ? { capabilities: { elicitation: {} } } : {});
  const asked = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params.message);
      return { action: answer, content: { confirm: true } };
    });
  }
  await client.connect(new StdioClientTransport({ command: binary, args: ["mcp", "--root", dir, ...args], stderr: "inherit" }));
  return { client, asked };
}

const req = (client, method, params) => client.request({ method, params }, loose);

async function rejectsWith(promise, code) {
  await assert.rejects(promise, (err) => {
    assert.equal(err.data?.code, code, `${err.message}: want ${code}`);
    assert.ok(err.message.includes(code), err.message);
    return true;
  });
}

async function writes() {
  const { client } = await connect([]);
  assert.ok(client.getServerCapabilities().experimental?.["io.github.llmfs/resource-write"], "no resource-write capability");
  const uri = `file://${dir}/a.txt`;
  let r = await req(client, "resources/create", { uri, text: "one\n" });
  assert.equal(r.etag, etag("one\n"));
  r = await client.readResource({ uri });
  assert.equal(r._meta.etag, etag("one\n"));
  await rejectsWith(req(client, "resources/update", { uri, text: "lost", ifMatch: etag("x") }), "FILE_CHANGED");
  assert.equal(readFileSync(`${dir}/a.txt`, "utf8"), "one\n");
  r = await req(client, "resources/update", { uri, text: "two\n", ifMatch: etag("one\n") });
  assert.equal(r.etag, etag("two\n"));
  r = await req(client, "resources/metadata", { uri });
  assert.equal(r.size, 4);
  assert.equal(r.etag, etag("two\n"));
  r = await req(client, "resources/list", { uri: `file://${dir}` });
  assert.deepEqual(r.resources.map((x) => x.name), ["a.txt"]);
  await rejectsWith(req(client, "resources/create", { uri: `file://${dir}/.env`, text: "k" }), "PERMISSION_DENIED");
  await rejectsWith(req(client, "resources/delete", { uri, ifMatch: etag("one\n") }), "FILE_CHANGED");
  await req(client, "resources/delete", { uri, ifMatch: etag("two\n") });
  assert.equal(existsSync(`${dir}/a.txt`), false);
  await client.close();
  console.log("resource writes: ok");
}

async function ask() {
  await connect([]).then(async ({ client }) => {
    await client.callTool({ name: "file_write", arguments: { path: "b.txt", content: "b" } });
    await client.close();
  });
  for (const answer of ["decline", "cancel", undefined]) {
    const { client, asked } = await connect(["--ask", "delete,move"], answer);
    const res = await client.callTool({ name: "file_delete", arguments: { path: "b.txt" } });
    assert.equal(res.isError, true, `${answer}: the delete ran`);
    assert.equal(res._meta["io.github.llmfs/error"].code, "PERMISSION_DENIED");
    assert.deepEqual(asked, answer ? ["delete b.txt?"] : []);
    assert.equal(existsSync(`${dir}/b.txt`), true);
    await client.close();
  }
  const { client, asked } = await connect(["--ask", "delete"], "accept");
  const res = await client.callTool({ name: "file_delete", arguments: { path: "b.txt" } });
  assert.notEqual(res.isError, true, res.content?.[0]?.text);
  assert.deepEqual(asked, ["delete b.txt?"]);
  assert.equal(existsSync(`${dir}/b.txt`), false);
  await client.close();
  console.log("ask: ok");
}

writes()
  .then(ask)
  .then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
