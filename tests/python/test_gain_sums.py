"""scripts/gain_sums.py sets each line's gains beside what the line nets, read off `koga explain`:
the material after each ply and the capture search's figure. Its reading is checked here on the
README's puzzle (no dev set needed)."""
import importlib.util
import os
import subprocess

from conftest import ROOT, koga_binary

spec = importlib.util.spec_from_file_location("gain_sums", os.path.join(ROOT, "scripts", "gain_sums.py"))
gain_sums = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gain_sums)


def explain(fen, moves):
    return subprocess.run([koga_binary(), "explain", fen, moves], check=True, capture_output=True, text=True).stdout


def test_a_line_nets_its_material_swing_and_what_the_capture_search_gives_back():
    # Lichess 000Pw: -2 before ...Ne2+, +7 after ...Nxc3, and White still nets 2 by the capture
    # search (bxc3 takes the knight back): the line nets 7, what its fork and discovery say.
    text = explain("6k1/5p1p/4p3/4q3/3nN3/2Q3P1/PP3P1P/6K1 w - - 2 37", "e4d2 d4e2 g1f1 e2c3")
    assert gain_sums.line_net(text) == 7


def test_a_line_that_mates_nets_nothing_to_compare():
    text = explain("r5k1/5ppp/8/8/8/8/1P3PPP/6K1 w - - 0 1", "b2b3 a8a1")
    assert gain_sums.line_net(text) is None
