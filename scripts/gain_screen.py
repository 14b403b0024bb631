"""A Stockfish screen for the end of `gain`'s search: what Koga says still falls after a puzzle's
line, against what falls along Stockfish's principal variation from the line's final position.

    target/pyenv/bin/python scripts/gain_screen.py [--nodes N] [--plies K] CSV IDS KOGA [KOGA_B] > screen.csv

(target/pyenv, which `make test` builds, has python-chess; Stockfish is `apt-get install stockfish`.)

CSV is the puzzle file (plain or .zst, as `koga explain --csv` reads it), IDS a file of puzzle ids,
one a line. For each puzzle it writes Koga's figure (the last lines of `koga explain`: "after the
line White, to move, still nets 2", turned to the solver's side: +2 where the solver nets them) and
Stockfish's: the material (P1 N3 B3 R5 Q9), the solver's minus the opponent's, at the last point of
the first K plies of the principal variation (8 by default) where the next move takes nothing, less
the material where the line ends. Lines that mate, and puzzles where Stockfish finds a mate, are
left out. With a second build (KOGA_B: a rule on trial), it says per puzzle which build is closer.

A screen, not a judge: read many puzzles, not one. It counts material only, every capture in the
window counts (a trade later in it, a promotion), and where Stockfish plays elsewhere first, or its
variation is short, nothing falls. On the 17 puzzles of a judged old-against-new round it named the
judge's side 9 times, while over the 99 puzzles of that change it put the new figure closer 66
times and the old 33, as the judge's 14 to 5 did (docs/gain-judging.md).
"""

import argparse
import csv
import re
import shutil
import subprocess
import sys

# python-chess is imported where a board or the engine is needed: reading `koga explain` needs
# neither (tests/python/test_gain_screen.py checks that reading against the CLI).
AFTER = re.compile(r"after the line (White|Black), to move, (?:still nets (\d+)|nets nothing more|loses (\d+) more)")


def read_explain(text):
    """From `koga explain`'s text: the FEN, the line's moves in UCI, whether the solver is White,
    and the after-the-line figure turned to the solver's side; None for a line that mates (no
    figure) or text that is no explanation."""
    fen = re.search(r"^FEN\s+(.+)$", text, re.M)
    solver = re.search(r"^solver (White|Black)", text, re.M)
    after = AFTER.search(text)
    if not (fen and solver and after):
        return None
    moves = re.findall(r"^ply\s+\d+\s+\S+\s+(\S+)", text, re.M)
    nets = int(after.group(2) or 0) - int(after.group(3) or 0)
    return fen.group(1), moves, solver.group(1) == "White", nets if after.group(1) == solver.group(1) else -nets


def material(board, side):
    import chess

    values = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}
    return sum(values[p.piece_type] * (1 if p.color == side else -1) for p in board.piece_map().values())


def explain(koga, csv_path, puzzle_id):
    """The line's final position, the solver (a python-chess colour), and Koga's figure, or None."""
    import chess

    out = subprocess.run([koga, "explain", "--csv", csv_path, puzzle_id], capture_output=True, text=True)
    read = read_explain(out.stdout) if out.returncode == 0 else None
    if read is None:
        return None
    fen, moves, solver_is_white, figure = read
    board = chess.Board(fen)
    for uci in moves:
        board.push_uci(uci)
    return board, chess.WHITE if solver_is_white else chess.BLACK, figure


def stockfish_net(engine, board, solver, nodes, plies):
    """What falls along the principal variation (solver's side), its moves in SAN, and whether
    Stockfish sees a mate."""
    import chess.engine

    # A new game each time (ucinewgame, the hash cleared): the same figures run to run.
    info = engine.analyse(board, chess.engine.Limit(nodes=nodes), game=object())
    pv = info.get("pv", [])[:plies]
    start = settled = material(board, solver)
    walk, san = board.copy(), []
    for i, move in enumerate(pv):
        san.append(walk.san(move))
        walk.push(move)
        if i + 1 == len(pv) or not walk.is_capture(pv[i + 1]):
            settled = material(walk, solver)
    return settled - start, " ".join(san), info["score"].is_mate()


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=1_000_000, help="Stockfish nodes a position (1000000)")
    parser.add_argument("--plies", type=int, default=8, help="principal-variation plies read (8)")
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    parser.add_argument("csv")
    parser.add_argument("ids")
    parser.add_argument("koga", nargs="+", help="one build, or two to compare (the second on trial)")
    args = parser.parse_args(argv[1:])
    if len(args.koga) > 2:
        parser.error("one build, or two")
    import chess.engine

    ids = [line.strip() for line in open(args.ids) if line.strip()]
    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    engine.configure({"Threads": 1, "Hash": 64})
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle_id", *[f"koga_{'ab'[i]}" for i in range(len(args.koga))], "stockfish", "pv"])
    agree, closer = [0] * len(args.koga), [0, 0]
    read = 0
    for puzzle_id in ids:
        shown = [explain(koga, args.csv, puzzle_id) for koga in args.koga]
        if any(s is None for s in shown):
            continue
        board, solver, _ = shown[0]
        net, pv, mate = stockfish_net(engine, board, solver, args.nodes, args.plies)
        if mate:
            continue
        figures = [s[2] for s in shown]
        out.writerow([puzzle_id, *figures, net, pv])
        read += 1
        for i, figure in enumerate(figures):
            agree[i] += figure == net
        if len(figures) == 2 and abs(figures[0] - net) != abs(figures[1] - net):
            closer[abs(figures[1] - net) < abs(figures[0] - net)] += 1
    engine.quit()
    summary = ", ".join(f"build {'ab'[i]} equal to Stockfish {n}" for i, n in enumerate(agree))
    print(f"{read} puzzles read: {summary}", file=sys.stderr)
    if len(args.koga) == 2:
        print(f"closer to Stockfish: build a {closer[0]}, build b {closer[1]}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv)
