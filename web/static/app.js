// The llmfs demo page: a file tree, a viewer, a box to run any tool call, the /AGENT.md
// "restore default" button and the storage used against the browser's quota. llmfs runs
// in a Web Worker (llmfs.open({worker: true})), so the page never freezes.
//
// For tests and the console, window.llmfsPage holds {fs, ready, readyMs, error}.
import * as llmfs from "./llmfs.js";

const $ = (id) => document.getElementById(id);
const page = (window.llmfsPage = { fs: null, ready: false, readyMs: 0, error: null });
const params = new URLSearchParams(location.search);

function fmtBytes(n) {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return (i ? n.toFixed(1) : n) + " " + units[i];
}

async function openFS() {
  const t0 = performance.now();
  page.ready = false;
  $("status").textContent = "loading…";
  $("status").className = "note";
  if (page.fs) { await page.fs.close().catch(() => {}); page.fs = null; }
  const opts = { db: $("db").value || "llmfs", dialect: $("dialect").value, mode: $("mode").value,
                 worker: params.get("worker") !== "0" };
  try {
    page.fs = await llmfs.open(opts);
  } catch (e) {
    page.error = e.message;
    $("status").textContent = "cannot open: " + e.message;
    $("status").className = "error";
    return;
  }
  page.readyMs = performance.now() - t0;
  $("status").textContent = `ready in ${page.readyMs.toFixed(0)} ms (${opts.worker ? "in a worker" : "on the page"})`;
  await loadTools();
  await Promise.all([loadFeatures(), refreshTree(), refreshQuota()]);
  page.ready = true;
}

let toolNames = [];

async function loadTools() {
  const defs = await page.fs.tools();
  toolNames = defs.map((d) => d.name);
  const sel = $("tool");
  sel.replaceChildren(...defs.map((d) => new Option(d.name, d.name)));
  sel.onchange = () => {
    const d = defs.find((d) => d.name === sel.value);
    $("tool-desc").textContent = d.description;
    const args = {};
    for (const p of d.input_schema.required ?? []) {
      const t = d.input_schema.properties[p].type;
      args[p] = t === "integer" ? 1 : t === "boolean" ? false : t === "array" ? [] : p === "path" ? "/" : "";
    }
    $("args").value = JSON.stringify(args, null, 2);
  };
  sel.onchange();
}

async function loadFeatures() {
  const f = await page.fs.features();
  $("restore").disabled = !f.agent_file;
  $("restore-note").textContent = f.agent_file
    ? "Regenerates /AGENT.md, replacing your edits."
    : "Not available yet: this build has no /AGENT.md support (package sysfiles).";
}

// ls lists a directory with whatever listing tool the dialect has.
async function ls(path) {
  const r = toolNames.includes("ls")
    ? await page.fs.call("ls", { path })
    : await page.fs.call("directory_list", { path });
  return r.entries;
}

async function refreshTree() {
  const root = document.createElement("ul");
  await fillDir(root, "/");
  $("tree").replaceChildren(root);
}

async function fillDir(ul, dir) {
  let entries;
  try {
    entries = await ls(dir);
  } catch (e) {
    ul.replaceChildren(Object.assign(document.createElement("li"), { textContent: e.message, className: "error" }));
    return;
  }
  if (entries.length === 0) {
    ul.replaceChildren(Object.assign(document.createElement("li"), { textContent: "(empty)", className: "note" }));
    return;
  }
  ul.replaceChildren(...entries.map((e) => {
    const li = document.createElement("li");
    const path = (dir === "/" ? "" : dir) + "/" + e.name;
    const b = document.createElement("button");
    if (e.type === "directory") {
      b.textContent = "▸ " + e.name + "/";
      let sub = null;
      b.onclick = async () => {
        if (sub) { sub.remove(); sub = null; b.textContent = "▸ " + e.name + "/"; return; }
        sub = document.createElement("ul");
        li.append(sub);
        b.textContent = "▾ " + e.name + "/";
        await fillDir(sub, path);
      };
      li.append(b);
    } else {
      b.textContent = e.name;
      b.onclick = () => view(path);
      li.append(b, " ", Object.assign(document.createElement("span"), { className: "size", textContent: fmtBytes(e.size) }));
    }
    return li;
  }));
}

async function view(path) {
  $("viewer-title").textContent = path;
  try {
    const r = await page.fs.readText(path);
    $("viewer").textContent = r.content;
    $("viewer-note").textContent = `${r.total_lines} lines` + (r.truncated ? " (truncated)" : "");
  } catch (e) {
    $("viewer").textContent = "";
    $("viewer-note").textContent = `${e.code}: ${e.message}`;
  }
}

async function refreshQuota() {
  const u = await page.fs.usage();
  let text = `${u.files} files, ${fmtBytes(u.bytes)} in llmfs`;
  if (navigator.storage?.estimate) {
    const est = await navigator.storage.estimate();
    text += `; origin uses ${fmtBytes(est.usage)} of ${fmtBytes(est.quota)}`;
    $("quota-meter").value = est.quota ? est.usage / est.quota : 0;
  }
  $("quota").textContent = text;
}

async function runTool() {
  let args;
  try {
    args = JSON.parse($("args").value || "{}");
  } catch (e) {
    $("result").textContent = "arguments are not JSON: " + e.message;
    return;
  }
  const r = await page.fs.run($("tool").value, args);
  $("result").textContent = JSON.stringify(r.ok ? r.result : r.error, null, 2);
  $("result").className = r.ok ? "" : "error";
  await Promise.all([refreshTree(), refreshQuota()]);
}

$("db").value = params.get("db") ?? "llmfs";
$("reopen").onclick = openFS;
$("refresh").onclick = () => Promise.all([refreshTree(), refreshQuota()]);
$("run").onclick = runTool;
$("args").onkeydown = (e) => { if (e.key === "Enter" && e.ctrlKey) runTool(); };
$("restore").onclick = async () => {
  try {
    await page.fs.restoreAgentFile();
    await Promise.all([refreshTree(), view("/AGENT.md")]);
  } catch (e) {
    $("restore-note").textContent = `${e.code}: ${e.message}`;
  }
};
openFS();
