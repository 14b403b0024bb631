# The engine stage, issue 35: whether a non-linear model does better than the cuts and the
# logistic regressions: gradient-boosted trees (scikit-learn's HistGradientBoostingClassifier) on
# the features scripts/engine_features.py reads (the best scores at the solver moves' positions,
# the line's material and length, the pieces on the board), with and without what Lichess
# publishes with a puzzle (Rating, RatingDeviation, Popularity, log NbPlays). The probability cut
# is fitted by 5-fold cross-validation on the fitting sample, the model then read once on the test
# sample (crushing F1 alone; docs/engine-fit.md). Needs scikit-learn, which Koga does not.
# python scripts/engine_boost.py DIR   (DIR from scripts/engine_samples.py, with
# DIR/fit.feat.csv and DIR/test.feat.csv from scripts/engine_features.py)
import csv, math, sys
import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.model_selection import cross_val_predict

DIR = sys.argv[1]
LINE = ("plies", "last", "first", "best_max", "best_min", "mat_start", "mat_end", "mat_max", "promo", "total", "pieces")


def load(name):
    meta = {r["PuzzleId"]: r for r in csv.DictReader(open(f"{DIR}/{name}.csv"))}
    x, y = [], []
    for r in csv.DictReader(open(f"{DIR}/{name}.feat.csv")):
        m = meta[r["id"]]
        published = [float(m["Rating"]), float(m["RatingDeviation"]), float(m["Popularity"]), math.log1p(float(m["NbPlays"]))]
        x.append([float(r[k]) for k in LINE] + published)
        y.append(r["truth"] == "crushing")
    return np.array(x), np.array(y)


def f1(truth, said):
    return 2 * (truth & said).sum() / (truth.sum() + said.sum())


fit_x, fit_y = load("fit")
test_x, test_y = load("test")
for columns, name in ((slice(0, len(LINE)), "the engine and the line"), (slice(None), "and what Lichess publishes")):
    model = HistGradientBoostingClassifier(learning_rate=0.05, max_iter=100, max_leaf_nodes=15, min_samples_leaf=30, random_state=0)
    held_out = cross_val_predict(model, fit_x[:, columns], fit_y, cv=5, method="predict_proba")[:, 1]
    cut = max(np.arange(0.2, 0.8, 0.01), key=lambda c: f1(fit_y, held_out > c))
    model.fit(fit_x[:, columns], fit_y)
    test = model.predict_proba(test_x[:, columns])[:, 1]
    print(f"{name}: cut {cut:.2f}, fitting (cross-validated) {f1(fit_y, held_out > cut):.3f}, test {f1(test_y, test > cut):.3f}")
