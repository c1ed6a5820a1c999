// The llmfs web console. Every request carries the token as "Authorization: Bearer";
// the token comes from the URL fragment (#token=...) once, then from session storage.
// No cookie, no token in a URL the server sees.
//
// The same page is the in-browser demo (package web, at /demo/): there its head holds
// <meta name="llmfs-backend" content="wasm">, and send() hands every request to the
// console's own Go handler compiled to WebAssembly, over IndexedDB, instead of the server.

import { highlight } from "./vendor.js";

const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...kids) => {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...kids);
  return e;
};

const page = { ready: false, error: null, feed: [], current: null };
window.llmfsConsole = page;

// The transport: every API request and the feed go through send(path, init), which has the
// arguments and the Response of fetch.
const demo = document.querySelector('meta[name="llmfs-backend"]')?.content === "wasm";
let backend = null; // in the demo: llmfs.js's workspace, opened once (page.fs, for tests)
if (demo) document.querySelector("header strong").textContent = "llmfs in this browser";
async function send(path, init) {
  if (!demo) return fetch("api/" + path, init);
  // The server's token (this tab may hold one) has no business in the demo.
  const { Authorization, ...headers } = init.headers ?? {};
  backend ??= import("./llmfs.js").then((m) => m.open({ db: "llmfs-console", seed: true, worker: true, mode: "full" }))
    .then((fs) => (page.fs = fs));
  return (await backend).fetch("api/" + path, { ...init, headers });
}

function takeToken() {
  const m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (m) {
    sessionStorage.setItem("llmfs-token", decodeURIComponent(m[1]));
    history.replaceState(null, "", location.pathname + location.search);
  }
  return sessionStorage.getItem("llmfs-token");
}

class Unauthorized extends Error {}

async function api(path, opts = {}) {
  const headers = { Authorization: "Bearer " + (sessionStorage.getItem("llmfs-token") || "") };
  if (opts.json !== undefined) {
    headers["Content-Type"] = "application/json";
    opts = { ...opts, body: JSON.stringify(opts.json) };
  }
  const res = await send(path, { ...opts, headers });
  if (res.status === 401) {
    showLogin("The token was refused: paste the right one.");
    throw new Unauthorized("unauthorized");
  }
  const type = res.headers.get("Content-Type") || "";
  const body = type.startsWith("application/json") ? await res.json() : await res.text();
  if (!res.ok) throw new Error(body.message || body || res.statusText);
  return body;
}

function status(msg, isErr = false) {
  const s = $("status");
  s.textContent = msg;
  s.className = isErr ? "err" : "";
  if (!isErr) setTimeout(() => { if (s.textContent === msg) s.textContent = ""; }, 3000);
}

function report(err) {
  if (!(err instanceof Unauthorized)) status(err.message, true);
}

function showLogin(why) {
  $("app").hidden = true;
  $("login").hidden = false;
  if (why) $("loginwhy").textContent = why;
  $("token").focus();
}

// --- the tree, loaded one directory at a time

async function listInto(ul, dir) {
  const entries = await api("list?path=" + encodeURIComponent(dir));
  ul.replaceChildren();
  for (const e of entries) {
    const path = dir === "." ? e.name : dir + "/" + e.name;
    const li = el("li");
    if (e.type === "directory") {
      const b = el("button", { className: "dir", textContent: e.name + "/" });
      const sub = el("ul");
      sub.hidden = true;
      b.onclick = async () => {
        const opening = sub.hidden;
        sub.hidden = !opening;
        b.classList.toggle("open", opening);
        if (opening) await listInto(sub, path).catch(report);
      };
      li.append(b, sub);
    } else {
      li.append(el("button", { className: "file", textContent: e.name, title: e.size + " bytes",
        onclick: () => openFile(path).catch(report) }));
    }
    ul.append(li);
  }
}

async function refreshTree() {
  const ul = el("ul");
  $("tree").replaceChildren(ul);
  await listInto(ul, ".");
}

// --- the viewer and editor

function codeTable(path, text, hitLine) {
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  // highlight.js escapes the text it is given: its HTML holds only its own spans.
  const html = lines.length <= 20000 ? highlight(path, lines.join("\n")) : null;
  const t = el("table", { className: "code" });
  lines.forEach((line, i) => {
    const td = el("td");
    if (html) td.innerHTML = html[i] ?? "";
    else td.textContent = line;
    const tr = el("tr", {}, el("td", { className: "n", textContent: String(i + 1) }), td);
    tr.id = "L" + (i + 1);
    if (i + 1 === hitLine) tr.className = "hit";
    t.append(tr);
  });
  return t;
}

async function openFile(path, line) {
  const f = await api("read?path=" + encodeURIComponent(path));
  page.current = { path: f.path, content: f.content };
  $("viewtitle").textContent = f.path + (f.truncated ? " (truncated)" : "");
  $("viewactions").replaceChildren(
    el("button", { textContent: "Edit", onclick: () => editFile() }),
    el("button", { textContent: "Rename", onclick: () => renameFile().catch(report) }),
    el("button", { textContent: "Delete", onclick: () => deleteFile().catch(report) }),
    el("button", { textContent: "History", onclick: () => fileHistory(f.path).catch(report) }));
  $("viewbody").replaceChildren(codeTable(f.path, f.content, line));
  if (line) document.getElementById("L" + line)?.scrollIntoView({ block: "center" });
}

function editFile() {
  const cur = page.current;
  const ta = el("textarea", { id: "editor", value: cur.content, spellcheck: false });
  $("viewactions").replaceChildren(
    el("button", { id: "save", textContent: "Save", onclick: async () => {
      try {
        // Send the content as loaded too: if the file changed since, the save is refused
        // (a conflict shown) instead of overwriting.
        await api("file?path=" + encodeURIComponent(cur.path), { method: "PUT", json: { content: ta.value, base: cur.content } });
        status("saved " + cur.path);
        await openFile(cur.path);
      } catch (e) { report(e); }
    } }),
    el("button", { textContent: "Cancel", onclick: () => openFile(cur.path).catch(report) }));
  $("viewbody").replaceChildren(ta);
  ta.focus();
}

async function renameFile() {
  const to = prompt("Rename " + page.current.path + " to", page.current.path);
  if (!to || to === page.current.path) return;
  await api("move", { method: "POST", json: { from: page.current.path, to } });
  await refreshTree();
  await openFile(to);
}

async function deleteFile() {
  if (!confirm("Delete " + page.current.path + "?")) return;
  await api("delete", { method: "POST", json: { path: page.current.path } });
  $("viewtitle").textContent = "deleted " + page.current.path;
  $("viewactions").replaceChildren();
  $("viewbody").replaceChildren();
  await refreshTree();
}

async function fileHistory(path) {
  const cs = await api("history/changes?limit=100&path=" + encodeURIComponent(path));
  $("viewtitle").textContent = "History of " + path;
  $("viewbody").replaceChildren(el("ol", {}, ...cs.map((c) => el("li", {}, changeLine(c)))));
}

function showDiff(title, text) {
  $("viewtitle").textContent = title;
  const body = el("div", { id: "diff" });
  const render = (sideBySide) => {
    body.replaceChildren(el("div", { className: "difftabs" },
      el("button", { textContent: "Unified", disabled: !sideBySide, onclick: () => render(false) }),
      el("button", { id: "sidebyside", textContent: "Side by side", disabled: sideBySide, onclick: () => render(true) })),
    sideBySide ? splitDiff(text) : unifiedDiff(text));
  };
  render(false);
  $("viewbody").replaceChildren(body);
}

function lineClass(line) {
  return line.startsWith("@@") ? "hunk" : line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : "";
}

function unifiedDiff(text) {
  const pre = el("pre", { className: "diff" });
  for (const line of text.split("\n")) pre.append(el("div", { className: lineClass(line), textContent: line || " " }));
  return pre;
}

// splitDiff renders a unified diff side by side: the old file left, the new right, a run of
// removed lines paired with the run of added lines after it.
function splitDiff(text) {
  const t = el("table", { className: "code diff split" });
  const row = (cls, ln, l, rn, r) => t.append(el("tr", { className: cls },
    el("td", { className: "n", textContent: ln ?? "" }), el("td", { className: l === undefined ? "" : cls === "chg" ? "del" : "", textContent: l ?? "" }),
    el("td", { className: "n", textContent: rn ?? "" }), el("td", { className: r === undefined ? "" : cls === "chg" ? "add" : "", textContent: r ?? "" })));
  let oldN = 0, newN = 0, dels = [], adds = [];
  const flush = () => {
    for (let i = 0; i < Math.max(dels.length, adds.length); i++) {
      row("chg", dels[i] !== undefined ? oldN++ : undefined, dels[i], adds[i] !== undefined ? newN++ : undefined, adds[i]);
    }
    dels = [];
    adds = [];
  };
  for (const line of text.split("\n")) {
    const h = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (h) {
      flush();
      oldN = +h[1];
      newN = +h[2];
      t.append(el("tr", { className: "hunk" }, el("td", { colSpan: 4, textContent: line })));
    } else if (line.startsWith("---") || line.startsWith("+++") || line.startsWith("diff ")) {
      flush();
      t.append(el("tr", { className: "hunk" }, el("td", { colSpan: 4, textContent: line })));
    } else if (line.startsWith("-")) {
      if (adds.length) flush();
      dels.push(line.slice(1));
    } else if (line.startsWith("+")) {
      adds.push(line.slice(1));
    } else if (line.startsWith(" ")) {
      flush();
      row("", oldN++, line.slice(1), newN++, line.slice(1));
    }
  }
  flush();
  return t;
}

// --- the change feed

function when(t) {
  return new Date(t).toLocaleTimeString();
}

function changeLine(c) {
  const span = el("span", { className: c.state === "undone" ? "undone" : "" },
    el("span", { className: "who", textContent: c.actor }), " ", c.op, " ",
    el("button", { className: "link", style: "display:inline", textContent: c.path + (c.other ? " ⇄ " + c.other : ""),
      onclick: async () => {
        try {
          showDiff(`#${c.id} ${c.actor} ${c.op} ${c.path}`, await api(`history/changes/${c.id}/diff`));
          $("viewactions").replaceChildren(undoButton(c), undoSetButton(c),
            el("button", { textContent: "Diff of the set", onclick: async () => {
              try { showDiff(`set #${c.set}`, await api(`history/changes/${c.id}/diff?set=1`)); } catch (e) { report(e); }
            } }));
        } catch (e) { report(e); }
      } }),
    ` +${c.added} −${c.removed} `, el("span", { className: "when", textContent: when(c.time) }), " ");
  return span;
}

function undoSetButton(c) {
  return el("button", { className: "undoset", textContent: "Undo set", title: "undo change set #" + c.set, onclick: async () => {
    try {
      const r = await api("history/undo", { method: "POST", json: { ids: [c.id], set: true } });
      status("undone: " + r.paths.join(", "));
      if (page.current && r.paths.includes(page.current.path)) await openFile(page.current.path);
    } catch (e) { report(e); }
  } });
}

function undoButton(c) {
  return el("button", { className: "undo", textContent: "Undo", title: "undo change #" + c.id, onclick: async () => {
    try {
      const r = await api("history/undo", { method: "POST", json: { ids: [c.id] } });
      status("undone: " + r.paths.join(", "));
      if (page.current && r.paths.includes(page.current.path)) await openFile(page.current.path);
    } catch (e) { report(e); }
  } });
}

function addChange(c) {
  page.feed.push(c);
  const li = el("li", { id: "change-" + c.id }, changeLine(c), undoButton(c));
  $("feed").prepend(li);
  while ($("feed").children.length > 300) $("feed").lastChild.remove();
}

// follow reads the Server-Sent Events feed with a streaming fetch (EventSource cannot send
// the header), reconnecting after the last change seen.
async function follow() {
  let after = 0;
  for (;;) {
    try {
      const res = await send("history/events?after=" + after,
        { headers: { Authorization: "Bearer " + sessionStorage.getItem("llmfs-token") } });
      if (res.status === 401) { showLogin("The token was refused: paste the right one."); return; }
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value;
        let i;
        while ((i = buf.indexOf("\n\n")) >= 0) {
          const event = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const data = event.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()).join("\n");
          if (!data) continue;
          const c = JSON.parse(data);
          after = Math.max(after, c.id);
          addChange(c);
          if (/(^|\/)AGENT\.md$/.test(c.path)) refreshSystem().catch(() => {});
          if (page.current && c.path === page.current.path && !document.getElementById("editor")) {
            openFile(c.path).catch(() => {});
          }
        }
      }
    } catch (e) {
      // The server went away or the network dropped: try again shortly.
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

// --- checkpoints

async function refreshCheckpoints() {
  const cps = await api("history/checkpoints");
  $("checkpoints").replaceChildren(...cps.map((cp) => el("li", {},
    el("strong", { textContent: cp.name }), " ", el("span", { className: "when", textContent: when(cp.time) }), " ",
    el("button", { textContent: "Changes since", onclick: async () => {
      try { showDiff("Since checkpoint " + cp.name, await api("history/checkpoints/" + encodeURIComponent(cp.name) + "/diff")); } catch (e) { report(e); }
    } }),
    el("button", { className: "restore", textContent: "Restore", onclick: async () => {
      if (!confirm("Restore every file to checkpoint " + cp.name + "?")) return;
      try {
        const r = await api("history/restore", { method: "POST", json: { name: cp.name } });
        status("restored " + r.paths.length + " file(s)");
        await refreshTree();
      } catch (e) { report(e); }
    } }))));
}

// --- system files (AGENT.md): their state, and "restore default"

async function refreshSystem() {
  const files = await api("system");
  if (!files.length) return;
  $("system").replaceChildren(...files.map((f) => el("li", {},
    el("button", { className: "link", style: "display:inline", textContent: f.path, onclick: () => openFile(f.path).catch(report) }),
    " ", el("span", { className: "muted", textContent: f.state }), " ",
    f.state === "generated" ? "" : el("button", { className: "restoredefault", textContent: "Restore default", onclick: async () => {
      if (!confirm("Replace " + f.path + " with what llmfs generates, dropping its edits?")) return;
      try {
        await api("system/restore", { method: "POST", json: { path: f.path } });
        status("restored the default " + f.path);
        await refreshSystem();
        if (page.current?.path === f.path) await openFile(f.path);
      } catch (e) { report(e); }
    } }))));
}

// --- search

async function search(ev) {
  ev.preventDefault();
  const q = $("q").value.trim();
  if (!q) return;
  try {
    let items;
    if ($("qkind").value === "grep") {
      const hits = await api("grep?pattern=" + encodeURIComponent(q));
      items = hits.map((h) => el("li", {}, el("button", { className: "link", textContent: `${h.path}:${h.line}: ${h.text}`,
        onclick: () => openFile(h.path, h.line).catch(report) })));
    } else {
      const files = await api("find?pattern=" + encodeURIComponent(q));
      items = files.map((p) => el("li", {}, el("button", { className: "link", textContent: p, onclick: () => openFile(p).catch(report) })));
    }
    $("viewtitle").textContent = `${items.length} result(s) for ${q}`;
    $("viewactions").replaceChildren();
    $("viewbody").replaceChildren(el("ul", { id: "results" }, ...items));
  } catch (e) { report(e); }
}

async function start() {
  if (!demo && !takeToken()) { showLogin(); return; }
  try {
    const info = await api("info");
    $("info").textContent = `${info.root} · ${info.mode || "default"} mode` + (info.files ? ` · ${info.files} entries, ${info.bytes} bytes` : "");
    $("login").hidden = true;
    $("app").hidden = false;
    await refreshTree();
    await refreshCheckpoints();
    await refreshSystem();
    follow();
    page.ready = true;
  } catch (e) {
    page.error = e.message;
    report(e);
  }
}

$("loginform").addEventListener("submit", (ev) => {
  ev.preventDefault();
  sessionStorage.setItem("llmfs-token", $("token").value.trim());
  start();
});
$("cpform").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  try {
    await api("history/checkpoints", { method: "POST", json: { name: $("cpname").value.trim() } });
    $("cpname").value = "";
    await refreshCheckpoints();
  } catch (e) { report(e); }
});
$("search").addEventListener("submit", search);
// A console URL pasted into this tab again (a new token): start over with it.
window.addEventListener("hashchange", () => {
  if (takeToken()) location.reload();
});
start();
