// Prints release/mcpb/manifest.json for one bundle: VERSION set, and the platforms cut to OS
// (darwin or win32), since each bundle holds the binary of one platform.
// Usage: node release/mcpb-manifest.mjs VERSION OS
import fs from "node:fs";

const [version, os] = process.argv.slice(2);
const m = JSON.parse(fs.readFileSync(new URL("mcpb/manifest.json", import.meta.url), "utf8"));
m.version = version;
m.compatibility.platforms = [os];
if (os === "win32") {
  m.server.entry_point = "server/llmfs.exe";
}
process.stdout.write(JSON.stringify(m, null, 2) + "\n");
