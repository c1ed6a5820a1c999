#!/usr/bin/env bash
# Builds the release artifacts of llmfs into OUTDIR (default dist/):
#   llmfs-OS-ARCH[.exe]          one static binary per platform (CGO off, -trimpath), whose
#                                --version, MCP serverInfo and ACP clientInfo say VERSION, with
#                                the browser build embedded (go generate ./web, -tags llmfs_webdist)
#   SHA256SUMS                   the checksums of every file below
#   npm/*.tgz                    the npm packages: llmfs and @llmfs/cli-OS-CPU (npm pack)
#   llmfs-OS-ARCH.mcpb           an MCP bundle for Claude Desktop, for darwin and windows
#                                (needs mcpb: sh release/install.sh)
# Usage: release/build.sh [-v VERSION] [-o OUTDIR] [GOOS/GOARCH ...]
# Without platforms it builds all six: linux, darwin, windows on amd64 and arm64.
# VERSION defaults to the latest tag (git describe) without its v, else 0.0.0-dev.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
version="" out="$repo/dist"
while getopts v:o: opt; do
  case $opt in
    v) version=$OPTARG ;;
    o) out=$OPTARG ;;
    *) echo "usage: release/build.sh [-v VERSION] [-o OUTDIR] [GOOS/GOARCH ...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ -z "$version" ]; then
  version=$(git -C "$repo" describe --tags --abbrev=0 2>/dev/null || echo v0.0.0-dev)
  version=${version#v}
fi
platforms=("$@")
[ ${#platforms[@]} -gt 0 ] || platforms=(linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64)
mkdir -p "$out/npm"
out=$(cd "$out" && pwd)

# The browser build (`llmfs serve --web`'s /demo/ page) is build output, not kept in git:
# write it to web/dist and embed it with the tag llmfs_webdist.
echo "== browser build (web/dist)" >&2
(cd "$repo" && go generate ./web)

npm_specs=() mcpb_targets=()
for p in "${platforms[@]}"; do
  goos=${p%/*} goarch=${p#*/} ext=""
  [ "$goos" = windows ] && ext=.exe
  bin="$out/llmfs-$goos-$goarch$ext"
  echo "== $goos/$goarch -> ${bin#"$out"/}" >&2
  (cd "$repo" && CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch \
    go build -trimpath -tags llmfs_webdist -ldflags="-s -w -X github.com/llmfs/llmfs/internal/buildinfo.stamped=$version" -o "$bin" ./cmd/llmfs)
  # npm's names for the platform.
  os=$goos cpu=$goarch
  [ "$goos" = windows ] && os=win32
  [ "$goarch" = amd64 ] && cpu=x64
  npm_specs+=("$bin:$os:$cpu")
  case $goos in darwin | windows) mcpb_targets+=("$bin:$os:$goos-$goarch") ;; esac
done

echo "== npm packages $version" >&2
rm -f "$out"/npm/*.tgz
for dir in $(node "$repo/release/npm.mjs" "$version" "$out/npm/stage" "${npm_specs[@]}"); do
  (cd "$out/npm" && npm pack --silent "$dir" >/dev/null)
done

mcpb=$repo/release/node_modules/.bin/mcpb
if [ ${#mcpb_targets[@]} -gt 0 ]; then
  if [ -x "$mcpb" ]; then
    for t in "${mcpb_targets[@]}"; do
      IFS=: read -r bin os name <<<"$t"
      echo "== MCP bundle llmfs-$name.mcpb" >&2
      stage="$out/mcpb/$name"
      rm -rf "$stage" && mkdir -p "$stage/server"
      node "$repo/release/mcpb-manifest.mjs" "$version" "$os" >"$stage/manifest.json"
      exe=llmfs
      [ "$os" = win32 ] && exe=llmfs.exe
      cp "$bin" "$stage/server/$exe"
      "$mcpb" validate "$stage/manifest.json" >&2
      "$mcpb" pack "$stage" "$out/llmfs-$name.mcpb" >&2
    done
  else
    echo "-- no mcpb (run: sh release/install.sh); skipping the MCP bundles" >&2
  fi
fi

node -e 'const fs=require("fs");const s=JSON.parse(fs.readFileSync(process.argv[1],"utf8"));s.version=process.argv[2];for(const p of s.packages)p.version=process.argv[2];fs.writeFileSync(process.argv[3],JSON.stringify(s,null,2)+"\n")' "$repo/server.json" "$version" "$out/server.json"
(cd "$out" && rm -f SHA256SUMS && find . -maxdepth 2 -type f \( -name 'llmfs-*' -o -name '*.tgz' \) \
  ! -path './mcpb/*' | sed 's|^\./||' | sort | xargs sha256sum >SHA256SUMS)
echo "$out"
