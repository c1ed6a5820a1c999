// The console's diff views: a unified diff (the journal's, the review layer's, or one made
// here) shown unified or side by side, with the old and new line numbers in gutters, the
// words that changed marked within a changed line, and long lines wrapped, not clipped.

const el = (tag, props = {}, ...kids) => {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...kids);
  return e;
};

// diffRows parses a unified diff into rows: {t: "head"|"hunk"|"note", text} for the lines
// about the diff, {t: "ctx", o, n, text} for context, and {t: "chg", dels, adds} for a run of
// removed lines and the run of added lines after it, each line {n, text, spans}, where spans
// are the [start, end) ranges of the words that changed against its partner (the line at the
// same place in the other run).
export function diffRows(text) {
  const rows = [];
  let o = 0, n = 0, dels = [], adds = [];
  const flush = () => {
    if (!dels.length && !adds.length) return;
    for (let i = 0; i < Math.min(dels.length, adds.length); i++) {
      [dels[i].spans, adds[i].spans] = wordSpans(dels[i].text, adds[i].text);
    }
    rows.push({ t: "chg", dels, adds });
    dels = [];
    adds = [];
  };
  // The lines a hunk has left, by its header: past them, lines are a next file's head.
  let oldLeft = 0, newLeft = 0;
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const line of lines) {
    const h = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (h) {
      flush();
      [o, oldLeft, n, newLeft] = [+h[1], +(h[2] ?? 1), +h[3], +(h[4] ?? 1)];
      rows.push({ t: "hunk", text: line });
    } else if (line.startsWith("\\")) {
      flush();
      rows.push({ t: "note", text: line });
    } else if (oldLeft <= 0 && newLeft <= 0) {
      flush();
      rows.push({ t: "head", text: line });
    } else if (line.startsWith("-")) {
      if (adds.length) flush();
      oldLeft--;
      dels.push({ n: o++, text: line.slice(1), spans: [] });
    } else if (line.startsWith("+")) {
      newLeft--;
      adds.push({ n: n++, text: line.slice(1), spans: [] });
    } else {
      // Context (" text", or "" for an empty line a tool trimmed).
      flush();
      oldLeft--;
      newLeft--;
      rows.push({ t: "ctx", o: o++, n: n++, text: line.slice(1) });
    }
  }
  flush();
  return rows;
}

// A word is a run of letters, digits and "_"; a run of spaces and any other character are
// tokens of their own.
const tokenRE = /[\p{L}\p{N}_]+|\s+|[^\p{L}\p{N}_\s]/gu;

// wordSpans returns the ranges of a and of b that differ, word by word (a longest common
// subsequence of their tokens), or none when the lines share no word: a line rewritten whole
// is shown changed whole, not as confetti.
export function wordSpans(a, b) {
  const x = a.match(tokenRE) ?? [], y = b.match(tokenRE) ?? [];
  if (x.length * y.length > 250000) return prefixSuffix(a, b);
  // lcs[i][j]: the length of the longest common subsequence of x[i:] and y[j:].
  const lcs = Array.from({ length: x.length + 1 }, () => new Uint16Array(y.length + 1));
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--) {
      lcs[i][j] = x[i] === y[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const sa = [], sb = [];
  let i = 0, j = 0, pa = 0, pb = 0, common = 0;
  const add = (spans, start, end) => {
    const last = spans.at(-1);
    if (last && last[1] === start) last[1] = end;
    else spans.push([start, end]);
  };
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      if (/\S/.test(x[i])) common++;
      pa += x[i++].length;
      pb += y[j++].length;
    } else if (j < y.length && (i === x.length || lcs[i][j + 1] >= lcs[i + 1][j])) {
      add(sb, pb, pb + y[j].length);
      pb += y[j++].length;
    } else {
      add(sa, pa, pa + x[i].length);
      pa += x[i++].length;
    }
  }
  return common ? [sa, sb] : [[], []];
}

// prefixSuffix is wordSpans for lines too long to compare word by word: what lies between
// their common start and common end.
function prefixSuffix(a, b) {
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  if (!p && !s) return [[], []];
  return [a.length - s > p ? [[p, a.length - s]] : [], b.length - s > p ? [[p, b.length - s]] : []];
}

// words is text as nodes, its spans marked as changed words.
function words(text, spans) {
  const out = [];
  let at = 0;
  for (const [start, end] of spans) {
    out.push(text.slice(at, start), el("span", { className: "wd", textContent: text.slice(start, end) }));
    at = end;
  }
  out.push(text.slice(at));
  return out;
}

const cell = (className, ...kids) => el("td", { className }, ...kids);
const num = (n) => cell("n", n === undefined ? "" : String(n));

// cols fixes the columns' widths: the gutters fit five digits, the text takes the rest and
// wraps (a table of fixed layout takes its widths from these, not from its longest line).
function cols(t, ...widths) {
  t.append(el("colgroup", {}, ...widths.map((w) => {
    const c = el("col");
    if (w) c.style.width = w;
    return c;
  })));
}

// unifiedDiff renders a unified diff as a table: old and new line numbers, the sign, the text.
export function unifiedDiff(text) {
  const t = el("table", { className: "code diff unified" });
  cols(t, "3.6em", "3.6em", "1.4em", "");
  const line = (cls, o, n, sign, kids) => t.append(el("tr", { className: cls }, num(o), num(n), cell("sign", sign), cell("text", ...kids)));
  for (const r of diffRows(text)) {
    if (r.t === "ctx") line("ctx", r.o, r.n, " ", [r.text]);
    else if (r.t === "chg") {
      for (const d of r.dels) line("del", d.n, undefined, "-", words(d.text, d.spans));
      for (const a of r.adds) line("add", undefined, a.n, "+", words(a.text, a.spans));
    } else t.append(el("tr", { className: r.t }, el("td", { colSpan: 4, className: "text", textContent: r.text })));
  }
  return t;
}

// splitDiff renders a unified diff side by side: the old file left, the new right, a run of
// removed lines paired with the run of added lines after it.
export function splitDiff(text) {
  const t = el("table", { className: "code diff split" });
  cols(t, "3.6em", "", "3.6em", "");
  const side = (l, cls) => l ? [num(l.n), cell("text " + cls, ...words(l.text, l.spans))] : [num(), cell("text empty")];
  for (const r of diffRows(text)) {
    if (r.t === "ctx") t.append(el("tr", { className: "ctx" }, num(r.o), cell("text", r.text), num(r.n), cell("text", r.text)));
    else if (r.t === "chg") {
      for (let i = 0; i < Math.max(r.dels.length, r.adds.length); i++) {
        t.append(el("tr", { className: "chg" }, ...side(r.dels[i], "del"), ...side(r.adds[i], "add")));
      }
    } else t.append(el("tr", { className: r.t }, el("td", { colSpan: 4, className: "text", textContent: r.text })));
  }
  return t;
}

// lineDiff returns the unified diff (3 lines of context) that turns text a into text b, for
// the two sides of a save conflict. Lines are compared whole (a longest common subsequence;
// past a few million line pairs, the middle that differs is replaced whole).
export function lineDiff(a, b, nameA = "a", nameB = "b") {
  const lines = (t) => (t === "" ? [] : (t.endsWith("\n") ? t.slice(0, -1) : t).split("\n"));
  const x = lines(a), y = lines(b);
  // ops: [" ", line] kept, ["-", line] removed, ["+", line] added.
  const ops = [];
  let p = 0;
  while (p < x.length && p < y.length && x[p] === y[p]) ops.push([" ", x[p++]]);
  let s = 0;
  while (s < x.length - p && s < y.length - p && x[x.length - 1 - s] === y[y.length - 1 - s]) s++;
  const xm = x.slice(p, x.length - s), ym = y.slice(p, y.length - s);
  if (xm.length * ym.length > 4e6) {
    for (const l of xm) ops.push(["-", l]);
    for (const l of ym) ops.push(["+", l]);
  } else {
    const lcs = Array.from({ length: xm.length + 1 }, () => new Uint32Array(ym.length + 1));
    for (let i = xm.length - 1; i >= 0; i--) {
      for (let j = ym.length - 1; j >= 0; j--) {
        lcs[i][j] = xm[i] === ym[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    let i = 0, j = 0;
    while (i < xm.length || j < ym.length) {
      if (i < xm.length && j < ym.length && xm[i] === ym[j]) { ops.push([" ", xm[i++]]); j++; }
      else if (i < xm.length && (j === ym.length || lcs[i + 1][j] >= lcs[i][j + 1])) ops.push(["-", xm[i++]]);
      else ops.push(["+", ym[j++]]);
    }
  }
  for (let k = x.length - s; k < x.length; k++) ops.push([" ", x[k]]);
  return hunks(ops, nameA, nameB);
}

// hunks groups edit operations into the hunks of a unified diff, 3 lines of context each.
function hunks(ops, nameA, nameB) {
  const out = [`--- ${nameA}`, `+++ ${nameB}`];
  const changed = ops.map((op, i) => (op[0] !== " " ? i : -1)).filter((i) => i >= 0);
  if (!changed.length) return "";
  let k = 0;
  while (k < changed.length) {
    let start = Math.max(0, changed[k] - 3), end = changed[k];
    while (k < changed.length && changed[k] <= end + 7) end = changed[k++];
    end = Math.min(ops.length - 1, end + 3);
    let o = 1, n = 1;
    for (let i = 0; i < start; i++) {
      if (ops[i][0] !== "+") o++;
      if (ops[i][0] !== "-") n++;
    }
    const body = ops.slice(start, end + 1);
    const ol = body.filter((op) => op[0] !== "+").length, nl = body.filter((op) => op[0] !== "-").length;
    out.push(`@@ -${ol ? o : o - 1},${ol} +${nl ? n : n - 1},${nl} @@`, ...body.map(([sign, line]) => sign + line));
  }
  return out.join("\n") + "\n";
}
