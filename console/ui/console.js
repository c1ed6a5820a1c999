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

// --- the tree, loaded one directory at a time and rendered a chunk at a time: a directory
// of 10,000 entries shows its first rows at once and the rest as they scroll into view.
// It is one tab stop (a roving tabindex); the arrows move in it, Enter opens.

const CHUNK = 300;

// more renders the next chunk of a directory when its "more" row comes near the view.
const moreObserver = new IntersectionObserver((seen) => {
  for (const s of seen) if (s.isIntersecting) s.target.renderMore?.();
}, { rootMargin: "600px" });

function treeItem(dir, e, level) {
  const path = dir === "." ? e.name : dir + "/" + e.name;
  const li = el("li", { role: "none" });
  if (e.type === "directory") {
    const b = el("button", { className: "dir", textContent: e.name + "/", tabIndex: -1 });
    b.setAttribute("role", "treeitem");
    b.setAttribute("aria-expanded", "false");
    b.setAttribute("aria-level", level);
    b.dataset.path = path;
    const sub = el("ul", { role: "group" });
    sub.hidden = true;
    b.onclick = async () => {
      const opening = sub.hidden;
      sub.hidden = !opening;
      b.classList.toggle("open", opening);
      b.setAttribute("aria-expanded", String(opening));
      if (opening) await listInto(sub, path, level + 1).catch(report);
    };
    li.append(b, sub);
  } else {
    li.className = "filerow";
    const b = el("button", { className: "file", textContent: e.name, title: e.size + " bytes", tabIndex: -1,
      onclick: () => openFile(path).catch(report) });
    b.setAttribute("role", "treeitem");
    b.setAttribute("aria-level", level);
    b.dataset.path = path;
    li.append(b);
  }
  return li;
}

async function listInto(ul, dir, level = 1) {
  const entries = await api("list?path=" + encodeURIComponent(dir));
  ul.replaceChildren();
  let shown = 0;
  const more = el("li", { role: "none", className: "more" });
  const moreButton = el("button", { tabIndex: -1, onclick: () => { more.renderMore(); } });
  moreButton.setAttribute("role", "treeitem");
  more.append(moreButton);
  more.renderMore = () => {
    const focused = document.activeElement === moreButton;
    const frag = document.createDocumentFragment();
    // The chunks grow (300, 300, 600, 1200, then 2000 at most): the first rows come at
    // once, and a person scrolling to the end of a huge directory waits for few rounds.
    const size = Math.min(Math.max(CHUNK, shown), 2000);
    for (const e of entries.slice(shown, shown + size)) frag.append(treeItem(dir, e, level));
    const first = frag.firstElementChild?.firstElementChild;
    more.before(frag);
    shown = Math.min(entries.length, shown + size);
    if (focused && first) focusItem(first);
    moreObserver.unobserve(more);
    if (shown >= entries.length) more.remove();
    else {
      moreButton.textContent = `… ${entries.length - shown} more`;
      moreObserver.observe(more); // reports at once if the row is still in view
    }
    return first;
  };
  ul.append(more);
  more.renderMore();
  if (!entries.length && dir !== ".") ul.append(el("li", { role: "none", className: "muted", textContent: "(empty)" }));
  page.treeShown = (page.treeShown || 0) + 1;
  rove();
}

async function refreshTree() {
  const ul = el("ul", { role: "tree" });
  ul.setAttribute("aria-label", "files");
  $("tree").replaceChildren(ul);
  await listInto(ul, ".");
}

// rove keeps exactly one tree item in the tab order: the focused one, else the first.
function rove() {
  const tree = $("tree");
  if (tree.querySelector('button[tabindex="0"]')) return;
  const first = tree.querySelector("button");
  if (first) first.tabIndex = 0;
}

function focusItem(b) {
  if (!b) return;
  for (const o of $("tree").querySelectorAll('button[tabindex="0"]')) o.tabIndex = -1;
  b.tabIndex = 0;
  b.focus();
  b.scrollIntoView({ block: "nearest" });
}

// The visible tree items around b, walking the DOM (no list of every item is kept).
function itemBelow(b) {
  const li = b.parentElement;
  const sub = b.nextElementSibling;
  if (sub && !sub.hidden && sub.querySelector("button")) return sub.querySelector("button");
  for (let at = li; at && at.closest("#tree"); at = at.parentElement.closest("li")) {
    const next = at.nextElementSibling;
    if (next?.querySelector("button")) return next.querySelector("button");
  }
  return null;
}

function itemAbove(b) {
  const li = b.parentElement;
  let prev = li.previousElementSibling;
  while (prev && !prev.querySelector("button")) prev = prev.previousElementSibling;
  if (!prev) return li.parentElement.closest("li")?.querySelector("button") ?? null;
  // The last visible item inside prev.
  let last = prev.querySelector("button");
  for (;;) {
    const sub = last.nextElementSibling;
    const kids = sub && !sub.hidden ? [...sub.children].filter((c) => c.querySelector("button")) : [];
    if (!kids.length) return last;
    last = kids.at(-1).querySelector("button");
  }
}

function treeKeys(ev) {
  const b = ev.target.closest("#tree button");
  if (!b) return;
  const open = b.getAttribute("aria-expanded");
  let to = null;
  switch (ev.key) {
    case "ArrowDown": to = itemBelow(b); break;
    case "ArrowUp": to = itemAbove(b); break;
    case "ArrowRight":
      if (open === "false") b.click();
      else if (open === "true") to = b.nextElementSibling.querySelector("button");
      break;
    case "ArrowLeft":
      if (open === "true") b.click();
      else to = b.parentElement.parentElement.closest("li")?.querySelector("button") ?? null;
      break;
    case "Home": to = $("tree").querySelector("button"); break;
    case "End": { let x = b, n; while ((n = itemBelow(x))) x = n; to = x; break; }
    default: return;
  }
  ev.preventDefault();
  // Onto the "more" row: its entries come, and the first of them takes the focus.
  if (to?.parentElement.classList.contains("more")) to = to.parentElement.renderMore() ?? to;
  focusItem(to);
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
  if (line.startsWith("@@")) return "hunk";
  if (/^(---|\+\+\+|diff |rename |Binary )/.test(line)) return "head";
  return line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : "";
}

function unifiedDiff(text) {
  const pre = el("pre", { className: "diff" });
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const line of lines) pre.append(el("div", { className: lineClass(line), textContent: line || " " }));
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
          refreshInfoSoon();
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
    f.state === "off" ? el("span", { textContent: f.path }) :
    el("button", { className: "link", style: "display:inline", textContent: f.path, onclick: () => openFile(f.path).catch(report) }),
    " ", el("span", { className: "muted", textContent: f.state }), " ",
    // Off (a host directory, by default): say how to turn it on; no button that would
    // write the file into the person's tree.
    f.state === "off" ? el("p", { className: "muted hint", textContent: f.hint }) :
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

// --- review: the changes pending under `llmfs serve --review`, applied or discarded per
// file or per hunk (hunks numbered from 1 in each file's diff, as the API counts them)

const review = { changes: [], conflicts: new Map(), key: "", sideBySide: false };
page.review = review;

async function refreshReview() {
  const r = await api("review");
  if (!r.review) return;
  const key = JSON.stringify(r.changes);
  if (key === review.key) return;
  review.key = key;
  review.changes = r.changes;
  refreshInfoSoon();
  const pending = new Set(r.changes.map((c) => c.path));
  for (const p of review.conflicts.keys()) if (!pending.has(p)) review.conflicts.delete(p);
  renderReviewList();
  // The file on show changed (an agent wrote it again, or it was resolved): show it anew.
  if (page.reviewing && $("reviewdiff")) await showReview(page.reviewing).catch(report);
}

function renderReviewList() {
  $("reviewcount").textContent = `(${review.changes.length})`;
  $("reviewall").replaceChildren(...(review.changes.length ? [
    el("button", { id: "applyall", textContent: "Apply all", onclick: () => resolve("apply", ["."], [], "every pending change") }),
    el("button", { id: "discardall", textContent: "Discard all", onclick: () => resolve("discard", ["."], [], "every pending change") }),
  ] : [el("span", { className: "muted", textContent: "nothing pending" })]));
  $("review").replaceChildren(...review.changes.map((c) => {
    const conflict = review.conflicts.get(c.path);
    return el("li", { className: conflict ? "conflict" : "" },
      el("span", { className: "kind " + c.kind, textContent: c.kind }), " ",
      el("button", { className: "link pending", style: "display:inline", textContent: c.path + (c.from ? " ← " + c.from : ""),
        onclick: () => showReview(c.path).catch(report) }),
      ` +${c.added} −${c.removed}`,
      conflict ? el("span", { className: "badge warn", textContent: "FILE_CHANGED" }) : "");
  }));
}

// hunksOf splits a one-file unified diff into its head (---/+++ and rename lines) and hunks.
function hunksOf(text) {
  const head = [], hunks = [];
  for (const line of text.split("\n")) {
    if (line.startsWith("@@")) hunks.push([line]);
    else if (line === "") continue; // the end of the text (a blank context line is " ")
    else if (hunks.length) hunks.at(-1).push(line);
    else head.push(line);
  }
  return { head: head.join("\n"), hunks: hunks.map((h) => h.join("\n")) };
}

async function showReview(path) {
  const c = review.changes.find((c) => c.path === path);
  if (!c) {
    page.reviewing = null;
    $("viewtitle").textContent = "Review: " + path + " has nothing pending";
    $("viewactions").replaceChildren();
    $("viewbody").replaceChildren();
    return;
  }
  const text = await api("review/diff?path=" + encodeURIComponent(path));
  page.reviewing = path;
  page.current = null;
  $("viewtitle").textContent = `Review: ${c.kind} ${path}` + (c.from ? ` (from ${c.from})` : "");
  $("viewactions").replaceChildren(
    el("button", { className: "applyfile", textContent: "Apply file", onclick: () => resolve("apply", [path], [], path) }),
    el("button", { className: "discardfile", textContent: "Discard file", onclick: () => resolve("discard", [path], [], path) }));
  const body = el("div", { id: "reviewdiff" });
  const conflict = review.conflicts.get(path);
  const { head, hunks } = hunksOf(text);
  const render = () => {
    const kids = [el("div", { className: "difftabs" },
      el("button", { textContent: "Unified", disabled: !review.sideBySide, onclick: () => { review.sideBySide = false; render(); } }),
      el("button", { id: "sidebyside", textContent: "Side by side", disabled: review.sideBySide, onclick: () => { review.sideBySide = true; render(); } }))];
    if (conflict) kids.push(conflictBox(conflict));
    if (head) kids.push(el("pre", { className: "diff head", textContent: head }));
    if (c.binary || !hunks.length) kids.push(el("p", { className: "muted", textContent: c.binary ? "a binary file: apply or discard it whole" : "no text change: apply or discard it whole" }));
    hunks.forEach((h, i) => {
      const n = i + 1;
      kids.push(el("section", { className: "hunkbox", id: "hunk-" + n },
        el("div", { className: "hunkbar" }, el("strong", { textContent: `Hunk ${n} of ${hunks.length}` }), " ",
          el("button", { className: "applyhunk", textContent: "Apply hunk " + n, onclick: () => resolve("apply", [path], [n], `hunk ${n} of ${path}`) }),
          el("button", { className: "discardhunk", textContent: "Discard hunk " + n, onclick: () => resolve("discard", [path], [n], `hunk ${n} of ${path}`) })),
        review.sideBySide ? splitDiff(h) : unifiedDiff(h)));
    });
    body.replaceChildren(...kids);
  };
  render();
  $("viewbody").replaceChildren(body);
}

function conflictBox(cf) {
  return el("div", { className: "conflictbox", role: "alert" },
    el("p", {}, el("strong", { textContent: "FILE_CHANGED: " }),
      `${cf.path} was ${cf.what} on disk since the agent first read or wrote it, so it was not applied. ` +
      "Where both changed, what is there now (current) and the agent's version (agent):"),
    unifiedDiff(cf.diff));
}

// resolve applies or discards (action) the changes at paths, or only the given hunks.
async function resolve(action, paths, hunks, what) {
  if (paths[0] === "." && !confirm(`${action === "apply" ? "Apply" : "Discard"} ${what}?`)) return;
  try {
    const r = await api("review/" + action, { method: "POST", json: { paths, hunks } });
    for (const d of r.resolved) review.conflicts.delete(d.path);
    for (const cf of r.conflicts) review.conflicts.set(cf.path, cf);
    if (r.conflicts.length) status(`${r.conflicts.length} conflict(s): ${r.conflicts.map((c) => c.path).join(", ")} changed on disk; not applied`, true);
    else status(`${action === "apply" ? "applied" : "discarded"}: ${what}`);
    review.key = ""; // show it all anew, conflicts included
    await refreshReview();
    if (r.resolved.length) await refreshTree();
  } catch (e) { report(e); }
}

// pollReview keeps the list current: pending changes have no journal, so no feed tells.
async function pollReview() {
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    if (document.visibilityState === "visible") await refreshReview().catch(() => {});
  }
}

// --- search

async function search(ev) {
  ev.preventDefault();
  const q = $("q").value.trim();
  if (!q) return;
  try {
    let body, count;
    if ($("qkind").value === "grep") {
      const hits = await api("grep?pattern=" + encodeURIComponent(q));
      body = grepResults(hits);
      count = `${hits.length} match(es) in ${body.childElementCount} file(s)`;
    } else {
      const files = await api("find?pattern=" + encodeURIComponent(q));
      body = el("ul", {}, ...files.map((p) => el("li", {}, el("button", { className: "link", textContent: p, onclick: () => openFile(p).catch(report) }))));
      count = `${files.length} file(s)`;
    }
    $("viewtitle").textContent = `${count} for ${q}`;
    $("viewactions").replaceChildren();
    body.id = "results";
    body.classList.add($("qkind").value);
    $("viewbody").replaceChildren(body);
  } catch (e) { report(e); }
}

// grepResults shows grep's hits as a code search does: grouped by file, each line with its
// number, in the code font, the matches marked; a line opens the file there.
function grepResults(hits) {
  const byFile = new Map();
  for (const h of hits) {
    if (!byFile.has(h.path)) byFile.set(h.path, []);
    byFile.get(h.path).push(h);
  }
  return el("div", {}, ...[...byFile].map(([path, hs]) => {
    const t = el("table", { className: "code" });
    let last = 0;
    for (const h of hs) {
      if (last && h.line > last + 1) t.append(el("tr", { className: "gap" }, el("td", { className: "n", textContent: "⋯" }), el("td")));
      last = h.line;
      const open = () => openFile(h.path, h.line).catch(report);
      t.append(el("tr", { className: "hitrow", onclick: open },
        el("td", { className: "n" }, el("button", { className: "link", textContent: String(h.line), onclick: (e) => { e.stopPropagation(); open(); } })),
        el("td", {}, ...marked(h.text, h.matches ?? []))));
    }
    return el("section", { className: "filehits" },
      el("h3", {}, el("button", { className: "link path", textContent: path, onclick: () => openFile(path, hs[0].line).catch(report) }),
        el("span", { className: "muted", textContent: ` ${hs.length} match${hs.length === 1 ? "" : "es"}` })),
      t);
  }));
}

// marked is text as nodes, its [start, end) spans (UTF-16 offsets, from the API) in <mark>.
function marked(text, spans) {
  const out = [];
  let at = 0;
  for (const [start, end] of spans) {
    if (start < at || end > text.length) continue;
    out.push(text.slice(at, start), el("mark", { textContent: text.slice(start, end) }));
    at = end;
  }
  out.push(text.slice(at));
  return out;
}

// --- the header: the root, the mode, and the quota's use

function bytesText(n) {
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return (i ? n.toFixed(1) : String(n)) + " " + units[i];
}

// usageBar is a labelled meter of used against max (no bar when there is no max).
function usageBar(id, label, used, max, text) {
  const kids = [el("span", { className: "muted", textContent: label + " " })];
  if (max > 0) {
    const m = el("meter", { id, min: 0, max, value: used, high: max * 0.8, optimum: 0 });
    m.setAttribute("aria-label", `${label}: ${text(used)} of ${text(max)}`);
    kids.push(m, " " + text(used) + " / " + text(max));
  } else {
    kids.push(text(used) + " (no quota)");
  }
  return el("span", { className: "usage" }, ...kids);
}

// refreshInfoSoon updates the quota's use after changes, at most once a second.
let infoTimer = null;
function refreshInfoSoon() {
  if (infoTimer || !(page.info?.max_bytes || page.info?.max_files)) return;
  infoTimer = setTimeout(async () => {
    infoTimer = null;
    try { showInfo(page.info = await api("info")); } catch (e) { report(e); }
  }, 1000);
}

function showInfo(info) {
  $("info").textContent = info.root;
  const mode = info.review ? "review" : info.mode;
  $("mode").textContent = mode;
  $("mode").className = "badge mode-" + mode;
  $("mode").title = info.review ? "every change stays pending until a person applies it (" + info.mode + ")"
    : { "read-only": "agents may only read", "read-write": "agents may read and write, not delete", full: "agents may read, write and delete" }[info.mode] || "";
  if (!info.max_bytes && !info.max_files) {
    $("usage").replaceChildren(el("span", { className: "muted", textContent: "no quota" }));
    return;
  }
  $("usage").replaceChildren(
    usageBar("bytesbar", "bytes", info.bytes, info.max_bytes, bytesText),
    usageBar("filesbar", "files", info.files, info.max_files, String));
}

async function start() {
  if (!demo && !takeToken()) { showLogin(); return; }
  try {
    const info = await api("info");
    page.info = info;
    showInfo(info);
    $("login").hidden = true;
    $("app").hidden = false;
    await refreshTree();
    // A workspace without a journal (one under review: its changes are pending, not made)
    // has no feed, undo or checkpoints.
    $("historybox").hidden = !info.journaled;
    $("nohistory").hidden = info.journaled;
    if (info.journaled) {
      await refreshCheckpoints();
      follow();
    }
    $("reviewbox").hidden = !info.review;
    if (info.review) {
      await refreshReview();
      pollReview();
    }
    await refreshSystem();
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
$("tree").addEventListener("keydown", treeKeys);
$("tree").addEventListener("focusin", (ev) => {
  if (ev.target.matches("#tree button")) focusItem(ev.target);
});
// A console URL pasted into this tab again (a new token): start over with it.
window.addEventListener("hashchange", () => {
  if (takeToken()) location.reload();
});
start();
