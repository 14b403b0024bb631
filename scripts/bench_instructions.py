"""Instructions per puzzle, in total and per stage, counted by cachegrind.

    python3 scripts/bench_instructions.py KOGA INPUT [--out FILE.md]

Runs `KOGA annotate INPUT --threads 1` under `valgrind --tool=cachegrind`
(instructions only: deterministic for the same binary and input, whatever
else the machine does), then groups cachegrind's per-function counts by the
stage each function belongs to, read off its symbol:

| stage | what |
|---|---|
| read | zstd decoding, the CSV scan and split (memchr), Parquet input |
| replay | shakmaty and Koga's FEN reading (`koga::fen`), line replay, SAN |
| labels | Koga's detectors, per-ply facts, board analysis, arbitration, `gain` |
| themes | Lichess's themes by its tagger's rules |
| write | the output tables: Parquet pages (encoding, statistics), zstd |
| allocator | malloc and free, memmove/memcpy/memset |
| other | everything else (threads, std, start-up) |

Prints a Markdown table; `--out` writes it to a file too.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

# First match wins: a symbol is put in the stage of the first pattern it contains.
STAGES = [
    ("allocator", ["malloc", "free", "realloc", "calloc", "memmove", "memcpy", "memset", "__memcmp", "_int_",
                   "alloc::alloc", "__rust_alloc", "__rust_dealloc", "__rust_realloc", "tcache", "sysmalloc"]),
    ("themes", ["koga::lichess"]),
    ("write", ["polars_parquet", "polars_arrow", "polars_compute", "polars_utils", "polars_buffer", "ZSTD_compress",
               "ZSTD_compressBlock", "ZSTD_encode", "ZSTD_count", "ZSTD_ldm", "ZSTD_buildCTable", "HUF_compress",
               "HUF_build", "FSE_build", "FSE_compress", "HIST_", "ZSTD_CCtx", "ZSTD_resetCCtx", "ZSTD_insert",
               "ZSTD_fill", "ZSTD_rescale", "ZSTD_opt", "ZSTD_seqToCodes", "ZSTD_selectEncodingType",
               "ZSTD_buildSeqStore", "ZSTD_entropyCompress", "ZSTD_noCompress", "koga::output", "koga::table"]),
    ("read", ["ZSTD_decompress", "ZSTD_decode", "HUF_decompress", "HUF_readDTable", "FSE_decompress",
              "FSE_buildDTable", "ZSTD_DCtx", "ZSTD_buildFSETable", "ZSTD_execSequence", "ZSTD_copy", "koga::input",
              "csv::", "csv_core", "memchr::", "simdutf8", "core::str::converts::from_utf8", "core::str::validations"]),
    ("replay", ["shakmaty", "koga::line", "koga::fen"]),
    ("labels", ["koga::tactics", "koga::facts", "koga::board", "koga::arbitrate", "koga::net", "koga::payoff",
                "koga::threats", "koga::mate_scene", "koga::annotate", "koga::fire", "koga::role", "koga::label"]),
]
ORDER = ["read", "replay", "labels", "themes", "write", "allocator", "other"]


def stage_of(symbol):
    for stage, patterns in STAGES:
        if any(p in symbol for p in patterns):
            return stage
    return "other"


def counts(path):
    """Instructions by function symbol, from a cachegrind.out file."""
    by_function, function = {}, None
    with open(path) as f:
        for line in f:
            if line.startswith("fn="):
                function = line[3:].rstrip("\n")
            elif line[:1].isdigit() and function is not None:
                parts = line.split()
                if len(parts) >= 2:
                    by_function[function] = by_function.get(function, 0) + int(parts[1])
    return by_function


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("koga")
    parser.add_argument("input")
    parser.add_argument("--out", help="also write the table to this file")
    parser.add_argument("--top", type=int, default=0, help="also list the N costliest functions")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        profile = os.path.join(work, "cachegrind.out")
        run = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={profile}",
                              args.koga, "annotate", args.input, "--out", os.path.join(work, "out"), "--threads", "1",
                              "--no-progress"], capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"bench-instructions: the run failed:\n{run.stderr[-2000:]}")
        summary = next(line for line in run.stderr.splitlines() if line.startswith("koga: "))
        puzzles = int(re.search(r"(\d+) rows read", summary).group(1))
        by_function = counts(profile)
    total = sum(by_function.values())
    by_stage = {stage: 0 for stage in ORDER}
    for function, n in by_function.items():
        by_stage[stage_of(function)] += n
    lines = [f"{puzzles:,} puzzles, `--threads 1`: {total:,} instructions, **{total / puzzles:,.0f} a puzzle**", "",
             "| stage | instructions / puzzle | share |", "|---|---:|---:|"]
    lines += [f"| {stage} | {by_stage[stage] / puzzles:,.0f} | {100 * by_stage[stage] / total:.1f} % |" for stage in ORDER]
    lines.append(f"| **total** | **{total / puzzles:,.0f}** | 100 % |")
    if args.top:
        lines += ["", "| function | stage | instructions / puzzle |", "|---|---|---:|"]
        for function, n in sorted(by_function.items(), key=lambda kv: -kv[1])[:args.top]:
            lines.append(f"| `{function[:90]}` | {stage_of(function)} | {n / puzzles:,.0f} |")
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
