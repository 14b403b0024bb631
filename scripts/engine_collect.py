# Collects Stockfish evaluations at the position Lichess's generator scored
# (before the last solver move, solver's view, MultiPV 2) for a seeded sample.
import csv, io, random, sys, subprocess, chess, chess.engine
last_only = len(sys.argv) > 5
nodes = int(sys.argv[1]); n = int(sys.argv[2]); seed = int(sys.argv[3]); out = sys.argv[4]
rows = list(csv.DictReader(io.StringIO(subprocess.run(["zstdcat", "tests/data/lichess_puzzles_dev.csv.zst"], capture_output=True, text=True).stdout)))
random.Random(seed).shuffle(rows)
eng = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
eng.configure({"Threads": 1, "Hash": 16})
with open(out, "w") as f:
    w = csv.writer(f); w.writerow(["id", "themes", "last_cp", "last_mate", "key_cp", "key_mate"])
    for r in rows[:n]:
        b = chess.Board(r["FEN"]); mv = r["Moves"].split()
        res = []
        for ply in ((len(mv) - 1,) if last_only else (len(mv) - 1, 1)):
            bb = chess.Board(r["FEN"])
            for m in mv[:ply]: bb.push_uci(m)
            info = eng.analyse(bb, chess.engine.Limit(nodes=nodes), multipv=2, game=object())
            s = info[0]["score"].pov(bb.turn)
            res += [s.score(), s.mate()]
        w.writerow([r["PuzzleId"], r["Themes"]] + res + ([None, None] if last_only else [])); f.flush()
eng.quit()
