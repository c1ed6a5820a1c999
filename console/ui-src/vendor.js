// The console's third-party code, bundled into ../ui/vendor.js by build.sh.
// highlight.js core with the languages agents' workspaces mostly hold; more cost page weight.
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import css from "highlight.js/lib/languages/css";
import go from "highlight.js/lib/languages/go";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

const languages = { bash, css, go, javascript, json, markdown: commonMarkEmphasis(markdown), python, rust, sql, typescript, xml, yaml };
for (const [name, lang] of Object.entries(languages)) hljs.registerLanguage(name, lang);

// commonMarkEmphasis wraps highlight.js's Markdown so emphasis follows CommonMark closer:
// an "_" inside a word (snake_case) opens nothing, and emphasis opens only where it closes
// on the same line. highlight.js's own rules let one stray "_" or "*" turn the rest of the
// file italic (issue 33).
function commonMarkEmphasis(language) {
  const notWord = "(?![A-Za-z0-9_])";
  const fixes = {
    "_(?![_\\s])": { begin: new RegExp("(?<![A-Za-z0-9_])_(?![_\\s])(?=[^\\n]*?[^_\\s]_" + notWord + ")"), end: new RegExp("_" + notWord) },
    "_{2}(?!\\s)": { begin: new RegExp("(?<![A-Za-z0-9_])__(?!\\s)(?=[^\\n]*?\\S__" + notWord + ")"), end: new RegExp("__" + notWord) },
    "\\*(?![*\\s])": { begin: /\*(?![*\s])(?=[^\n]*?[^*\s]\*)/ },
    "\\*{2}(?!\\s)": { begin: /\*{2}(?!\s)(?=[^\n]*?\S\*{2})/ },
  };
  return (hljs) => {
    const def = language(hljs);
    const seen = new Set();
    const walk = (mode) => {
      if (!mode || typeof mode !== "object" || seen.has(mode)) return;
      seen.add(mode);
      const fix = mode.begin instanceof RegExp && fixes[mode.begin.source];
      if (fix) Object.assign(mode, fix);
      for (const m of [...(mode.contains ?? []), ...(mode.variants ?? [])]) walk(m);
    };
    walk(def);
    return def;
  };
}

const byExtension = {
  sh: "bash", bash: "bash", css: "css", go: "go", js: "javascript", mjs: "javascript", cjs: "javascript",
  json: "json", md: "markdown", py: "python", rs: "rust", sql: "sql", ts: "typescript", tsx: "typescript",
  html: "xml", xml: "xml", svg: "xml", yaml: "yaml", yml: "yaml",
};

// highlight returns the HTML of text highlighted as the language of path's extension, split
// into lines (each a balanced HTML fragment), or null when the extension is not known.
export function highlight(path, text) {
  const ext = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  const language = byExtension[ext];
  if (!language) return null;
  const html = hljs.highlight(text, { language, ignoreIllegals: true }).value;
  return splitLines(html);
}

// splitLines cuts highlighted HTML at newlines, closing the spans open at each line's end
// and reopening them on the next, so each line stands alone in its table row.
function splitLines(html) {
  const lines = [];
  let open = [];
  let cur = "";
  const re = /<span[^>]*>|<\/span>|\n|[^<\n]+/g;
  for (const m of html.matchAll(re)) {
    const tok = m[0];
    if (tok === "\n") {
      lines.push(cur + "</span>".repeat(open.length));
      cur = open.join("");
    } else {
      if (tok.startsWith("<span")) open.push(tok);
      else if (tok === "</span>") open.pop();
      cur += tok;
    }
  }
  lines.push(cur);
  return lines;
}
