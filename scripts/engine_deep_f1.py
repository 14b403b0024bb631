# The engine stage: the same puzzles scored at 100k nodes (a koga run's features) and at a larger
# budget (engine_deep.py): F1 of the flat and pieces-dependent crushing cuts at each budget, fitted
# (best crushing F1 with advantage at least 0.67) on the first sample's puzzles and, given a second
# sample, read on it; with both cuts fitted, and Lichess's literal 600 / 200; given both samples, the
# literal rule and today's default pooled, with bootstrap intervals. docs/engine-fit.md.
# python scripts/engine_deep_f1.py FIT_FEATURES.csv FIT_DEEP.csv [TEST_FEATURES.csv TEST_DEEP.csv]
import sys
sys.path.insert(0, "scripts")
from engine_fit_rule import load, f1, label, fit, deep_scores


def join(features, deep):
    feat = {r["id"]: r for r in load(features)}
    return [dict(feat[i], deep=s) for i, s in deep_scores(deep).items()]


fitrows = join(sys.argv[1], sys.argv[2])
testrows = join(sys.argv[3], sys.argv[4]) if len(sys.argv) > 4 else []
print(len(fitrows), "fitting puzzles,", len(testrows), "test puzzles")
for col, budget in (("last", "100k"), ("deep", "deep")):
    for name, fam, grid in [
        ("flat", lambda C, col=col: lambda r: label(r[col], C, 80), [(C,) for C in range(100, 1201, 10)]),
        ("pieces", lambda C0, k, col=col: lambda r: label(r[col], C0 + k * r["pieces"], 80), [(C0, k) for C0 in range(0, 801, 10) for k in range(0, 13)]),
        # both cuts fitted, for an engine on another scale than today's (Stockfish 12)
        ("two cuts", lambda C, A, col=col: lambda r: label(r[col], C, A), [(C, A) for C in range(100, 1201, 10) for A in range(-100, 401, 20)]),
    ]:
        params = fit(fitrows, fam, grid); p = fam(*params)
        out = f"{budget:5s} {name:7s} {params}: fit crushing {f1(fitrows, p, 'crushing'):.3f} advantage {f1(fitrows, p, 'advantage'):.3f}"
        if testrows:
            out += f" | test crushing {f1(testrows, p, 'crushing'):.3f} advantage {f1(testrows, p, 'advantage'):.3f}"
        print(out)
    # Lichess's literal 600 / 200, for an engine on Lichess's scale
    p = lambda r, col=col: label(r[col], 600, 200)
    out = f"{budget:5s} literal 600 / 200: fit crushing {f1(fitrows, p, 'crushing'):.3f} advantage {f1(fitrows, p, 'advantage'):.3f}"
    if testrows:
        out += f" | test crushing {f1(testrows, p, 'crushing'):.3f} advantage {f1(testrows, p, 'advantage'):.3f}"
    print(out)
if testrows:
    # both samples pooled: Lichess's literal rule on the deep scores against today's default rule
    # (400 / 80) on the 100k scores, with seeded bootstrap 95 % intervals, and how often Lichess
    # agrees with the literal reading by the deep score's distance from the 600 cut
    import random
    rows = fitrows + testrows; rng = random.Random(1)
    literal = lambda r: label(r["deep"], 600, 200); default = lambda r: label(r["last"], 400, 80)
    draws = [[rows[rng.randrange(len(rows))] for _ in rows] for _ in range(1000)]
    interval = lambda stat: (lambda v: f"[{v[25]:.3f}, {v[974]:.3f}]")(sorted(stat(d) for d in draws))
    for name, p in (("deep, literal 600 / 200", literal), ("100k, today's 400 / 80", default)):
        print(f"pooled {len(rows)}, {name}: crushing {f1(rows, p, 'crushing'):.3f} {interval(lambda d: f1(d, p, 'crushing'))}"
              f" advantage {f1(rows, p, 'advantage'):.3f}")
    print("pooled, crushing F1 literal minus default:", interval(lambda d: f1(d, literal, "crushing") - f1(d, default, "crushing")))
    for lo, hi in ((0, 100), (100, 300), (300, None)):
        near = [r for r in rows if abs(r["deep"] - 600) >= lo and (hi is None or abs(r["deep"] - 600) < hi)]
        agree = sum((literal(r) == "crushing") == (r["truth"] == "crushing") for r in near)
        print(f"deep score {lo} to {hi or 'more'} cp from 600: {len(near)} puzzles, Lichess agrees on {agree / max(1, len(near)):.0%}")
