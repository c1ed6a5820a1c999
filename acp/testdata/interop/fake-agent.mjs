// fake-agent.mjs is an ACP agent written with the official TypeScript SDK. The Go tests
// run it under llmfs's client (`llmfs acp`, cmd/llmfs/acpclient.go) and read the results it writes.
//
// On session/prompt it reads and writes through the client's fs methods and writes one
// JSON object per case to $RESULT_FILE: {name, content} or {name, error: {code, message,
// data}}. $OUTSIDE names a file outside the session's root.
import { writeFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const resultFile = process.env.RESULT_FILE;
const outside = process.env.OUTSIDE;

let clientCaps = {};
let cwd = "";

async function attempt(name, op) {
  try {
    const res = await op();
    return { name, content: res?.content ?? "" };
  } catch (e) {
    return { name, error: { code: e.code, message: e.message, data: e.data ?? null } };
  }
}

async function runCases(client, sessionId) {
  const p = (rel) => `${cwd}/${rel}`;
  const read = (params) => client.request("fs/read_text_file", { sessionId, ...params });
  const write = (path, content) => client.request("fs/write_text_file", { sessionId, path, content });
  const results = [];
  const add = async (name, op) => results.push(await attempt(name, op));

  results.push({ name: "capabilities", content: JSON.stringify(clientCaps.fs ?? null) });
  if (clientCaps.fs?.readTextFile) {
    await add("read whole", () => read({ path: p("a.txt") }));
    await add("read line+limit", () => read({ path: p("a.txt"), line: 2, limit: 2 }));
    await add("read line", () => read({ path: p("a.txt"), line: 4 }));
    await add("read past end", () => read({ path: p("a.txt"), line: 100, limit: 5 }));
    await add("read missing", () => read({ path: p("nope.txt") }));
    await add("read outside", () => read({ path: outside }));
    await add("read symlink out", () => read({ path: p("link-out") }));
    await add("read line zero", () => read({ path: p("a.txt"), line: 0 }));
    await add("read crlf", () => read({ path: p("crlf.txt") }));
    await add("read unicode", () => read({ path: p("unicode.txt") }));
    await add("read big", async () => {
      const r = await read({ path: p("big.txt") });
      return { content: `${r.content.length}` };
    });
    await add("read concurrent", async () => {
      const all = await Promise.all(
        Array.from({ length: 32 }, (_, i) => read({ path: p(`c/${i}.txt`) })),
      );
      const bad = all.filter((r, i) => r.content !== `file ${i}\n`.repeat(100 + i)).length;
      return { content: `${bad} bad of ${all.length}` };
    });
  }
  if (clientCaps.fs?.writeTextFile) {
    await add("write new", () => write(p("new.txt"), "fresh from js\n"));
    await add("write nested", () => write(p("js/deep/er/file.txt"), "nested\n"));
    await add("write empty", () => write(p("empty.txt"), ""));
    await add("write overwrite", () => write(p("b.txt"), "overwritten by js\n"));
    await add("write outside", () => write(outside, "pwned"));
    await add("write symlink out", () => write(p("link-out"), "pwned"));
    await add("read back", () => read({ path: p("b.txt") }));
  } else {
    // Not advertised: a well-behaved agent does not call it. Check that the client refuses.
    await add("write unadvertised", () => write(p("new.txt"), "x"));
  }
  await add("permission", async () => {
    const res = await client.request("session/request_permission", {
      sessionId,
      toolCall: { toolCallId: "t0", title: "Run the tests" },
      options: [
        { optionId: "allow", name: "Allow once", kind: "allow_once" },
        { optionId: "deny", name: "Reject", kind: "reject_once" },
      ],
    });
    return { content: `${res.outcome.outcome} ${res.outcome.optionId ?? ""}`.trim() };
  });
  return results;
}

const app = acp
  .agent({ name: "llmfs-fake-agent" })
  .onRequest("initialize", ({ params }) => {
    clientCaps = params.clientCapabilities ?? {};
    return { protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {}, authMethods: [] };
  })
  .onRequest("session/new", ({ params }) => {
    cwd = params.cwd;
    return { sessionId: "js-session-1" };
  })
  .onRequest("session/prompt", async ({ params, client }) => {
    const results = await runCases(client, params.sessionId);
    writeFileSync(resultFile, JSON.stringify(results));
    await client.notify("session/update", {
      sessionId: params.sessionId,
      update: {
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: `ran ${results.length} cases\n` },
      },
    });
    await client.notify("session/update", {
      sessionId: params.sessionId,
      update: { sessionUpdate: "tool_call", toolCallId: "t1", title: "Write files", kind: "edit", status: "completed" },
    });
    return { stopReason: "end_turn" };
  })
  .onNotification("session/cancel", () => {});

const stream = acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin));
const conn = app.connect(stream);
await conn.closed;
