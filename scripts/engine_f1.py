# The engine stage: F1 of an --engine run against Lichess's Themes, share unsound (docs/engine.md).
import polars as pl, sys
d = pl.read_parquet(sys.argv[1])
print(len(d), "rows;", d.filter(pl.col("engine_error").is_not_null()).height, "engine errors")
# The engine's themes are in `themes`; only the rows the engine judged count.
judged = d.filter(pl.col("engine_error").is_null() & pl.col("themes").is_not_null())
def f1(th, pred_col="themes"):
    truth = judged["lichess_themes"].list.contains(th)
    pred = judged[pred_col].list.contains(th)
    tp = (truth & pred).sum(); fp = (~truth & pred).sum(); fn = (truth & ~pred).sum()
    return f"{th}: P {tp/max(1,tp+fp):.3f} R {tp/max(1,tp+fn):.3f} F1 {2*tp/max(1,2*tp+fp+fn):.3f} (Lichess {truth.sum()}, Koga {pred.sum()}, both {tp})"
for th in ["crushing", "advantage", "equality", "zugzwang"]:
    print(f1(th))
s = d["sound"]
print("sound:", s.sum(), "unsound:", (~s).sum(), "share unsound %.3f" % ((~s).sum() / s.len()))
mate = d["lichess_themes"].list.contains("mate")
print("unsound among mate puzzles %.3f, among others %.3f" % ((~d.filter(mate)["sound"]).mean(), (~d.filter(~mate)["sound"]).mean()))
