# The engine stage: crushing / advantage rules fitted on one seeded sample's features
# (engine_features.py) and tested on a disjoint one (docs/engine.md, "Beyond one cut").
# Objective: the best crushing F1 with advantage F1 at least 0.67 (the issue asks 0.85 / 0.65).
# python scripts/engine_fit_rule.py FIT.csv TEST.csv
import csv, math, sys

ADVANTAGE_FLOOR = 0.67


def load(p):
    rows = []
    for r in csv.DictReader(open(p)):
        for k in r:
            if k not in ("id", "truth") and r[k] != "":
                r[k] = int(r[k])
        rows.append(r)
    return rows


def deep_scores(p):
    """An engine_deep.py file's scores by puzzle id, a mate as ±10000."""
    return {d["id"]: (10000 if int(d["mate"]) > 0 else -10000) if d["mate"] else int(d["cp"])
            for d in csv.DictReader(open(p))}


def win_chances(score, scale=1.0):
    """Lichess's winning chances (generator/util.py) of a python-chess score from the mover's side,
    its centipawns times `scale` first (the fitted rule reads Stockfish 15.1's times 1.5)."""
    if score.is_mate():
        return 1.0 if score.mate() > 0 else -1.0
    return 2 / (1 + math.exp(-0.00368208 * score.score() * scale)) - 1


def f1(rows, pred, th):
    tp = fp = fn = 0
    for r in rows:
        p = pred(r) == th; t = r["truth"] == th
        tp += p and t; fp += p and not t; fn += t and not p
    return 2 * tp / max(1, 2 * tp + fp + fn)


def label(s, C, A):
    return "crushing" if s > C else "advantage" if s > A else "equality"


def fit(rows, family, grid):
    best = None
    for params in grid:
        pred = family(*params)
        a = f1(rows, pred, "advantage")
        if a < ADVANTAGE_FLOOR:
            continue
        c = f1(rows, pred, "crushing")
        if best is None or c > best[0]:
            best = (c, params)
    return best[1]


# each family: params -> (row -> label); the advantage cut stays at 80
FAMILIES = {
    "cp > C (today's form)": (lambda C: lambda r: label(r["last"], C, 80), [(C,) for C in range(200, 801, 10)]),
    "first solver position > C": (lambda C: lambda r: label(r["first"], C, 80), [(C,) for C in range(200, 801, 10)]),
    "max over solver positions > C": (lambda C: lambda r: label(r["best_max"], C, 80), [(C,) for C in range(200, 801, 10)]),
    "cp > C0 + k * material": (lambda C0, k: lambda r: label(r["last"], C0 + k * r["total"], 80),
                               [(C0, k) for C0 in range(0, 601, 10) for k in range(0, 11)]),
    "cp > C0 + k * pieces": (lambda C0, k: lambda r: label(r["last"], C0 + k * r["pieces"], 80),
                             [(C0, k) for C0 in range(0, 601, 10) for k in range(0, 13)]),
}

if __name__ == "__main__":
    fitrows, testrows = load(sys.argv[1]), load(sys.argv[2])
    for name, (fam, grid) in FAMILIES.items():
        halves = []
        for tr, te in ((fitrows[::2], fitrows[1::2]), (fitrows[1::2], fitrows[::2])):
            params = fit(tr, fam, grid); p = fam(*params)
            halves.append(f"{params} {f1(te, p, 'crushing'):.3f}/{f1(te, p, 'advantage'):.3f}")
        params = fit(fitrows, fam, grid); p = fam(*params)
        print(f"{name}: halves (fit on one, crushing/advantage on the other) {'; '.join(halves)}"
              f" | all {params}: fit {f1(fitrows, p, 'crushing'):.3f}/{f1(fitrows, p, 'advantage'):.3f}"
              f" test {f1(testrows, p, 'crushing'):.3f}/{f1(testrows, p, 'advantage'):.3f}", flush=True)
