# Issue 35: does Stockfish's classical evaluation agree with Lichess's crushing better than its
# network? Two engine_deep.py runs per sample (the network, and `classical`), the same puzzles;
# a crushing cut (and a blend, network + w x classical) fitted on the fit sample, read on the test.
# python scripts/engine_eval_kind.py FIT.csv FIT_NN.csv FIT_CL.csv TEST.csv TEST_NN.csv TEST_CL.csv
import csv, sys


def load(sample, network, classical):
    themes = {r["PuzzleId"]: set(r["Themes"].split()) for r in csv.DictReader(open(sample))}

    def score(r):  # a mate counts as 3,000 cp, any score is clamped there
        m = r["mate"]
        if m not in ("", "None"):
            return 3000 if int(m) > 0 else -3000
        return max(-3000, min(3000, int(r["cp"])))

    a = {r["id"]: score(r) for r in csv.DictReader(open(network))}
    b = {r["id"]: score(r) for r in csv.DictReader(open(classical))}
    return [(a[i], b[i], "crushing" in themes[i]) for i in a if i in b]


def f1(rows, w_net, w_cl, cut):
    tp = fp = fn = 0
    for a, b, crushing in rows:
        p = w_net * a + w_cl * b > cut
        tp += p and crushing
        fp += p and not crushing
        fn += crushing and not p
    return 2 * tp / (2 * tp + fp + fn)


fit, test = load(*sys.argv[1:4]), load(*sys.argv[4:7])
print(f"{len(fit)} fitting puzzles, {len(test)} test puzzles; crushing F1, cut fitted on the first")
for name, weights in (("network", [(1, 0)]), ("classical", [(0, 1)]), ("blend", [(1, w / 10) for w in range(21)])):
    best = max((f1(fit, wn, wc, c), wn, wc, c) for wn, wc in weights for c in range(100, 1500, 10))
    _, wn, wc, c = best
    print(f"{name:9}  {wn} x network + {wc} x classical > {c}: fit {best[0]:.3f}, test {f1(test, wn, wc, c):.3f}")
