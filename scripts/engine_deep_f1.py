# The engine stage: the same puzzles scored at 100k nodes (a koga run's features) and at a larger
# budget (engine_deep.py): F1 of the flat and pieces-dependent crushing cuts at each budget, fitted
# (best crushing F1 with advantage at least 0.67) on the first sample's puzzles and, given a second
# sample, read on it. docs/engine.md.
# python scripts/engine_deep_f1.py FIT_FEATURES.csv FIT_DEEP.csv [TEST_FEATURES.csv TEST_DEEP.csv]
import csv, sys
sys.path.insert(0, "scripts")
from engine_fit_rule import load, f1, label, fit


def join(features, deep):
    feat = {r["id"]: r for r in load(features)}
    rows = []
    for d in csv.DictReader(open(deep)):
        r = dict(feat[d["id"]]); r["deep"] = (10000 if int(d["mate"]) > 0 else -10000) if d["mate"] else int(d["cp"]); rows.append(r)
    return rows


fitrows = join(sys.argv[1], sys.argv[2])
testrows = join(sys.argv[3], sys.argv[4]) if len(sys.argv) > 4 else []
print(len(fitrows), "fitting puzzles,", len(testrows), "test puzzles")
for col, budget in (("last", "100k"), ("deep", "deep")):
    for name, fam, grid in [
        ("flat", lambda C, col=col: lambda r: label(r[col], C, 80), [(C,) for C in range(100, 1201, 10)]),
        ("pieces", lambda C0, k, col=col: lambda r: label(r[col], C0 + k * r["pieces"], 80), [(C0, k) for C0 in range(0, 801, 10) for k in range(0, 13)]),
    ]:
        params = fit(fitrows, fam, grid); p = fam(*params)
        out = f"{budget:5s} {name:7s} {params}: fit crushing {f1(fitrows, p, 'crushing'):.3f} advantage {f1(fitrows, p, 'advantage'):.3f}"
        if testrows:
            out += f" | test crushing {f1(testrows, p, 'crushing'):.3f} advantage {f1(testrows, p, 'advantage'):.3f}"
        print(out)
