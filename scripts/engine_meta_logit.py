# The engine stage, issue 35: whether what Lichess publishes with a puzzle (Rating, RatingDeviation,
# Popularity, NbPlays, the move number, the line's length) adds to engine_cp and the pieces on the
# board in predicting Lichess's crushing: a logistic regression fitted on the fitting sample and
# read once on the test sample (crushing F1 alone; docs/engine-fit.md).
# python scripts/engine_meta_logit.py DIR   (DIR from scripts/engine_samples.py, with
# DIR/fit.feat.csv and DIR/test.feat.csv from scripts/engine_features.py)
import csv, sys, math, numpy as np
DIR = sys.argv[1]
def load(feat, src):
    meta = {r['PuzzleId']: r for r in csv.DictReader(open(src))}
    out = []
    for r in csv.DictReader(open(feat)):
        m = meta[r['id']]
        f = {k: (int(v) if k not in ('id', 'truth') and v != '' else v) for k, v in r.items()}
        f['rating'] = int(m['Rating']); f['rd'] = int(m['RatingDeviation']); f['pop'] = int(m['Popularity'])
        f['lplays'] = math.log1p(int(m['NbPlays'])); f['move'] = int(m['FEN'].split()[-1])
        f['nmoves'] = len(m['Moves'].split())
        out.append(f)
    return out
fit = load(f'{DIR}/fit.feat.csv', f'{DIR}/fit.csv'); test = load(f'{DIR}/test.feat.csv', f'{DIR}/test.csv')
def X(rows, feats):
    A = np.stack([np.array([min(1500, max(-1500, r[k])) if k in ('last',) else r[k] for r in rows], float) for k in feats], 1)
    return A
def std(A, mu=None, sd=None):
    if mu is None: mu, sd = A.mean(0), A.std(0) + 1e-9
    return (A - mu) / sd, mu, sd
def logit(A, y, iters=4000, lr=0.3, l2=1e-3):
    A1 = np.hstack([A, np.ones((len(A), 1))]); w = np.zeros(A1.shape[1])
    for _ in range(iters):
        p = 1 / (1 + np.exp(-A1 @ w)); w -= lr * (A1.T @ (p - y) / len(y) + l2 * w)
    return w
def f1(pred, y):
    tp = (pred & y).sum(); fp = (pred & ~y).sum(); fn = (~pred & y).sum()
    return 2 * tp / (2 * tp + fp + fn)
yf = np.array([r['truth'] == 'crushing' for r in fit]); yt = np.array([r['truth'] == 'crushing' for r in test])
for feats in (['last'], ['last', 'pieces'], ['last', 'pieces', 'rating'], ['last', 'pieces', 'lplays'], ['last', 'pieces', 'pop'], ['last', 'pieces', 'rd'], ['last', 'pieces', 'move', 'nmoves'], ['last', 'pieces', 'rating', 'rd', 'pop', 'lplays', 'move', 'nmoves']):
    A, mu, sd = std(X(fit, feats)); w = logit(A, yf.astype(float))
    sf = np.hstack([A, np.ones((len(A), 1))]) @ w
    best = max((f1(sf > t, yf), t) for t in np.linspace(-3, 3, 241))
    At, _, _ = std(X(test, feats), mu, sd); st = np.hstack([At, np.ones((len(At), 1))]) @ w
    print(f'{"+".join(feats):55s} fit {best[0]:.3f}  test {f1(st > best[1], yt):.3f}')
