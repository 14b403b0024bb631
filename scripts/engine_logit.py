# The engine stage, issue 35: how much Koga's other facts about a puzzle add to engine_cp in
# predicting Lichess's crushing: a logistic regression per feature set, fitted on one half of the
# fitting sample and read on the other, both ways (crushing F1 alone, the threshold chosen on the
# fitted half). docs/engine.md. python scripts/engine_logit.py FEATURES.csv OUT/puzzles.parquet
import csv, sys, numpy as np, chess, polars as pl

VAL = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
SCORES = ("last", "first", "best_max", "best_min", "mean", "alt_last")


def load(feat, pq):
    rows = {r["id"]: r for r in csv.DictReader(open(feat))}
    out = []
    for r in pl.read_parquet(pq).iter_rows(named=True):
        f = rows.get(r["puzzle_id"])
        if f is None:
            continue
        for k in f:
            if k not in ("id", "truth") and f[k] != "":
                f[k] = int(f[k])
        b = chess.Board(r["fen"]); mv = r["moves"].split()
        for m in mv[:-1]:
            b.push_uci(m)
        f["nlegal"] = b.legal_moves.count(); f["check"] = int(b.is_check())
        b.push_uci(mv[-1]); f["gives_check"] = int(b.is_check())
        f["sound"] = int(r["sound"])
        ms = [x for x in r["move_cp"] if x is not None]
        f["mean"] = int(np.mean(ms)) if ms else f["last"]
        ac, am = r["alt_cp"][-1], r["alt_mate"][-1]
        f["alt_last"] = ac if ac is not None else (10000 if am > 0 else -10000) if am is not None else -10000
        f["pawns_only"] = f["total"] - f["pieces"]
        out.append(f)
    return out


def X(rows, feats):
    return np.stack([np.array([min(1500, max(-1500, r[k])) if k in SCORES else r[k] for r in rows], float) for k in feats], 1)


def logit(A, y, iters=3000, lr=0.5, l2=1e-3):
    mu, sd = A.mean(0), A.std(0) + 1e-9
    Z = np.hstack([(A - mu) / sd, np.ones((len(A), 1))]); w = np.zeros(Z.shape[1])
    for _ in range(iters):
        p = 1 / (1 + np.exp(-Z @ w)); w -= lr * (Z.T @ (p - y) / len(y) + l2 * w)
    return lambda B: 1 / (1 + np.exp(-np.hstack([(B - mu) / sd, np.ones((len(B), 1))]) @ w))


def f1(pred, y):
    tp = (pred & y).sum(); fp = (pred & ~y).sum(); fn = (~pred & y).sum()
    return 2 * tp / (2 * tp + fp + fn)


rows = load(sys.argv[1], sys.argv[2])
y = np.array([r["truth"] == "crushing" for r in rows]); half = np.arange(len(rows)) % 2 == 0
SETS = {
    "engine_cp": ["last"],
    "+ first solver position's score": ["last", "first"],
    "+ material balance before and after the line": ["last", "mat_start", "mat_end"],
    "+ line length, promotion": ["last", "plies", "promo"],
    "+ legal moves, in check, gives check": ["last", "nlegal", "check", "gives_check"],
    "+ sound": ["last", "sound"],
    "+ best, worst and mean solver position's score": ["last", "best_max", "best_min", "mean"],
    "+ material on the board": ["last", "total"],
    "+ pieces on the board": ["last", "pieces"],
    "+ pieces and pawns on the board": ["last", "pieces", "pawns_only"],
    "+ pieces, second best move's score": ["last", "pieces", "alt_last"],
    "everything": ["last", "first", "best_max", "best_min", "mean", "alt_last", "mat_start", "mat_end", "total", "pieces",
                   "pawns_only", "plies", "promo", "nlegal", "check", "gives_check", "sound"],
}
for name, feats in SETS.items():
    A = X(rows, feats); res = []
    for tr, te in ((half, ~half), (~half, half)):
        pr = logit(A[tr], y[tr].astype(float)); ptr = pr(A[tr])
        t = max(np.arange(0.2, 0.8, 0.01), key=lambda t: f1(ptr > t, y[tr]))
        res.append(f1(pr(A[te]) > t, y[te]))
    print(f"{name:48s} crushing F1 {res[0]:.3f} / {res[1]:.3f}", flush=True)
