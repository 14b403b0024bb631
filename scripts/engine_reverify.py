# The engine stage's soundness (docs/engine.md, "Soundness"): the puzzles an --engine run flagged
# unsound (or, with `sound N`, N of those it passed, seeded), every solver move searched again
# from an empty hash at each budget (MultiPV 2), read by the generator's test on the fitted scale.
# python scripts/engine_reverify.py OUT/puzzles.parquet 500000,2000000 [sound N]
#   -> one line a puzzle: its verdict at each budget (S sound, U not) and the plies that fail;
#      then how many of the puzzles are sound at each budget.
# A sample for the run: python scripts/engine_reverify.py --sample 7508 300 > s300.csv
import random, subprocess, sys

if sys.argv[1] == "--sample":
    text = subprocess.run(["zstdcat", "tests/data/lichess_puzzles_dev.csv.zst"], capture_output=True, text=True).stdout
    rows = text.splitlines()
    sys.stdout.write("\n".join([rows[0]] + random.Random(int(sys.argv[2])).sample(rows[1:], int(sys.argv[3]))) + "\n")
    sys.exit()

import chess, chess.engine, polars as pl

from engine_fit_rule import win_chances

SCALE = 1.5  # Rule::scale of the fitted rule: 600 / 400


def chances(score):
    return win_chances(score, SCALE)


def only_move(board, ours, info):
    best = info[0]["score"].pov(board.turn)
    if info[0]["pv"][0] != ours:
        after = board.copy()
        after.push(ours)
        return after.is_checkmate() and best.is_mate() and best.mate() == 1
    if len(info) < 2:
        return True
    second = info[1]["score"].pov(board.turn)
    if best.is_mate() and best.mate() == 1 and chances(second) <= 0.6:
        return True
    return chances(best) > chances(second) + 0.7


puzzles = pl.read_parquet(sys.argv[1]).filter(pl.col("sound").is_not_null()).sort("puzzle_id")
budgets = [int(n) for n in sys.argv[2].split(",")]
if len(sys.argv) > 3 and sys.argv[3] == "sound":
    puzzles = puzzles.filter(pl.col("sound")).sample(int(sys.argv[4]), seed=1, shuffle=True)
else:
    puzzles = puzzles.filter(~pl.col("sound"))
engine = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
engine.configure({"Threads": 1, "Hash": 16})
sound_at = dict.fromkeys(budgets, 0)
for row in puzzles.iter_rows(named=True):
    moves = row["moves"].split()
    fails = {n: [] for n in budgets}
    for ply in range(1, len(moves), 2):
        board = chess.Board(row["fen"])
        for uci in moves[:ply]:
            board.push_uci(uci)
        for n in budgets:
            info = engine.analyse(board, chess.engine.Limit(nodes=n), multipv=2, game=object())
            if not only_move(board, chess.Move.from_uci(moves[ply]), info):
                fails[n].append(ply)
    for n in budgets:
        sound_at[n] += not fails[n]
    verdicts = " ".join(f"{n // 1000}k:{'U' if fails[n] else 'S'}{fails[n] or ''}" for n in budgets)
    print(row["puzzle_id"], verdicts.replace(", ", ","), flush=True)
engine.quit()
print(f"{puzzles.height} puzzles; sound at " + ", ".join(f"{n // 1000}k: {sound_at[n]}" for n in budgets))
