# The engine stage: crushing/advantage cuts fitted on each half and tested on the other (docs/engine.md).
import csv, sys, random
rows = list(csv.DictReader(open(sys.argv[1])))
def sc(r):
    m = r["last_mate"]; return 5000 if m else int(r["last_cp"])
data = []
for r in rows:
    t = set(r["themes"].split())
    if "mate" in t: continue
    data.append((sc(r), "crushing" if "crushing" in t else "advantage" if "advantage" in t else "equality"))
def f1(d, C, A, th):
    p = [("crushing" if v > C else "advantage" if v > A else "equality", t) for v, t in d]
    tp = sum(x == th and t == th for x, t in p); fp = sum(x == th and t != th for x, t in p); fn = sum(x != th and t == th for x, t in p)
    return 2 * tp / max(1, 2 * tp + fp + fn)
def fit(d):
    return max(((C, A) for C in range(200, 1001, 10) for A in range(-100, C, 10)), key=lambda ca: f1(d, *ca, "crushing") + f1(d, *ca, "advantage"))
a, b = data[::2], data[1::2]
for tr, te, n in [(a, b, "even->odd"), (b, a, "odd->even")]:
    C, A = fit(tr); print(n, (C, A), "test F1 crushing %.3f advantage %.3f" % (f1(te, C, A, "crushing"), f1(te, C, A, "advantage")))
C, A = fit(data); print("all", len(data), (C, A), ["%s %.3f" % (th, f1(data, C, A, th)) for th in ("crushing", "advantage", "equality")])
