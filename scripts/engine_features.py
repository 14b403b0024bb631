# The engine stage: per-puzzle features for the crushing / advantage rule (docs/engine.md), from a
# `koga annotate --engine` run's puzzles.parquet: the engine's score at every solver move's
# position (free: Koga searches them all for soundness) and the material of the line.
# Writes a CSV: python scripts/engine_features.py OUT/puzzles.parquet features.csv
import csv, sys, chess, polars as pl

VAL = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
MATE = 10000


def mat(b, side):
    return sum(len(b.pieces(p, side)) * v for p, v in VAL.items()) - sum(len(b.pieces(p, not side)) * v for p, v in VAL.items())


def val(cp, mate):
    if mate is not None:
        return MATE if mate > 0 else -MATE
    return cp


def main(src, out):
    d = pl.read_parquet(src).filter(pl.col("engine_error").is_null())
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "truth", "plies", "last", "first", "best_max", "best_min", "mat_start", "mat_end", "mat_max", "promo", "total", "pieces"])
        for r in d.iter_rows(named=True):
            t = set(r["lichess_themes"])
            if "mate" in t:
                continue
            truth = "crushing" if "crushing" in t else "advantage" if "advantage" in t else "equality" if "equality" in t else "none"
            b = chess.Board(r["fen"]); mv = r["moves"].split(); solver = not b.turn
            mats = []; promo = 0; total = 0
            for i, m in enumerate(mv):
                if i == len(mv) - 1:  # the position before the last solver move: the material on the board
                    total = sum(len(b.pieces(p, c)) * v for p, v in VAL.items() for c in (chess.WHITE, chess.BLACK))
                    pieces = total - len(b.pieces(chess.PAWN, chess.WHITE)) - len(b.pieces(chess.PAWN, chess.BLACK))
                mm = chess.Move.from_uci(m)
                if i % 2 == 1 and mm.promotion: promo = 1
                b.push(mm)
                if i % 2 == 0: mats.append(mat(b, solver))  # before each solver move
            mat_end = mat(b, solver)
            # the best score at each solver move's position: the puzzle's move's where the engine chose it, else the engine's alternative
            best = []
            for mc, mm_, ac, am in zip(r["move_cp"], r["move_mate"], r["alt_cp"], r["alt_mate"]):
                cand = [x for x in (val(mc, mm_), val(ac, am)) if x is not None]
                best.append(max(cand) if cand else None)
            last = val(r["engine_cp"], r["engine_mate"])
            w.writerow([r["puzzle_id"], truth, len(mv), last, best[0], max(best), min(best), mats[0], mat_end, max(mats + [mat_end]), promo, total, pieces])


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
