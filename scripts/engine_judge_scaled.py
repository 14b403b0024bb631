# The engine stage: judge.py's searches read by the generator's criterion, literally and on Lichess's scale.
import math, re, sys
def wc(s, scale):
    if s.startswith("#"): return 1.0 if not s.startswith("#-") else -1.0
    return 2 / (1 + math.exp(-0.00368208 * int(s) * scale)) - 1
def ok(best, second, scale):
    if second is None: return True
    if best == "#+1":
        if wc(second, scale) <= 0.6: return True
    return wc(best, scale) > wc(second, scale) + 0.7
pid = None
res = {}
for line in open(sys.argv[1]):
    m = re.match(r"== (\S+)", line)
    if m: pid = m.group(1); res[pid] = []; continue
    m = re.match(r"\s+ply (\d+) puzzle (\S+): 100k: best (\S+) ([^\s,]+)(?:, second (\S+) ([^\s,]+), margin \S+)? \| 2000k: best (\S+) ([^\s,]+)(?:, second (\S+) ([^\s,]+), margin \S+)?", line)
    if m:
        ply, puz, b1, s1, a1, t1, b2, s2, a2, t2 = m.groups()
        fix = lambda s: s.replace("+", "") if not s.startswith("#") else ("#+" + s[1:] if not s.startswith("#-") else s)
        s1, t1, s2, t2 = fix(s1), t1 and fix(t1), fix(s2), t2 and fix(t2)
        v = lambda b, s, t, sc: (b == puz) and ok(s, t, sc)
        res[pid].append((ply, puz, v(b1, s1, t1, 1.0), v(b1, s1, t1, 1.5), v(b2, s2, t2, 1.0), v(b2, s2, t2, 1.5), b1, b2))
for pid, plies in res.items():
    cols = [all(p[i] for p in plies) for i in (2, 3, 4, 5)]
    bad = [f"ply {p[0]} {p[1]}" + ("" if p[6] == p[1] else f" (100k prefers {p[6]})") + ("" if p[7] == p[1] else f" (2M prefers {p[7]})") for p in plies if not p[3]]
    print(pid, "sound? 100k literal %s, 100k scaled %s, 2M literal %s, 2M scaled %s" % tuple(cols), "; fails scaled at 100k:", ", ".join(bad) or "-")
