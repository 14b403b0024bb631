#!/usr/bin/env bash
# End-to-end throughput: annotate N puzzles (the dev set repeated under new
# ids) with the release binary; prints puzzles/s and peak RSS.
#   scripts/bench.sh [ROWS] [THREADS]
set -euo pipefail
rows=${1:-1000000}
threads=${2:-0}
cd "$(dirname "$0")/.."
cargo build --release --locked --quiet
cargo build --release --locked --quiet --example repeat_input
input="target/bench/input-${rows}.csv.zst"
mkdir -p target/bench
[ -f "$input" ] || target/release/examples/repeat_input "$rows" "$input"
out=target/bench/out
rm -rf "$out"
line=$(target/release/koga annotate "$input" --out "$out" --threads "$threads" --no-progress 2>&1 | tail -n 1)
echo "$line"
# "N rows read, …, in S s (R rows/s), peak RSS M MB"
rate=$(sed -n 's/.*(\([0-9]*\) rows\/s).*/\1/p' <<<"$line")
rss=$(sed -n 's/.*peak RSS \([0-9]*\) MB.*/\1/p' <<<"$line")
echo "end-to-end: ${rows} puzzles, threads=${threads:-all}: ${rate} puzzles/s, peak RSS ${rss} MB"
