// fake-client.mjs is an ACP client (an editor, in ACP's terms) written with the official
// TypeScript SDK. The Go tests run it with llmfs's agent on the other end of its stdio.
//
// It advertises the fs capabilities named in $CAPS ("read", "write", both comma-separated,
// or empty), serves them from the disk under the session's cwd with one unsaved buffer
// ($BUFFER_PATH holding $BUFFER_TEXT), opens a session on $ROOT, sends $PROMPT, and writes
// {calls, prompt} to $CALLS_FILE: every fs method the agent called, advertised or not.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const caps = new Set((process.env.CAPS ?? "").split(",").filter(Boolean));
const root = process.env.ROOT;
const buffers = new Map();
if (process.env.BUFFER_PATH) buffers.set(process.env.BUFFER_PATH, process.env.BUFFER_TEXT ?? "");
const calls = [];

function inRoot(path) {
  return path === root || path.startsWith(root + "/");
}

let app = acp.client({ name: "llmfs-fake-client" });
app = app.onNotification("session/update", () => {});
// The SDK answers a method with no handler with -32601; count such calls anyway.
app = app.onRequest("*", ({ method }) => {
  calls.push(method);
  throw acp.RequestError.methodNotFound(method);
});
if (caps.has("read")) {
  app = app.onRequest("fs/read_text_file", ({ params }) => {
    calls.push("fs/read_text_file");
    if (!inRoot(params.path)) throw acp.RequestError.resourceNotFound(params.path);
    let text;
    if (buffers.has(params.path)) {
      text = buffers.get(params.path);
    } else {
      try {
        text = readFileSync(params.path, "utf8");
      } catch {
        throw acp.RequestError.resourceNotFound(params.path);
      }
    }
    if (params.line != null || params.limit != null) {
      const lines = text.split(/(?<=\n)/);
      const start = (params.line ?? 1) - 1;
      const end = params.limit != null ? start + params.limit : lines.length;
      text = lines.slice(start, end).join("");
    }
    return { content: text };
  });
}
if (caps.has("write")) {
  app = app.onRequest("fs/write_text_file", ({ params }) => {
    calls.push("fs/write_text_file");
    if (!inRoot(params.path)) throw acp.RequestError.resourceNotFound(params.path);
    mkdirSync(dirname(params.path), { recursive: true });
    writeFileSync(params.path, params.content);
    if (buffers.has(params.path)) buffers.set(params.path, params.content);
    return {};
  });
}

const stream = acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin));
const result = await app.connectWith(stream, async (agent) => {
  await agent.request("initialize", {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: caps.has("read"), writeTextFile: caps.has("write") } },
  });
  const session = await agent.request("session/new", { cwd: root, mcpServers: [] });
  return agent.request("session/prompt", {
    sessionId: session.sessionId,
    prompt: [{ type: "text", text: process.env.PROMPT ?? "store" }],
  });
});
writeFileSync(process.env.CALLS_FILE, JSON.stringify({ calls, prompt: result }));
process.exit(0);
