# For 10 puzzles Koga flagged unsound at 100k nodes: every solver move searched
# again (MultiPV 2) at 100k and at a deep budget, with the generator's margin.
import random, sys, chess, chess.engine, polars as pl
from engine_fit_rule import win_chances
d = pl.read_parquet(sys.argv[1]).filter(pl.col("sound") == False)
deep = int(sys.argv[2])
rows = d.sample(10, seed=35).sort("puzzle_id")
eng = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
eng.configure({"Threads": 1, "Hash": 16})
for r in rows.iter_rows(named=True):
    mv = r["moves"].split()
    print(f"== {r['puzzle_id']} rating {r['rating']} themes {' '.join(r['lichess_themes'])}\n   https://lichess.org/training/{r['puzzle_id']}  moves {r['moves']}")
    for ply in range(1, len(mv), 2):
        b = chess.Board(r["fen"])
        for m in mv[:ply]: b.push_uci(m)
        out = []
        for nodes in (100_000, deep):
            info = eng.analyse(b, chess.engine.Limit(nodes=nodes), multipv=2, game=object())
            best, second = info[0], info[1] if len(info) > 1 else None
            bs = best["score"].pov(b.turn); ss = second["score"].pov(b.turn) if second else None
            text = f"{nodes//1000}k: best {b.san(best['pv'][0])} {bs}" + (f", second {b.san(second['pv'][0])} {ss}, margin {win_chances(bs)-win_chances(ss):.2f}" if second else "")
            out.append(text)
        print(f"   ply {ply} puzzle {b.san(chess.Move.from_uci(mv[ply]))}: " + " | ".join(out))
    sys.stdout.flush()
eng.quit()
