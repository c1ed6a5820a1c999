#!/usr/bin/env node
// The llmfs command for npm: it finds the llmfs binary built for this platform and runs it
// with the same arguments, standard streams and exit code. The binary comes from one of the
// optional dependencies @llmfs/cli-<platform>-<arch>; npm installs only the one whose "os"
// and "cpu" fields match this machine.
"use strict";

const { spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const platforms = {
  "linux-x64": "@llmfs/cli-linux-x64",
  "linux-arm64": "@llmfs/cli-linux-arm64",
  "darwin-x64": "@llmfs/cli-darwin-x64",
  "darwin-arm64": "@llmfs/cli-darwin-arm64",
  "win32-x64": "@llmfs/cli-win32-x64",
  "win32-arm64": "@llmfs/cli-win32-arm64",
};

function binaryPath() {
  // LLMFS_BINARY names a binary to run instead, for a build of one's own.
  if (process.env.LLMFS_BINARY) {
    return process.env.LLMFS_BINARY;
  }
  const key = `${process.platform}-${process.arch}`;
  const pkg = platforms[key];
  if (!pkg) {
    fail(`llmfs has no binary for ${key}; it runs on ${Object.keys(platforms).join(", ")}.\n` +
      "Build it from source instead: go install github.com/llmfs/llmfs/cmd/llmfs@latest");
  }
  const exe = process.platform === "win32" ? "llmfs.exe" : "llmfs";
  let dir;
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    const version = require("../package.json").version;
    fail(`llmfs: the package ${pkg}, which holds the binary for ${key}, is not installed.\n` +
      "npm skips it when optional dependencies are turned off (--omit=optional, --no-optional)\n" +
      `or when it cannot fetch it. Install it next to llmfs: npm install ${pkg}@${version}`);
  }
  const bin = path.join(dir, "bin", exe);
  if (!fs.existsSync(bin)) {
    fail(`llmfs: ${pkg} is installed but has no ${path.join("bin", exe)}; reinstall it.`);
  }
  return bin;
}

function fail(msg) {
  process.stderr.write(msg + "\n");
  process.exit(1);
}

const child = spawn(binaryPath(), process.argv.slice(2), { stdio: "inherit", windowsHide: true });
// The child gets a terminal's signals itself (same process group); a signal sent to this
// process alone, as an MCP client does when it stops a server, is passed on.
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, () => child.kill(sig));
}
child.on("error", (err) => fail(`llmfs: cannot run ${err.path || "the binary"}: ${err.message}`));
child.on("exit", (code, signal) => {
  if (signal) {
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
