# The engine stage: the position after the last solver move (engine_deep.py ... end) beside the
# position before it, as the crushing score: each alone, their mean, max and min, fitted on one half
# of a sample and read on the other (docs/engine.md). python scripts/engine_end.py FEATURES.csv END.csv
import sys
sys.path.insert(0, "scripts")
from engine_fit_rule import load, f1, label, fit, deep_scores
feat = {r["id"]: r for r in load(sys.argv[1])}
rows = [dict(feat[i], end=s) for i, s in deep_scores(sys.argv[2]).items()]
cl = lambda v: max(-2000, min(2000, v))
cuts = [(C,) for C in range(200, 801, 10)]
fams = {
    "before the last move (engine_cp)": lambda C: lambda r: label(r["last"], C, 80),
    "after the last move": lambda C: lambda r: label(r["end"], C, 80),
    "mean of the two": lambda C: lambda r: label((cl(r["last"]) + cl(r["end"])) / 2, C, 80),
    "max of the two": lambda C: lambda r: label(max(r["last"], r["end"]), C, 80),
    "min of the two": lambda C: lambda r: label(min(r["last"], r["end"]), C, 80),
}
print(len(rows), "puzzles")
for name, fam in fams.items():
    res = []
    for tr, te in ((rows[::2], rows[1::2]), (rows[1::2], rows[::2])):
        pr = fit(tr, fam, cuts); p = fam(*pr); res.append(f"{pr[0]}: {f1(te, p, 'crushing'):.3f} / {f1(te, p, 'advantage'):.3f}")
    print(f"{name:34s}", " ; ".join(res))
fam = lambda C0, k: lambda r: label(max(r["last"], r["end"]), C0 + k * r["pieces"], 80)
res = []
for tr, te in ((rows[::2], rows[1::2]), (rows[1::2], rows[::2])):
    pr = fit(tr, fam, [(C0, k) for C0 in range(0, 601, 10) for k in range(0, 13)]); p = fam(*pr)
    res.append(f"{pr[0]} + {pr[1]} x pieces: {f1(te, p, 'crushing'):.3f} / {f1(te, p, 'advantage'):.3f}")
print(f"{'max of the two, pieces-dependent':34s}", " ; ".join(res))
