// The Web Worker side of llmfs.open({worker: true}): runs llmfs.wasm in the worker and
// answers the page's messages {id, method, args} with {id, ok, value | error}.
import { open } from "./llmfs.js";

let fs = null;

self.onmessage = async (ev) => {
  const { id, method, args } = ev.data;
  try {
    let value;
    if (method === "open") {
      fs = await open(args[0] ?? {});
    } else if (fs && method === "fetch") {
      // A Response cannot be posted; its parts can, the body stream by transfer.
      const r = await fs.fetch(...args);
      self.postMessage({ id, ok: true, value: { status: r.status, headers: [...r.headers], body: r.body } }, r.body ? [r.body] : []);
      return;
    } else if (!fs) {
      throw new Error("llmfs worker: not open");
    } else if (method === "run" || method === "tools" || method === "features" ||
               method === "readText" || method === "usage" || method === "restoreAgentFile" ||
               method === "close") {
      value = await fs[method](...args);
    } else {
      throw new Error("llmfs worker: unknown method " + method);
    }
    self.postMessage({ id, ok: true, value });
  } catch (e) {
    self.postMessage({ id, ok: false, error: { code: e.code || "IO_ERROR", message: String(e.message ?? e) } });
  }
};
