// Stages the npm packages for one release: the main package llmfs (npm/llmfs, its version
// and its optional dependencies set to VERSION) and one package @llmfs/cli-OS-CPU per built
// binary. Usage: node release/npm.mjs VERSION OUTDIR BINARY:OS:CPU...
// OS and CPU are npm's names (linux, darwin, win32; x64, arm64). It prints the staged
// directories, one a line, for npm pack.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const [version, outDir, ...binaries] = process.argv.slice(2);
if (!version || !outDir) {
  console.error("usage: node release/npm.mjs VERSION OUTDIR BINARY:OS:CPU...");
  process.exit(2);
}
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const main = JSON.parse(fs.readFileSync(path.join(repo, "npm/llmfs/package.json"), "utf8"));

const staged = [];
for (const spec of binaries) {
  const [bin, os, cpu] = spec.split(":");
  const name = `@llmfs/cli-${os}-${cpu}`;
  if (!(name in main.optionalDependencies)) {
    throw new Error(`${name} is not an optional dependency of npm/llmfs/package.json`);
  }
  const dir = path.join(outDir, `cli-${os}-${cpu}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, "bin"), { recursive: true });
  const exe = os === "win32" ? "llmfs.exe" : "llmfs";
  fs.copyFileSync(bin, path.join(dir, "bin", exe));
  fs.chmodSync(path.join(dir, "bin", exe), 0o755);
  fs.copyFileSync(path.join(repo, "LICENSE"), path.join(dir, "LICENSE"));
  const pkg = {
    name,
    version,
    description: `The llmfs binary for ${os}-${cpu}; install the package llmfs, which runs it.`,
    homepage: main.homepage,
    repository: main.repository,
    os: [os],
    cpu: [cpu],
    files: [`bin/${exe}`],
    preferUnplugged: true,
  };
  if (main.license) pkg.license = main.license;
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
  staged.push(dir);
}

const dir = path.join(outDir, "llmfs");
fs.rmSync(dir, { recursive: true, force: true });
fs.cpSync(path.join(repo, "npm/llmfs"), dir, { recursive: true });
fs.copyFileSync(path.join(repo, "LICENSE"), path.join(dir, "LICENSE"));
main.version = version;
for (const dep of Object.keys(main.optionalDependencies)) {
  main.optionalDependencies[dep] = version;
}
fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(main, null, 2) + "\n");
fs.chmodSync(path.join(dir, "bin/llmfs.js"), 0o755);
staged.push(dir);
console.log(staged.join("\n"));
