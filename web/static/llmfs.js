// llmfs in the browser: the llmfs tools over an IndexedDB file system, with no server.
//
//   import * as llmfs from "./llmfs.js";
//   const fs = await llmfs.open({db: "notes", dialect: "rtc", mode: "read-write"});
//   const defs = await fs.tools();                  // tool definitions for a model
//   const out = await fs.call("write", {path: "/a.txt", content: "hi\n"});
//   // out is the tool's JSON result; a failure throws an LlmfsError whose toJSON() is
//   // {code, message}, the same JSON every other llmfs face returns.
//   const r = await fs.run("read", {path: "/a.txt"}); // never throws for a tool failure:
//   // {ok: true, result} or {ok: false, error: {code, message}}, to hand to a model as is.
//   const res = await fs.fetch("api/list?path=."); // the web console's HTTP API (package
//   // console), answered in llmfs.wasm as actor "web": a Response, as the global fetch's
//
// Options: db (IndexedDB database name, default "llmfs"), dialect ("rtc" or "agentool"),
// mode ("read-only", "read-write", "full"), requireRead (read-before-edit; default on in
// rtc), worker (true: run llmfs in a Web Worker, so long operations never block the page;
// the API is the same), base (URL of the directory holding llmfs.wasm and wasm_exec.js;
// default: this module's directory), seed (true: a database that never held files gets a
// few example ones, as the in-browser console's does).
//
// Needs wasm_exec.js (from the Go distribution that built llmfs.wasm) and llmfs.wasm next
// to this file, as the web package's handler serves them.

/** A tool call's failure: code is an llmfs error code such as FILE_NOT_FOUND. */
export class LlmfsError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "LlmfsError";
    this.code = code;
  }
  toJSON() {
    return { code: this.code, message: this.message };
  }
}

const here = new URL(".", import.meta.url);
let loading = null; // the Go program's API, loaded once per JavaScript realm

/** Loads and starts llmfs.wasm in this realm (page or worker); resolves to its API. */
export function load(base = here) {
  if (!loading) {
    loading = (async () => {
      base = new URL(base, globalThis.location?.href);
      if (!globalThis.Go) await import(new URL("wasm_exec.js", base).href);
      const ready = new Promise((resolve) => { globalThis.llmfsWasmReady = resolve; });
      const go = new globalThis.Go();
      const resp = fetch(new URL("llmfs.wasm", base).href);
      const { instance } = await WebAssembly.instantiateStreaming(resp, go.importObject);
      go.run(instance).then(() => { loading = null; }); // resolves only if the program exits
      return ready;
    })();
    loading.catch(() => { loading = null; });
  }
  return loading;
}

/** Opens a workspace; see the options at the top of this file. */
export async function open(opts = {}) {
  if (opts.worker) return openInWorker(opts);
  const api = await load(opts.base);
  let inst;
  try {
    inst = await api.open(opts);
  } catch (e) {
    throw new LlmfsError(e.code || "IO_ERROR", e.message);
  }
  return new FS(inst);
}

function settle(promise) {
  return promise.catch((e) => { throw new LlmfsError(e.code || "IO_ERROR", e.message); });
}

/** A workspace in this realm. */
class FS {
  #inst;
  constructor(inst) { this.#inst = inst; }
  /** Runs a tool; resolves to its JSON result or rejects with an LlmfsError. */
  async call(tool, args = {}) {
    const r = await this.run(tool, args);
    if (!r.ok) throw new LlmfsError(r.error.code, r.error.message);
    return r.result;
  }
  /** Runs a tool; resolves to {ok: true, result} or {ok: false, error: {code, message}}. */
  async run(tool, args = {}) {
    const json = typeof args === "string" ? args : JSON.stringify(args);
    return JSON.parse(await settle(this.#inst.call(tool, json)));
  }
  /** The tool definitions the workspace's mode allows. */
  async tools() { return JSON.parse(this.#inst.tools()); }
  /** {agent_file, dialect, mode}: agent_file says /AGENT.md support is built in. */
  async features() { return JSON.parse(this.#inst.features()); }
  /** A whole text file for display, read in a session of its own (it vouches for no edit). */
  async readText(path) { return JSON.parse(await settle(this.#inst.readText(path))); }
  /** {files, dirs, bytes} stored in this database. */
  async usage() { return JSON.parse(await settle(this.#inst.usage())); }
  /** Regenerates /AGENT.md ("restore default"). */
  async restoreAgentFile() { return JSON.parse(await settle(this.#inst.restoreAgentFile())); }
  /**
   * The web console's HTTP API (package console; URLs such as "api/list?path=.") answered
   * by llmfs.wasm, as actor "web": the arguments and the Response of the global fetch.
   * A streamed answer (api/history/events) is read from the Response's body as it comes;
   * cancelling the body ends it.
   */
  async fetch(url, init = {}) {
    const headers = {};
    new Headers(init.headers).forEach((v, k) => { headers[k] = v; });
    let body = init.body ?? undefined;
    if (body !== undefined && typeof body !== "string") body = new Uint8Array(await new Response(body).arrayBuffer());
    return settle(this.#inst.fetch(init.method || "GET", String(url), JSON.stringify(headers), body));
  }
  async close() { await settle(this.#inst.close()); }
}

/** A workspace in a Web Worker: same methods, every call a message. */
class WorkerFS {
  #worker; #next = 1; #waiting = new Map();
  constructor(worker) {
    this.#worker = worker;
    worker.onmessage = (ev) => {
      const { id, ok, value, error } = ev.data;
      const w = this.#waiting.get(id);
      if (!w) return;
      this.#waiting.delete(id);
      if (ok) w.resolve(value); else w.reject(new LlmfsError(error.code, error.message));
    };
    worker.onerror = (ev) => {
      for (const w of this.#waiting.values()) w.reject(new LlmfsError("IO_ERROR", "llmfs worker: " + ev.message));
      this.#waiting.clear();
    };
  }
  request(method, ...args) {
    return new Promise((resolve, reject) => {
      const id = this.#next++;
      this.#waiting.set(id, { resolve, reject });
      this.#worker.postMessage({ id, method, args });
    });
  }
  async call(tool, args = {}) {
    const r = await this.run(tool, args);
    if (!r.ok) throw new LlmfsError(r.error.code, r.error.message);
    return r.result;
  }
  run(tool, args = {}) { return this.request("run", tool, args); }
  tools() { return this.request("tools"); }
  features() { return this.request("features"); }
  readText(path) { return this.request("readText", path); }
  usage() { return this.request("usage"); }
  restoreAgentFile() { return this.request("restoreAgentFile"); }
  async fetch(url, init = {}) {
    const { method, headers, body } = init;
    const plain = {};
    new Headers(headers).forEach((v, k) => { plain[k] = v; });
    const r = await this.request("fetch", String(url), { method, headers: plain, body });
    return new Response(r.body, { status: r.status, headers: r.headers });
  }
  async close() { await this.request("close"); this.#worker.terminate(); }
}

async function openInWorker(opts) {
  const worker = new Worker(new URL("llmfs-worker.js", opts.base ?? here), { type: "module" });
  const fs = new WorkerFS(worker);
  const { worker: _, ...rest } = opts;
  if (rest.base) rest.base = String(new URL(rest.base, globalThis.location?.href)); // a URL cannot be posted
  try {
    await fs.request("open", rest);
  } catch (e) {
    worker.terminate();
    throw e;
  }
  return fs;
}
