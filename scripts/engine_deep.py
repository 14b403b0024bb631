# The engine stage: Stockfish's best score at the position before the last solver move (where
# Lichess's generator took cp), MultiPV 2, at a given budget, for the puzzles of a sample CSV;
# resumable (rows already in OUT are not searched again). docs/engine.md, "budget".
# With `end`, the position after the last solver move instead (the opponent to move, MultiPV 1), its
# score turned to the solver's side. With `classical`, Stockfish's hand-written evaluation
# (`Use NNUE` false) instead of its network: docs/engine.md, "Nothing else Koga knows helps".
# With `hash=MB`, a transposition table of MB megabytes (16 unless given; a deep budget fills 16).
# With `engine=PATH`, another UCI engine than /usr/games/stockfish (Stockfish 12: docs/engine.md).
# With `threads=N`, N search threads (1 unless given; more, as Lichess's generator ran, is not
# deterministic: a second run of the same search, docs/engine-fit.md).
# python scripts/engine_deep.py SAMPLE.csv NODES N OUT.csv [end] [classical] [hash=MB] [engine=PATH]
#   [threads=N]
import csv, os, sys, chess, chess.engine
src, nodes, n, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
end = "end" in sys.argv[5:]
classical = "classical" in sys.argv[5:]
hash_mb = next((int(a[5:]) for a in sys.argv[5:] if a.startswith("hash=")), 16)
engine = next((a[7:] for a in sys.argv[5:] if a.startswith("engine=")), "/usr/games/stockfish")
threads = next((int(a[8:]) for a in sys.argv[5:] if a.startswith("threads=")), 1)
done = {r["id"] for r in csv.DictReader(open(out))} if os.path.exists(out) else set()
rows = [r for r in csv.DictReader(open(src))]
eng = chess.engine.SimpleEngine.popen_uci(engine)
eng.configure({"Threads": threads, "Hash": hash_mb, "Use NNUE": not classical})
new = not os.path.exists(out)
with open(out, "a", newline="") as f:
    w = csv.writer(f)
    if new:
        w.writerow(["id", "cp", "mate"])
    for r in rows[:n]:
        if r["PuzzleId"] in done:
            continue
        b = chess.Board(r["FEN"]); mv = r["Moves"].split()
        for m in (mv if end else mv[:-1]):
            b.push_uci(m)
        info = eng.analyse(b, chess.engine.Limit(nodes=nodes), multipv=1 if end else 2, game=object())
        s = info[0]["score"].pov(not b.turn if end else b.turn)
        w.writerow([r["PuzzleId"], s.score(), s.mate()]); f.flush()
eng.quit()
