#!/usr/bin/env bash
# `make test-browser`: the gallery of the embedded sample and one label doc
# open in headless Chromium; every board loads, no console error;
# screenshots in target/browser/shots/. Needs Node.js and npm (puppeteer-core
# and @sparticuz/chromium, a Chromium that runs offline, installed into
# target/browser/); says so in one line and passes where they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
koga=${KOGA:-target/release/koga}
python=${PYTHON_ENV:-target/pyenv/bin/python}
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "test-browser: skipped: Node.js and npm are not installed (the README lists them)"
  exit 0
fi
work=target/browser
mkdir -p "$work"
cp tests/browser/package.json tests/browser/package-lock.json "$work"/
if ! (cd "$work" && npm ci --no-audit --no-fund --loglevel=error >npm.log 2>&1); then
  echo "test-browser: skipped: npm could not install puppeteer-core and @sparticuz/chromium (see $work/npm.log)"
  exit 0
fi
rm -rf "$work/sample" "$work/gallery"
"$koga" annotate data/sample.csv.zst --out "$work/sample" --no-progress 2>/dev/null
"$python" scripts/gallery.py "$work/sample" --koga "$koga" --out "$work/gallery" --per-label 6
NODE_PATH="$work/node_modules" node tests/browser/check_pages.js "$work/shots" \
  "$work/gallery/index.html" "$work/gallery/fork.html" "$work/gallery/backRankMate.html" \
  "$work/gallery/short.html" docs/tactics/fork.md
