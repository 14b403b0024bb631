# The engine stage: two deep searches of the same puzzles (engine_deep.py): the same search run a
# second time (other threads, another table) or another engine at the same budget, both read by
# Lichess's literal 600 / 200: how far the second's crushing agrees with the first's, against how
# far either agrees with Lichess's published themes. docs/engine-fit.md.
# python scripts/engine_retest.py FEATURES.csv DEEP_A.csv DEEP_B.csv
import random, statistics, sys
sys.path.insert(0, "scripts")
from engine_fit_rule import load, label, deep_scores


def dice(xs, ys):
    """F1 of one set of puzzles against another (symmetric)."""
    return 2 * len(xs & ys) / max(1, len(xs) + len(ys))


truth = {r["id"]: r["truth"] for r in load(sys.argv[1])}
a, b = deep_scores(sys.argv[2]), deep_scores(sys.argv[3])
ids = sorted(set(a) & set(b) & set(truth))
print(len(ids), "puzzles searched both times")
theme = lambda s, t: {i for i in ids if label(s[i], 600, 200) == t}
lichess = lambda t: {i for i in ids if truth[i] == t}
for t in ("crushing", "advantage"):
    print(f"{t}: first run against Lichess {dice(theme(a, t), lichess(t)):.3f}, second against"
          f" Lichess {dice(theme(b, t), lichess(t)):.3f}, second against first"
          f" {dice(theme(b, t), theme(a, t)):.3f}")
# seeded bootstrap 95 % intervals of the crushing agreements
rng = random.Random(1)
draws = [[ids[rng.randrange(len(ids))] for _ in ids] for _ in range(1000)]


def interval(x, y):
    v = sorted(2 * sum(x[i] and y[i] for i in d) / max(1, sum(x[i] for i in d) + sum(y[i] for i in d))
               for d in draws)
    return f"[{v[25]:.3f}, {v[974]:.3f}]"


first = {i: a[i] > 600 for i in ids}; second = {i: b[i] > 600 for i in ids}
published = {i: truth[i] == "crushing" for i in ids}
print(f"crushing, 95 % intervals: second against first {interval(second, first)}, first against"
      f" Lichess {interval(first, published)}")
flips = [i for i in ids if first[i] != second[i]]
both = [abs(a[i] - b[i]) for i in ids if abs(a[i]) < 10000 and abs(b[i]) < 10000]
print(f"crushing read differently by the two runs: {len(flips)} of {len(ids)};"
      f" score difference where neither is a mate: median {statistics.median(both):.0f} cp,"
      f" 90th percentile {sorted(both)[len(both) * 9 // 10]} cp")
for lo, hi in ((0, 100), (100, 300), (300, None)):
    near = [i for i in ids if abs(a[i] - 600) >= lo and (hi is None or abs(a[i] - 600) < hi)]
    same = sum(first[i] == second[i] for i in near)
    lichess_same = sum(first[i] == published[i] for i in near)
    print(f"first run {lo} to {hi or 'more'} cp from 600: {len(near)} puzzles, the second run"
          f" agrees on {same / max(1, len(near)):.0%}, Lichess on {lichess_same / max(1, len(near)):.0%}")
