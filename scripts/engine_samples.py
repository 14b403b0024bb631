# The engine stage, issue 35: the dev set's puzzles whose line does not end in mate, shuffled with
# random.Random(3535): the first 1,500 to fit a rule, the next 1,500 to test it (docs/engine.md).
# python scripts/engine_samples.py DIR  -> DIR/fit.csv, DIR/test.csv
import csv, io, random, subprocess, sys, chess

rows = list(csv.DictReader(io.StringIO(subprocess.run(["zstdcat", "tests/data/lichess_puzzles_dev.csv.zst"], capture_output=True, text=True).stdout)))


def mates(r):
    b = chess.Board(r["FEN"])
    for m in r["Moves"].split():
        b.push_uci(m)
    return b.is_checkmate()


nm = [r for r in rows if not mates(r)]
random.Random(3535).shuffle(nm)
for name, part in (("fit", nm[:1500]), ("test", nm[1500:3000])):
    with open(f"{sys.argv[1]}/{name}.csv", "w", newline="") as f:
        w = csv.DictWriter(f, list(rows[0])); w.writeheader(); w.writerows(part)
