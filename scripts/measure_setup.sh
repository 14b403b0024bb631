#!/usr/bin/env bash
# The README's set-up as a newcomer meets it: a fresh clone in an empty
# directory, with empty cargo, pip and npm caches; `make annotate`, then
# `make test`, each timed; what each downloaded; target/'s size after both.
#   scripts/measure_setup.sh [WORK_DIR]     (default: a new temporary directory)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d)}
mkdir -p "$work"
export CARGO_HOME="$work/cargo-home" PIP_CACHE_DIR="$work/pip-cache" npm_config_cache="$work/npm-cache"
mkdir -p "$CARGO_HOME"
git clone --quiet "$repo" "$work/koga"
cd "$work/koga"
size() { { du -sm "$@" 2>/dev/null || true; } | awk '{s += $1} END {print s + 0}'; }
step() {
  local name=$1; shift
  local before_cargo before_pip before_npm start end
  before_cargo=$(size "$CARGO_HOME/registry/cache"); before_pip=$(size "$PIP_CACHE_DIR"); before_npm=$(size "$npm_config_cache")
  start=$(date +%s)
  local log="$work/${name// /-}.log"
  "$@" > "$log" 2>&1 || { echo "$name failed: see $log"; tail -20 "$log"; exit 1; }
  end=$(date +%s)
  echo "$name: $((end - start)) s; downloaded: crates $(( $(size "$CARGO_HOME/registry/cache") - before_cargo )) MB," \
       "pip $(( $(size "$PIP_CACHE_DIR") - before_pip )) MB, npm $(( $(size "$npm_config_cache") - before_npm )) MB"
}
step "make annotate" make annotate
step "make test" make test
echo "target/: $(size target) MB (release build $(size target/release) MB, Python environment $(size target/pyenv) MB, browser $(size target/browser) MB)"
