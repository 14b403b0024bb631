# The engine stage: F1 of the fitted cuts at 10k, 100k and 1M nodes on the same puzzles (docs/engine.md).
import csv
def load(p):
    return {r["id"]: r for r in csv.DictReader(open(p))}
b = {n: load(f"target/engine-eval/n{n}.csv") for n in ("10k", "100k", "1m")}
ids = [i for i in b["1m"] if i in b["10k"] and i in b["100k"]]
def sc(r): return 5000 if r["last_mate"] else int(r["last_cp"])
def f1(data, C, A, th):
    p = [("crushing" if v > C else "advantage" if v > A else "equality", t) for v, t in data]
    tp = sum(x == th and t == th for x, t in p); fp = sum(x == th and t != th for x, t in p); fn = sum(x != th and t == th for x, t in p)
    return 2 * tp / max(1, 2 * tp + fp + fn)
def fit(data):
    return max(((C, A) for C in range(100, 1201, 10) for A in range(-100, C, 10)), key=lambda ca: f1(data, *ca, "crushing") + f1(data, *ca, "advantage"))
print(len(ids), "puzzles with all three budgets")
for n in ("10k", "100k", "1m"):
    data = []
    for i in ids:
        r = b[n][i]; t = set(r["themes"].split())
        if "mate" in t: continue
        data.append((sc(r), "crushing" if "crushing" in t else "advantage" if "advantage" in t else "equality"))
    C, A = fit(data)
    print(f"{n}: {len(data)} without mate; at 400/80 crushing {f1(data,400,80,'crushing'):.3f} advantage {f1(data,400,80,'advantage'):.3f};"
          f" best cuts here {C}/{A}: crushing {f1(data,C,A,'crushing'):.3f} advantage {f1(data,C,A,'advantage'):.3f};"
          f" Lichess 600/200: crushing {f1(data,600,200,'crushing'):.3f} advantage {f1(data,600,200,'advantage'):.3f}")
