// The review view: the changes pending under `llmfs serve --review`, their diffs, applied or
// discarded per file or per hunk; the tree's marks of them; and the live feed of what the
// agent does, told by the pending changes, since no journal is kept under review.
//
// It shares the page's state and helpers with console.js (a cycle of imports: neither
// module uses the other's bindings before both have run).

import { $, api, el, markTree, page, refreshInfoSoon, refreshTree, report, setOpen, status, treeItem, when, who } from "./console.js";
import { splitDiff, unifiedDiff } from "./diff.js";

// Hunks are numbered from 1 in each file's diff, as the API counts them.

// resolved: what the person did to each path just now ("applied", "discarded"), for the
// live feed.
export const review = { changes: [], conflicts: new Map(), key: "", sideBySide: false, listed: false, resolved: new Map() };

export async function refreshReview() {
  const r = await api("review");
  if (!r.review) return;
  const key = JSON.stringify(r.changes);
  if (key === review.key) return;
  review.key = key;
  liveActivity(review.changes, r.changes, review.listed);
  review.listed = true;
  review.changes = r.changes;
  refreshInfoSoon();
  const pending = new Set(r.changes.map((c) => c.path));
  for (const p of review.conflicts.keys()) if (!pending.has(p)) review.conflicts.delete(p);
  markPending(r.changes);
  renderReviewList();
  // The file on show changed (an agent wrote it again, or it was resolved): show it anew.
  if (page.reviewing && $("reviewdiff")) await showReview(page.reviewing).catch(report);
}

// markPending marks the tree's files with pending changes, and the directories above them.
function markPending(changes) {
  page.pending = new Map(changes.map((c) => [c.path, c]));
  page.pendingDirs = new Set();
  for (const c of changes) {
    for (let d = c.path; (d = d.slice(0, Math.max(0, d.lastIndexOf("/")))); ) page.pendingDirs.add(d);
  }
  markTree();
}

// liveActivity is the live feed under review, where no journal is kept: what the agent did
// since the last look, as the pending changes tell it (a file changed, made, deleted or
// moved; a pending change gone, applied or discarded). The first listing is what was
// pending already, shown as such.
function liveActivity(before, after, listed) {
  const was = new Map(before.map((c) => [c.path, c]));
  const entries = [];
  for (const c of after) {
    const p = was.get(c.path);
    was.delete(c.path);
    if (p && p.added === c.added && p.removed === c.removed && p.kind === c.kind && p.from === c.from) continue;
    const action = review.resolved.get(c.path);
    if (p && action) {
      // The person applied or discarded some hunks: the rest stays pending.
      review.resolved.delete(c.path);
      entries.push([who("web"), ` ${action} part of `, pendingLink(c), `; left +${c.added} −${c.removed}`]);
      continue;
    }
    const what = !listed ? "pending" : p ? "changed again" : c.kind;
    entries.push([who("agent"), ` ${what} `, pendingLink(c), ` +${c.added} −${c.removed}`]);
  }
  for (const p of was.values()) {
    const action = review.resolved.get(p.path);
    review.resolved.delete(p.path);
    entries.push(action ? [who("web"), ` ${action} ${p.path}`] : [el("span", { className: "muted", textContent: `${p.path}: no longer pending` })]);
  }
  // A file made, deleted or moved shows in (or goes from) the tree, where it is listed.
  if (listed) {
    for (const c of after) {
      const p = before.find((b) => b.path === c.path);
      if (p && p.kind === c.kind) continue;
      if (c.kind === "deleted") dropFromTree(c.path);
      else addToTree(c.path, "file");
      if (c.from) dropFromTree(c.from);
    }
  }
  const time = new Date().toISOString();
  for (const e of entries) {
    $("live").prepend(el("li", {}, ...e, " ", el("span", { className: "when", textContent: when(time) })));
  }
  while ($("live").children.length > 300) $("live").lastChild.remove();
}

function parentOf(path) {
  const i = path.lastIndexOf("/");
  return i < 0 ? "." : path.slice(0, i);
}

const treeButton = (path) => [...$("tree").querySelectorAll("button[data-path]")].find((b) => b.dataset.path === path);

// addToTree puts an item for path (a "file" or "directory") in its place in the tree, if
// its directory is listed there and it is not: the tree shows a file an agent makes under
// review without listing its directory anew (which would close what is open in it).
function addToTree(path, type) {
  if (treeButton(path)) return;
  const dir = parentOf(path);
  if (dir !== "." && !treeButton(dir)) addToTree(dir, "directory");
  const parent = dir === "." ? null : treeButton(dir);
  const ul = parent ? parent.nextElementSibling : $("tree").querySelector(":scope > ul");
  if (!ul || (parent && !ul.childElementCount)) return; // not listed yet: it comes when it is
  const name = path.slice(dir === "." ? 0 : dir.length + 1);
  const li = treeItem(dir, { name, type, size: 0 }, parent ? +parent.getAttribute("aria-level") + 1 : 1);
  const next = [...ul.children].find((c) => c.classList.contains("more") ||
    (c.firstElementChild?.dataset.path ?? "").slice(dir === "." ? 0 : dir.length + 1) > name);
  // Past the rows rendered so far ("… more"), the row would come out of order: leave it.
  if (next?.classList.contains("more")) return;
  ul.insertBefore(li, next ?? null);
}

function dropFromTree(path) {
  treeButton(path)?.parentElement.remove();
}

function pendingLink(c) {
  return el("button", { className: "link", style: "display:inline", textContent: c.path + (c.from ? " ← " + c.from : ""),
    onclick: () => showReview(c.path).catch(report) });
}

function pendingButton(c) {
  const b = el("button", { className: "link pending", style: "display:inline", textContent: c.path + (c.from ? " ← " + c.from : ""),
    onclick: () => showReview(c.path).catch(report) });
  b.dataset.path = c.path;
  if (c.path === page.openPath) b.setAttribute("aria-current", "true");
  return b;
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
      pendingButton(c),
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
  setOpen(path);
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
    // A three-way conflict comes as both sides between markers; an older server sends
    // the base against the pending version as a diff.
    cf.diff.includes("\n=======\n") ? el("pre", { className: "diff conflict", textContent: cf.diff }) : unifiedDiff(cf.diff));
}

// resolve applies or discards (action) the changes at paths, or only the given hunks.
async function resolve(action, paths, hunks, what) {
  if (paths[0] === "." && !confirm(`${action === "apply" ? "Apply" : "Discard"} ${what}?`)) return;
  try {
    // One file: send the version the page showed, so that a change the agent made
    // since is refused (FILE_CHANGED) rather than applied unseen.
    const shown = paths.length === 1 ? review.changes.find((c) => c.path === paths[0]) : null;
    const json = shown && shown.version ? { paths, hunks, version: shown.version } : { paths, hunks };
    const r = await api("review/" + action, { method: "POST", json });
    for (const d of r.resolved) {
      review.conflicts.delete(d.path);
      // A hunk applied leaves the rest pending: the live feed tells it from the change.
      review.resolved.set(d.path, d.action);
    }
    for (const cf of r.conflicts) review.conflicts.set(cf.path, cf);
    if (r.conflicts.length) status(`${r.conflicts.length} conflict(s): ${r.conflicts.map((c) => c.path).join(", ")} changed on disk; not applied`, true);
    else status(`${action === "apply" ? "applied" : "discarded"}: ${what}`);
    review.key = ""; // show it all anew, conflicts included
    await refreshReview();
    if (r.resolved.length) await refreshTree();
  } catch (e) { report(e); }
}

// pollReview keeps the list current: pending changes have no journal, so no feed tells.
export async function pollReview() {
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    if (document.visibilityState === "visible") await refreshReview().catch(() => {});
  }
}
